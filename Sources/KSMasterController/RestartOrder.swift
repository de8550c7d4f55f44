extension MCSDK {
    /// The answer to an event sent before the result of a RestartEvent sent earlier had arrived: the same shape as
    /// any other event out of order (a result event with `KSMINVALID_STATE` where the event has one), so that the
    /// guide's `as!` casts hold and the app reads why.
    func refusedBeforeRestartResult(_ event: any KsEvent) -> any KsEvent {
        let message = "\(event.getName()) was sent before RestartEvent's result arrived: wait for the restart's result before sending anything else"
        return switch event {
        case is KSMGetAstClientDataEvent: KSMGetAstClientDataResultEvent.failure(.KSMINVALID_STATE, message)
        case is KSMSetAuthorisationCodeEvent: KSMSetAuthorisationCodeResultEvent.failure(.KSMINVALID_STATE, 0, message)
        case is KSMOfflineLoginEvent: KSMOfflineLoginResultEvent(status: .KSMINVALID_STATE, userIdentifier: nil, errorDescription: message)
        default: KSMInvalidStateEvent(errorMessage: message)
        }
    }
}
