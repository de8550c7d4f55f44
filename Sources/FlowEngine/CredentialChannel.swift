import Determinism
import FlowRecords
import Threading

/// The synchronized channel between the flows (and the SDKs' callbacks that ask: `provideCredentials`, the Drops
/// page's card form and challenge screens) and the front end.
///
/// The asking side posts a prompt to the mailbox and awaits it (only `provideCredentials`, a synchronous vendor
/// callback, blocks its thread); the front end answers or cancels it, or the timeout (on the simulation clock)
/// fires; whichever comes first resumes the asking side.
public final class CredentialChannel: Sendable {
    private let mailbox: ServiceMailbox
    private let clock: any SimulationClock
    private let state = Locked(State())

    private struct State {
        var open: [Int: Open] = [:]
        /// Flows that may still prompt: queued or running, and not cancelled.
        var liveFlows: Set<Int> = []
        var nextID = 1
    }

    private struct Open {
        let flowID: Int
        let request: any PromptRequest
        let slot: OneShot<PromptResolution>
    }

    public init(mailbox: ServiceMailbox, clock: any SimulationClock) {
        self.mailbox = mailbox
        self.clock = clock
    }

    /// Posts a prompt and suspends until it is answered, cancelled or times out: how a flow asks.
    /// `prompt` builds the prompt from its id. A flow that may no longer prompt gets `.cancelled(.user)` at once
    /// (its ``FlowRun`` puts its own reason in).
    public func ask(flowID: Int, timeout: Duration?, prompt make: (Int) -> FlowPrompt) async -> PromptResolution {
        guard let (id, slot, timer) = post(flowID: flowID, timeout: timeout, make) else { return .cancelled(.user) }
        let resolution = await slot.value()
        close(id, timer)
        return resolution
    }

    /// Posts a prompt and blocks this thread until it is answered, cancelled or times out: only for an SDK's
    /// synchronous callback (`provideCredentials`), whose vendor API blocks its thread while the app answers.
    @available(*, noasync, message: "await ask(flowID:timeout:prompt:)")
    public func askBlocking(flowID: Int, timeout: Duration?, prompt make: (Int) -> FlowPrompt) -> PromptResolution {
        guard let (id, slot, timer) = post(flowID: flowID, timeout: timeout, make) else { return .cancelled(.user) }
        let resolution = slot.wait()
        close(id, timer)
        return resolution
    }

    private func post(flowID: Int, timeout: Duration?, _ make: (Int) -> FlowPrompt)
        -> (Int, OneShot<PromptResolution>, ScheduledTimer?)?
    {
        // Answered by the front end or the clock: waiting for it is waiting for the test (``PendingWork``).
        let slot = OneShot<PromptResolution>(counting: clock.pendingWork)
        let prompt: FlowPrompt? = state.withLock { state in
            guard state.liveFlows.contains(flowID) else { return nil }
            let prompt = make(state.nextID)
            state.nextID += 1
            state.open[prompt.id] = Open(flowID: flowID, request: prompt.request, slot: slot)
            return prompt
        }
        guard let prompt else { return nil }
        let timer = timeout.map { timeout in clock.schedule(after: timeout) { slot.fulfil(.timedOut) } }
        mailbox.post(.prompt(prompt))
        return (prompt.id, slot, timer)
    }

    private func close(_ id: Int, _ timer: ScheduledTimer?) {
        timer?.cancel()
        state.withLock { _ = $0.open.removeValue(forKey: id) }
    }

    /// Answers an open prompt. Returns false when it is no longer open (answered, cancelled or timed out), or
    /// when the answer does not fit the prompt (card details for a credential prompt): the prompt stays open.
    @discardableResult
    public func answer(promptID: Int, with answer: PromptAnswer) -> Bool {
        guard let open = state.withLock({ $0.open[promptID] }), answer.isCancel || open.request.accepts(answer) else { return false }
        if let reason = answer.cancelReason { return open.slot.fulfil(.cancelled(reason)) }
        return open.slot.fulfil(.answered(answer))
    }

    /// Lets a flow prompt, from when it is queued.
    public func open(flowID: Int) {
        _ = state.withLock { $0.liveFlows.insert(flowID) }
    }

    /// Cancels a flow's open prompts and refuses any it would post later: once a flow is cancelled or has
    /// finished, abandoned work still running for it in an SDK can never reach the user.
    /// Returns whether this call cancelled an open prompt (which resolves cancelled for `reason`).
    @discardableResult
    public func cancel(flowID: Int, reason: CancelReason = .user) -> Bool {
        let slots = state.withLock { state in
            state.liveFlows.remove(flowID)
            return state.open.values.filter { $0.flowID == flowID }.map(\.slot)
        }
        return slots.map { $0.fulfil(.cancelled(reason)) }.contains(true)
    }

    public var openPromptCount: Int { state.withLock { $0.open.count } }
}
