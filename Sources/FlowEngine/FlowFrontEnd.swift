/// The one protocol every front end implements: the headless runner and the terminal UI alike.
///
/// A front end waits until ``FlowService/wakeFileDescriptor`` is readable (with `poll`, beside its other
/// inputs), then calls ``FlowService/deliverPendingMessages(to:)``, which calls these methods on that same
/// thread, in order. A prompt stays open until the front end calls ``FlowService/answer(_:with:)`` (at once,
/// or later when the user submits or cancels) or it times out.
public protocol FlowFrontEnd: AnyObject {
    func flowService(_ service: FlowService, didEmit event: FlowEvent)
    func flowService(_ service: FlowService, needsAnswerTo prompt: FlowPrompt)
    func flowService(_ service: FlowService, didFinish result: FlowResult)
    /// A report a front end asked a family for, off its thread (the migration parity check's).
    func flowService(_ service: FlowService, didReport report: any Sendable)
}

extension FlowFrontEnd {
    /// Front ends that never ask for a report need not take one.
    public func flowService(_ service: FlowService, didReport report: any Sendable) {}
}
