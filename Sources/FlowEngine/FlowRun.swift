import Determinism
import Dispatch
import FlowRecords
import Synchronization
import Threading

/// One run of one flow. Every flow is an `async` function on its device's queue (``FlowService/flowExecutor``):
/// it awaits each SDK call's completion (``call(_:atCancel:onCancel:late:_:)``) and each prompt (``ask(_:)``), and so never
/// holds a thread while it waits. Only `provideCredentials`, a synchronous vendor callback, blocks its own SDK
/// thread while the front end answers, as the vendor's API does.
///
/// A cancel at a prompt answers the prompt (the SDK gets "User cancelled" and the flow ends through it). A
/// cancel while a call is awaited ends the flow at once, from the service's side queue, without waiting for the
/// call or for the device, which the call may still hold (a slow network, a request timeout, a locked state
/// file); the call's late result is discarded (or, for a call that cannot be stopped, only reported: its `late`),
/// and the flow's code, when it resumes, stops.
///
/// A cancel has a reason (``CancelReason``): the user's, or the front end's abort when its input cannot answer a
/// prompt. The first reason a run hears is its ``cancelReason``; a cancelled result of an aborted run says so.
public final class FlowRun: Sendable {
    public let id: Int
    public let kind: FlowKind
    public let service: FlowService
    private let cancelled = Atomic(false)
    /// The call awaited now (each call's number) and what ends it with a cancel (nil while nothing is awaited):
    /// whichever of its reply and a cancel takes `stop` first resumes the flow.
    let awaiting = Locked(Awaiting())
    /// A named struct, not a tuple: a closure in a tuple held by the generic `Locked` is stored re-abstracted, and
    /// each store and load allocated a thunk.
    struct Awaiting {
        var call: UInt64 = 0
        var stop: (@Sendable () -> Void)?
        /// Why the run was cancelled, or a prompt of it: the first reason given. Kept under this lock rather than
        /// its own, which would cost every flow two allocations.
        var reason: CancelReason?
        /// Whether the run's end is reported (``FlowService/finish(_:with:)`` done), and who waits for it.
        var ended = false
        var awaitingEnd: UnsafeContinuation<Void, Never>?
        /// What waits for the run's end to be reported (a late reply, which comes after the cancel's result).
        var afterEnd: [@Sendable () -> Void] = []
        /// The user the flow acts for, once known (``actsFor(user:)``).
        var user: String?
        /// What the flow's family makes of a cancelled result the engine made (``reviseCancelledResult(with:)``);
        /// let go when the run ends, as it holds the family's run, which holds this one.
        var cancelRevision: (@Sendable (FlowResult) -> FlowResult)?
        /// Whether the call awaited last goes on after a cancel (a `late` handler was given).
        var goesOn = false
        /// The call in flight that goes on after a cancel, if any (``unstoppableCallBegan(_:)``).
        var unstoppable = UnstoppableCall()
    }
    /// The first of the flow's own result and a cancel's end is the flow's result.
    let ending = OneTimeClaim()
    public let started: SimulationInstant
    /// Every event of this run, for history (kept only when the service has a history).
    let transcript = Locked(Transcript())
    /// The party the run's last event (not the simulator's) reached: the one a fault that bites next hits.
    let reached = Locked<Participant?>(nil)

    struct Transcript {
        var events: [FlowEvent] = []
        /// Set once the result is made: what abandoned work emits later is not part of it.
        var closed = false
        /// What a call that goes on after the cancel emits once closed, for the history entry when the call ends.
        var late: [FlowEvent] = []
    }

    init(id: Int, kind: FlowKind, service: FlowService) {
        self.id = id
        self.kind = kind
        self.service = service
        started = service.world.clock.now
    }

    /// The clock of the flow's world.
    public var clock: any SimulationClock { service.world.clock }

    // MARK: Running

    /// The flow's code, to its result; nil when a cancel ended it (the cancel reported the result).
    func run() async -> FlowResult? {
        if isCancelled {
            endCancelled(at: nil, inFlight: false)
            return nil
        }
        guard let family = service.family(for: kind) else {
            return result(.failure, status: "UNKNOWN_FLOW", step: nil,
                          error: FlowError(subsystem: nil, code: nil, message: "no flow family runs \(kind.rawValue)"))
        }
        return await family.run(self)
    }

    // MARK: Cancel

