import Determinism
import FlowRecords
import Threading

// A run's events, its transcript and its result.
extension FlowRun {
    // MARK: Events and results

    /// Records one thing that happened, for the front end and the history. `thread` is where it happened.
    public func emit(
        _ step: FlowStep, from: Participant, to: Participant, thread: String = QueueName.current,
        duration: Duration? = nil, status: String? = nil, detail: String, message: String? = nil
    ) {
        let time = clock.now
        guard service.history != nil else {
            post(step, from: from, to: to, thread: thread, time: time, duration: duration, status: status, detail: detail, message: message)
            return
        }
        // Numbered and kept under the transcript's lock (then the mailbox's): every event numbered before the
        // transcript closed is in it, and every later one comes after it. Numbered first and kept after, an event
        // could miss both the transcript and what follows it, or be kept after the cancel it came before.
        transcript.withLock { transcript in
            let event = post(step, from: from, to: to, thread: thread, time: time, duration: duration, status: status, detail: detail, message: message)
            if !transcript.closed {
                transcript.events.append(event)
            } else if awaiting.withLock({ $0.unstoppable.step != nil }) {
                // What a call that goes on after the cancel does, for its history entry.
                transcript.late.append(event)
            }
        }
    }

    /// Numbers the event and posts it to the front end.
    @discardableResult
    private func post(
        _ step: FlowStep, from: Participant, to: Participant, thread: String, time: SimulationInstant, duration: Duration?,
        status: String?, detail: String, message: String?
    ) -> FlowEvent {
        service.mailbox.postEvent { sequence in
            FlowEvent(
                flowID: id, flow: kind, sequence: sequence, step: step, from: from, to: receiver(of: step, from: from, to: to), thread: thread,
                mainThread: thread == "main", time: time, duration: duration, status: status, detail: detail, message: message)
        }
    }

    /// Whom an event goes to: its own `to`, but a fault that bit goes to the party whose call it hit, the one the
    /// last event before it reached (the simulator when none did), as the terminal's diagram draws its ⚡. It went
    /// to the App, which never hears of a fault. Taken in the events' order (under the mailbox's lock).
    private func receiver(of step: FlowStep, from: Participant, to: Participant) -> Participant {
        reached.withLock { reached in
            guard from == .simulator else {
                reached = to
                return to
            }
            return step == .fault ? reached ?? .simulator : to
        }
    }

    /// The events of this run, in order; nothing emitted after this call is added.
    func closeTranscript() -> [FlowEvent] {
        transcript.withLock { transcript in
            transcript.closed = true
            return transcript.events
        }
    }

    /// The flow's result: the engine's fields, what its family adds now, and the advice for `status`.
    ///
    /// A cancelled result of a run the front end aborted for bad input is `ABORTED_BAD_INPUT`, whatever the family
    /// says (it may only know that its SDK was told "User cancelled"): its error names the input at fault first.
    public func result(_ outcome: FlowOutcome, status: String, step: FlowStep?, error: FlowError?) -> FlowResult {
        if outcome == .cancelled, let reason = cancelReason, let abort = reason.abortText, status != reason.status {
            let message = abort + (error.map { " (the SDK was told: \($0.message))" } ?? "")
            return result(.cancelled, status: reason.status, step: step,
                          error: FlowError(subsystem: error?.subsystem, code: error?.code, message: message))
        }
        let family = service.family(for: kind)
        let advice: String? = switch (outcome, status) {
        case (.cancelled, EngineStatus.abortedBadInput): EngineStatus.abortedBadInputAdvice
        // What a cancel there leaves (an activation code the IdP spent) holds after a signal too: "run the flow again"
        // alone sent the user to a code already used (the chaos tester).
        case (.cancelled, EngineStatus.interrupted):
            family?.interruptedAdvice(for: kind, step: step).map { "The process was ended by a signal before the flow ended. \($0)" }
                ?? EngineStatus.interruptedAdvice
        case (.cancelled, _): family?.cancelAdvice(for: kind, step: step)
        case (.success, _): nil
        case (_, EngineStatus.promptTimeout): EngineStatus.promptTimeoutAdvice
        default: family?.advice(for: kind, status: status, error: error, step: step) ?? "See the error message for what the SDK reported."
        }
        return FlowResult(
            flowID: id, flow: kind, outcome: outcome, status: status, failedStep: step, error: error,
            duration: started.duration(to: clock.now), advice: advice, details: family?.details(of: kind) ?? [])
    }

    /// A cancelled result at `step`, with its `cancel` event: `inFlight` when the step's call was under way,
    /// `atPrompt` when the step is a credential prompt the user left (Q2's sign-in screen, a KSSIDP app's form): none
    /// of its credentials was sent.
    /// The status is the run's ``cancelReason``'s (`USER_CANCEL` for the user's cancel).
    public func cancelledResult(at step: FlowStep?, inFlight: Bool = true, atPrompt: Bool = false) -> FlowResult {
        let reason = cancelReason ?? .user
        let verb = reason.verb
        let message = switch (step, inFlight) {
        // A screen or a form is a thing ("at the sign-in screen"); an API call is a name ("at provideCredentials").
        // "Its answer was not sent" had no answer to refer to.
        case (let step?, _) where atPrompt:
            "\(verb) at \(step.rawValue.hasSuffix(" screen") || step.rawValue.hasSuffix(" form") ? "the " : "")\(step.rawValue); no credential was sent"
        // A call that goes on after a cancel does not outlive the process a signal ends ("it goes on" read as the
        // device activated after all, a CI tester: it was not). What its server did before then stays (a code the IdP
        // took is spent).
        case (let step?, true) where awaiting.withLock({ $0.goesOn }) && { if case .interrupted = reason { true } else { false } }():
            "\(verb) while \(step.rawValue) was in flight; the process ends before it does: what the server did by then stays, the rest never happens"
        case (let step?, true) where awaiting.withLock({ $0.goesOn }):
            "\(verb) while \(step.rawValue) was in flight; it goes on, and the app ignores its late result"
        case (let step?, true): "\(verb) while \(step.rawValue) was in flight; its late result is discarded"
        case (let step?, false): "\(verb) before \(step.rawValue)"
        case (nil, _): "\(verb) before the flow started"
        }
        emit(.cancel, from: .app, to: .app, status: reason.status, detail: message)
        let cancelled = result(.cancelled, status: EngineStatus.cancelled, step: step, error: FlowError(subsystem: nil, code: nil, message: message))
        return awaiting.withLock { $0.cancelRevision }?(cancelled) ?? cancelled
    }

    /// What the flow's family makes of a cancelled result the engine made (a payment adds the payment and its next
    /// action once its card was sent): set by the flow as it starts.
    public func reviseCancelledResult(with revise: @escaping @Sendable (FlowResult) -> FlowResult) {
        awaiting.withLock { $0.cancelRevision = revise }
    }
}
