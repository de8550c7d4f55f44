import FlowRecords

/// Whether a diagram's arrow asks (a call, a prompt, a request, a message: solid) or answers (dashed), read from
/// the flow's events in order, the same way for every flow.
///
/// An arrow answers the newest unanswered one sent to its sender by its receiver (or, for a call made within one
/// lane, as Q2's module calls Core's `passwordAuthentication`, by its sender itself) when it is:
/// - the same step coming back: a call's result, a prompt's answer, an HTTP response (`Start`, `provideCredentials`,
///   `GET /authorize`, `card form`, `challenge screen`, `POST /mobilews/logonUser` …);
/// - 3-D Secure's response to its request: ARes to AReq, CRes to CReq, RRes to RReq, PRes to PReq;
/// - an `ack` of a bridge message, or an `Erro` sent in place of a response;
/// - a Drops delegate callback (`onPayerAuthentication…`, `onSafepayError`): the SDK's answer to the app's
///   `configure`, which it may answer more than once (Required, then Success).
enum ArrowKind {
    static let threeDSRequests = ["ARes": "AReq", "CRes": "CReq", "RRes": "RReq", "PRes": "PReq"]

    /// For each event, true when it answers an earlier one.
    static func answers(_ events: [RecordedEvent]) -> [Bool] {
        var open: [RecordedEvent] = []
        return events.map { event in
            guard event.from != event.to, let index = open.lastIndex(where: { answers(event, $0) }) else {
                open.append(event)
                return false
            }
            if !isDelegateCallback(event) { open.remove(at: index) }
            return true
        }
    }

    private static func answers(_ event: RecordedEvent, _ request: RecordedEvent) -> Bool {
        guard request.to == event.from else { return false }
        let withinOneLane = request.from == request.to
        guard request.from == event.to || withinOneLane else { return false }
        if event.step == request.step { return true }
        if withinOneLane { return false }
        if let asked = threeDSRequests[event.step] { return request.step == asked }
        if event.step == "ack" || event.step == "Erro" { return true }
        return isDelegateCallback(event) && request.step == "configure"
    }

    private static func isDelegateCallback(_ event: RecordedEvent) -> Bool {
        event.step.hasPrefix("onPayerAuthentication") || event.step == "onSafepayError"
    }
}