    /// Cancels the run for `reason`.
    public func cancel(_ reason: CancelReason = .user) {
        // The reason first: a flow that sees `cancelled` (acquiring) then also sees why, and never reports an
        // abort for bad input as the user's cancel. A later cancel's reason is not kept (the first one wins).
        let reason = note(reason)
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // At a prompt, the cancel goes to the SDK as the "User cancelled" error and the flow ends through it.
        if service.channel.cancel(flowID: id, reason: reason) { return }
        takeAwaiting()?()
    }

    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Ends at once the call a cancelled run still awaits, as a cancel while a call is in flight does. A cancel at a
    /// prompt lets the SDK end the flow its own way (a payment's CReq with challengeCancel 01, answered by an ACS
    /// that may be slow); a process that is ending (a signal) cannot wait for that, and records the flow cancelled
    /// now. Nothing for a run not cancelled, or awaiting no call.
    public func stopAwaitedCall() {
        guard isCancelled else { return }
        takeAwaiting()?()
    }

    /// Names the user the flow acts for, once the flow knows it: the history lists them even when the flow ends
    /// with a result that does not (a cancel while the user's request is in flight).
    public func actsFor(user: String) {
        awaiting.withLock { $0.user = user }
    }

    /// The user the history lists for this run: the one it named (who signed in), else its result's (a login
    /// with no form: the device's user). A failed login as alice on bob's device lists alice, not bob.
    func historyUser(of result: FlowResult) -> String? {
        awaiting.withLock { $0.user } ?? result.details.lazy.compactMap(\.historyUser).first
    }

    /// Why the run, or one of its prompts, was cancelled; nil while nothing was.
    public var cancelReason: CancelReason? { awaiting.withLock { $0.reason } }

    /// Keeps `given` as the run's reason unless it has one already, and returns the run's reason.
    private func note(_ given: CancelReason) -> CancelReason {
        awaiting.withLock { awaiting in
            if awaiting.reason == nil { awaiting.reason = given }
            return awaiting.reason ?? given
        }
    }

    /// A prompt's resolution, its cancel's reason the run's: a prompt the channel refused because the run was
    /// cancelled already resolves for the run's reason.
    private func noted(_ resolution: PromptResolution) -> PromptResolution {
        guard case .cancelled(let given) = resolution else { return resolution }
        return .cancelled(note(given))
    }

    /// Starts a call and awaits its reply, which `start` hands to its argument once; nil once the flow is
    /// cancelled — at once, even while the call is in flight: the flow then ends with a cancelled result at
    /// `step`, and the flow's code must stop. `atCancel` runs at the cancel itself, on the cancelling thread (the
    /// main thread, from a terminal), so it must not block: it abandons what must not happen once the cancel is
    /// made (a request still on its way). `onCancel` undoes what the call set up, later, on the service's side
    /// queue (on the flow's own, for a cancel that came before the call), before the cancelled result is reported;
    /// it may await (a view disposed of on the main queue). `late` hears a reply that comes after a cancel ended the
    /// call (a call that cannot be stopped, whose outcome is only reported), once the cancel's end is reported; such
    /// a call must always reply (KSSIDP's does, its waits bounded by the request timeout), as the next flow waits for it.
    ///
    /// Inlinable, so that each flow's calls are specialized for their reply type (unspecialized, every call
    /// looked up `Reply?`'s metadata at run time); the work that does not depend on the type is not generic.
    @inlinable
    public func call<Reply: Sendable>(
        _ step: @escaping @Sendable () -> FlowStep?, atCancel: (@Sendable () -> Void)? = nil,
        onCancel: (@Sendable () async -> Void)? = nil, late: (@Sendable (Reply) -> Void)? = nil,
        _ start: (@escaping @Sendable (Reply) -> Void) -> Void
    ) async -> Reply? {
        if isCancelled {
            await endBeforeCall(at: step, atCancel: atCancel, onCancel: onCancel)
            return nil
        }
        // Resumed exactly once: by whichever of the reply and the cancel takes the awaited call first. Meanwhile
        // the flow counts as nothing in a test's count: the call's work counts instead, and the reply or the cancel
        // begins the flow's count again before resuming it.
        let pending = service.pendingWork
        return await withUnsafeContinuation { continuation in
            defer { pending?.end() }
            let stop: @Sendable () -> Void = {
                pending?.begin()
                continuation.resume(returning: nil)
            }
            guard let call = beginAwaiting(at: step, atCancel: atCancel, onCancel: onCancel, goesOn: late != nil, stop: stop) else { return }
            // A call that goes on after a cancel: what its SDK does meanwhile stays this run's, and the next flow waits
            // for its end.
            if late != nil { unstoppableCallBegan(step()) }
            start { [self] reply in
                let first = endAwaiting(call)
                if let late {
                    // A reply the cancel beat comes after the cancel's event and result, whenever it arrives (between
                    // the cancel and its end, on the side queue, it came before them, and into the transcript).
                    if first { unstoppableCallEnded() } else { whenEndReported { [self] in late(reply); unstoppableCallEnded() } }
                }
                guard first else { return }
                pending?.begin()
                continuation.resume(returning: reply)
            }
        }
    }

