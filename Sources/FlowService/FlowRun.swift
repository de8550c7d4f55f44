import Determinism
import Dispatch
import FlowRecords
import KSMasterController
import Synchronization
import Threading

/// One run of one flow. Every flow is an `async` function on its device's queue (``FlowService/flowExecutor``):
/// it awaits each SDK call's completion (``call(_:onCancel:_:)``) and each prompt (``ask(_:)``), and so never
/// holds a thread while it waits. Only the SDKs' synchronous callbacks — `provideCredentials`, the Drops page's
/// card form and challenge screens — block their own SDK thread while the front end answers, as the vendors'
/// APIs do.
///
/// A cancel at a prompt answers the prompt (the SDK gets "User cancelled" and the flow ends through it). A
/// cancel while a call is awaited ends the flow at once, from the service's side queue, without waiting for the
/// call or for the device, which the call may still hold (a slow network, a request timeout, a locked state
/// file); the call's late result is discarded, and the flow's code, when it resumes, stops.
final class FlowRun: Sendable {
    let id: Int
    let kind: FlowKind
    let service: FlowService
    private let cancelled = Atomic(false)
    /// Ends the call awaited now with a cancel (nil while nothing is awaited).
    private let awaiting = Locked<(@Sendable () -> Void)?>(nil)
    /// The first of the flow's own result and a cancel's end is the flow's result.
    let ending = OneTimeClaim()
    let started: SimulationInstant
    /// Every event of this run, for history (kept only when the service has a history).
    private let transcript = Locked<[FlowEvent]>([])
    /// Set once the result is made: what abandoned work emits later is not part of the transcript.
    private let finished = Atomic(false)

    init(id: Int, kind: FlowKind, service: FlowService) {
        self.id = id
        self.kind = kind
        self.service = service
        started = service.environment.clock.now
    }

    var environment: SimulationEnvironment { service.environment }
    var configuration: FlowConfiguration { service.configuration }

    // MARK: Running

    /// The flow's code, to its result; nil when a cancel ended it (the cancel reported the result).
    func run() async -> FlowResult? {
        if isCancelled {
            endCancelled(at: nil, inFlight: false)
            return nil
        }
        switch kind {
        case .activate: return await signIn(clientId: configuration.enrollmentClientId)
        case .login: return await signIn(clientId: configuration.loginClientId)
        case .logout: return await logout()
        case .payerAuth: return await payerAuthentication()
        case .q2Login: return await q2Login()
        case .legacyActivate, .legacyLogin: return await legacy()
        }
    }

    // MARK: Cancel

    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // At a prompt, the cancel goes to the SDK as the "User cancelled" error and the flow ends through it.
        if service.channel.cancel(flowID: id) { return }
        awaiting.withLock { $0 }?()
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Starts a call and awaits its reply, which `start` hands to its argument once; nil once the flow is
    /// cancelled — at once, even while the call is in flight: the flow then ends with a cancelled result at
    /// `step` (after `onCancel`, which undoes what the call set up), and the flow's code must stop.
    func call<Reply: Sendable>(
        _ step: @escaping @Sendable () -> FlowStep?, onCancel: (@Sendable () -> Void)? = nil,
        _ start: (@escaping @Sendable (Reply) -> Void) -> Void
    ) async -> Reply? {
        if isCancelled {
            onCancel?()
            endCancelled(at: step(), inFlight: false)
            return nil
        }
        // Resumed exactly once: whichever of the reply and the cancel claims `once` first.
        return await withUnsafeContinuation { continuation in
            let once = OneTimeClaim()
            let stop: @Sendable () -> Void = { [self] in
                guard once.claim() else { return }
                continuation.resume(returning: nil)
                // Not behind the call, which may still hold the device.
                service.sideQueue.async { [self] in
                    onCancel?()
                    endCancelled(at: step(), inFlight: true)
                }
            }
            awaiting.withLock { $0 = stop }
            if isCancelled { return stop() }
            start { [self] reply in
                guard once.claim() else { return }
                awaiting.withLock { $0 = nil }
                continuation.resume(returning: reply)
            }
        }
    }

    /// Ends the flow if it is cancelled, before `step` starts; the flow's code must then stop.
    func stopIfCancelled(before step: FlowStep) -> Bool {
        guard isCancelled else { return false }
        endCancelled(at: step, inFlight: false)
        return true
    }

    /// Asks the front end and awaits the answer, the cancel or the timeout.
    func ask(_ request: PromptRequest) async -> (PromptResolution, Duration) {
        let asked = environment.clock.now
        let resolution = await service.channel.ask(flowID: id, timeout: configuration.promptTimeout) { [self] promptID in
            FlowPrompt(id: promptID, flowID: id, flow: kind, request: request)
        }
        return (resolution, asked.duration(to: environment.clock.now))
    }

    /// A cancel's end of the flow: the cancel event and the cancelled result, unless the flow ended already.
    private func endCancelled(at step: FlowStep?, inFlight: Bool) {
        guard ending.claim() else { return }
        service.finish(self, with: cancelledResult(at: step, inFlight: inFlight))
    }

    // MARK: Events and results

    func emit(
        _ step: FlowStep, from: Participant, to: Participant, thread: String = QueueName.current,
        duration: Duration? = nil, status: String? = nil, detail: String
    ) {
        let time = environment.clock.now
        let event = service.mailbox.postEvent { sequence in
            FlowEvent(
                flowID: self.id, flow: self.kind, sequence: sequence, step: step, from: from, to: to, thread: thread,
                mainThread: thread == "main", time: time, duration: duration, status: status, detail: detail)
        }
        if service.history != nil && !finished.load(ordering: .acquiring) { transcript.withLock { $0.append(event) } }
    }

    /// The events of this run, in order; nothing emitted after this call is added.
    func closeTranscript() -> [FlowEvent] {
        finished.store(true, ordering: .releasing)
        return transcript.withLock { $0.sorted { $0.sequence < $1.sequence } }
    }

    func result(_ outcome: FlowOutcome, status: String, step: FlowStep?, error: FlowError?) -> FlowResult {
        let device = environment.masterController.snapshot
        return FlowResult(
            flowID: id, flow: kind, outcome: outcome, status: status, failedStep: step, error: error,
            user: device.activatedUser?.userId, tenantId: environment.tenantId, astClientId: device.astClientId,
            authenticationMode: device.authenticationMode, duration: started.duration(to: environment.clock.now))
    }

    func cancelledResult(at step: FlowStep?, inFlight: Bool = true) -> FlowResult {
        let message = switch (step, inFlight) {
        case (let step?, true): "cancelled while \(step.rawValue) was in flight; its late result is discarded"
        case (let step?, false): "cancelled before \(step.rawValue)"
        case (nil, _): "cancelled before the flow started"
        }
        emit(.cancel, from: .app, to: .app, status: StatusType.USER_CANCEL.name, detail: message)
        return result(.cancelled, status: StatusType.USER_CANCEL.name, step: step,
                      error: FlowError(subsystem: nil, code: nil, message: message))
    }

}