    /// Ends the flow as cancelled, for a cancel that came before the call was made.
    @usableFromInline
    func endBeforeCall(at step: @Sendable () -> FlowStep?, atCancel: (@Sendable () -> Void)?, onCancel: (@Sendable () async -> Void)?) async {
        atCancel?()
        await onCancel?()
        endCancelled(at: step(), inFlight: false)
    }

    /// Records what a cancel does to the call about to start (`stop` resumes its flow with nil) and returns the
    /// call's number; nil when a cancel came meanwhile and has already stopped it.
    @usableFromInline
    func beginAwaiting(
        at step: @escaping @Sendable () -> FlowStep?, atCancel: (@Sendable () -> Void)?, onCancel: (@Sendable () async -> Void)?,
        goesOn: Bool, stop resume: @escaping @Sendable () -> Void
    ) -> UInt64? {
        let stop: @Sendable () -> Void = { [self] in
            // Counted from the start (a test's count): what it wakes could end before its end is queued.
            let pending = service.pendingWork
            pending?.begin()
            defer { pending?.end() }
            // At the cancel itself: a request still on its way is abandoned before anything else can move on
            // (from the side queue, a clock passing meanwhile could still deliver it).
            atCancel?()
            resume()
            // Not behind the call, which may still hold the device.
            guard let onCancel else {
                service.sideQueue.async(counting: pending) { [self] in endCancelled(at: step(), inFlight: true) }
                return
            }
            // On the side queue too, holding it only while it runs: made here, as few cancels have a clean-up.
            DispatchTaskExecutor(queue: service.sideQueue).startTask(counting: pending) { [self] in
                await onCancel()
                endCancelled(at: step(), inFlight: true)
            }
        }
        let call = awaiting.withLock { awaiting in
            awaiting.call &+= 1
            awaiting.stop = stop
            awaiting.goesOn = goesOn
            return awaiting.call
        }
        if isCancelled, let stop = takeAwaiting(call) {
            stop()
            return nil
        }
        return call
    }

    /// A call that goes on after a cancel began (its `step`): until it ends, the service reports the device's traffic
    /// into this run once no other runs, and the next run waits for its end (``whenUnstoppableCallEnds(_:)``).
    @usableFromInline
    func unstoppableCallBegan(_ step: FlowStep?) {
        awaiting.withLock { $0.unstoppable.step = .some(step) }
        service.unstoppableCall(of: self, inFlight: true)
    }

    @usableFromInline
    func unstoppableCallEnded() {
        // Out of the service's list first: a next run that finds it there is then sure to be told of its end.
        service.unstoppableCall(of: self, inFlight: false)
        var historyID: Int?
        let waiting = awaiting.withLock { awaiting in
            historyID = awaiting.unstoppable.historyID
            return awaiting.unstoppable.end()
        }
        // What it did after the cancel goes into the history too, after the cancel (the transcript ended there,
        // and a QA tester reading `history show` never saw what the wrapper went on to do).
        let late = transcript.withLock { transcript in
            defer { transcript.late = [] }
            return transcript.late
        }
        // In the order they came (kept under the transcript's lock); a store that fails says so in the log, as a
        // flow not saved does.
        if let historyID, !late.isEmpty, let history = service.history {
            do {
                try history.append(late.enumerated().map { RecordedEvent($1, sequence: $0 + 1) }, toFlow: historyID)
            } catch {
                emit(.historyNotSaved, from: .simulator, to: .app, status: "NOT_SAVED",
                     detail: "what the call did after the cancel was not added to history entry \(historyID): \(error.description)")
            }
        }
        for then in waiting { then() }
    }

    /// The run's history entry, for what a call that goes on after the cancel does later.
    func recorded(as historyID: Int) {
        awaiting.withLock { $0.unstoppable.historyID = historyID }
    }

    /// The step of the call in flight that goes on after a cancel; nil when none is.
    var unstoppableStep: FlowStep?? { awaiting.withLock { $0.unstoppable.step } }

    /// Calls `then` once no call of this run that goes on after a cancel is in flight: at once when none is.
    func whenUnstoppableCallEnds(_ then: @escaping @Sendable () -> Void) {
        if !awaiting.withLock({ $0.unstoppable.wait(then) }) { then() }
    }

    /// True when the reply to `call` comes first, before a cancel: the reply then resumes the flow.
    @usableFromInline
    func endAwaiting(_ call: UInt64) -> Bool { takeAwaiting(call) != nil }

    /// Takes what ends the awaited call (`call` only, when given), so that nothing else resumes it.
    private func takeAwaiting(_ call: UInt64? = nil) -> (@Sendable () -> Void)? {
        var stop: (@Sendable () -> Void)?
        awaiting.withLock { awaiting in
            guard call == nil || awaiting.call == call else { return }
            swap(&stop, &awaiting.stop)
        }
        return stop
    }

    /// Marks the run's end reported: its result, events and history are all out.
    func markEnded() {
        let (waiting, after) = awaiting.withLock { awaiting in
            awaiting.ended = true
            awaiting.cancelRevision = nil
            defer { (awaiting.awaitingEnd, awaiting.afterEnd) = (nil, []) }
            return (awaiting.awaitingEnd, awaiting.afterEnd)
        }
        for then in after { then() }
        guard let waiting else { return }
        service.pendingWork?.begin()
        waiting.resume()
    }

    /// Calls `then` once the run's end is reported: at once when it is.
    @usableFromInline
    func whenEndReported(_ then: @escaping @Sendable () -> Void) {
        let now = awaiting.withLock { awaiting in
            if !awaiting.ended { awaiting.afterEnd.append(then) }
            return awaiting.ended
        }
        if now { then() }
    }

    /// Returns once the run's end is reported. A cancel in flight resumes the flow's code at once but reports the
    /// end from the side queue (after undoing the call's set-up): the next flow waits for that, so that nothing of
    /// this run comes after the next one begins.
    func ended() async {
        await withUnsafeContinuation { continuation in
            let now = awaiting.withLock { awaiting in
                if !awaiting.ended { awaiting.awaitingEnd = continuation }
                return awaiting.ended
            }
            if now { continuation.resume() } else { service.pendingWork?.end() }
        }
    }

    /// Ends the flow if it is cancelled, before `step` starts; the flow's code must then stop.
    public func stopIfCancelled(before step: FlowStep) -> Bool {
        guard isCancelled else { return false }
        endCancelled(at: step, inFlight: false)
        return true
    }

    /// Asks the front end and awaits the answer, the cancel or the timeout.
    public func ask(_ request: any PromptRequest) async -> (PromptResolution, Duration) {
        let asked = clock.now
        let resolution = await service.channel.ask(flowID: id, timeout: service.promptTimeout) { [self] promptID in
            FlowPrompt(id: promptID, flowID: id, flow: kind, request: request)
        }
        return (noted(resolution), asked.duration(to: clock.now))
    }

    /// Asks the front end and blocks this thread for the answer: only for an SDK's synchronous callback
    /// (`provideCredentials`), whose vendor API blocks its thread.
    @available(*, noasync, message: "a flow awaits ask(_:); only an SDK's synchronous callback blocks its thread")
    public func askBlocking(_ request: any PromptRequest) -> (PromptResolution, Duration) {
        let asked = clock.now
        let resolution = service.channel.askBlocking(flowID: id, timeout: service.promptTimeout) { [self] promptID in
            FlowPrompt(id: promptID, flowID: id, flow: kind, request: request)
        }
        return (noted(resolution), asked.duration(to: clock.now))
    }

    /// A cancel's end of the flow: the cancel event and the cancelled result, unless the flow ended already.
    private func endCancelled(at step: FlowStep?, inFlight: Bool) {
        guard ending.claim() else { return }
        service.finish(self, with: cancelledResult(at: step, inFlight: inFlight))
    }
}
