import FlowCatalog
import FlowEngine
import FlowRecords
import PaymentFlows

// The service's messages, on the main thread: events into the log and the working screen, prompts into forms,
// results and reports onto the screen.
extension TerminalApp {
    public func flowService(_ service: FlowService, didEmit event: FlowEvent) {
        if state.log.last?.flowID != event.flowID {
            // The flow before ended: its labels space its kind's next diagrams, gathered once, not at each frame.
            if let previous = state.log.last {
                addLaneHints(SequencePane.longestLabels(state.log.filter { $0.flowID == previous.flowID }), for: previous.flow)
            }
            // The history's only for a diagram shown: the list needs none (v reads them when it shows the diagram).
            if state.logAsSequence { readLaneHints(for: event.flow) }
        }
        state.log.append(event)
        if state.endedFlows.contains(event.flowID) { state.lateEvents.insert(event.sequence) }
        state.logWidest.add(event)
        if state.log.count > AppState.logLimit { state.log.removeFirst(state.log.count - AppState.logLimit) }
        if state.logScroll > 0 { state.logScroll += 1 }
        // A focused log with an event selected stays still as events come (the newest followed moves with them).
        if var focus = state.logFocus, focus.selected != nil, focus.filter.isEmpty || LogPane.matches(event, focus.filter) {
            focus.scroll += 1
            state.logFocus = focus
        }
        trackInFlight(event)
        // A cancelled flow's screen says so until its result (the prompt's USER_CANCEL event read "waiting for …").
        if case .working(let flowID, let flow, let current) = state.screen, flowID == event.flowID, current != ScreenState.cancellingStep,
           event.step != .cancel, !event.step.isFaultNotice {
            let step = if event.step == .waitingForFlow {
                "waiting for \(event.detail)…"
            } else if event.flow == .payerAuth {
                "\(LogPane.who(event)) \(event.step.rawValue)" + (event.status.map { ": \($0)" } ?? "")
            } else if event.from != .app && event.to != .app {
                "\(event.from.rawValue) → \(event.to.rawValue): \(event.step.rawValue)" + (event.status.map { " \($0)" } ?? "…")
            } else if event.from == .app, let status = event.status {
                // The app answered the SDK's prompt: the SDK goes on with it (its request may be on its way).
                "waiting for \(event.to.rawValue) (\(event.step.rawValue) \(status))…"
            } else if event.from == .app {
                "waiting for \(event.to.rawValue): \(event.step.rawValue)…"
            } else {
                "\(event.from.rawValue) answered \(event.step.rawValue): \(event.status ?? "")"
            }
            state.screen = .working(flowID: flowID, flow: flow, step: step)
        }
        state.deviceStatus = service.statusLine
        // A flow changes a fault only where one bites (a runtime error turns itself off), which the simulator
        // reports: the switches are read again then, not for every event.
        if event.from == .simulator { refreshFaults() }
    }

    /// A request (an event without a status: App → SDK, SDK → IdP, Drops → DS …) is in flight until an event
    /// with a status answers. The reply to a request (the same step, back) ends it and what was asked since, so
    /// that the call it was made for (the app's `authenticate(using:)` around the security module's check, its
    /// `SetAuthorisationCode` around `POST /token`) is waited on again, with its own elapsed time; any other
    /// answer, and a prompt or callback to the app (the app's turn), ends them all. The app's answer to a prompt
    /// hands the turn back: the SDK is waited on, with its own elapsed time, until its next request (an added
    /// latency is waited out before that request is sent, and the screen showed no time). Faults leave them as
    /// they are.
    private func trackInFlight(_ event: FlowEvent) {
        guard !event.step.isFaultNotice, state.runningFlow == nil || state.runningFlow == event.flowID else { return }
        let (from, to, step) = (event.from.rawValue, event.to.rawValue, event.step.rawValue)
        // Waiting, before it starts, for a cancelled flow's call that goes on: that call, its time ticking.
        if event.step == .waitingForFlow {
            state.callsInFlight = [InFlightCall(what: event.detail, since: .now, answeredBy: nil)]
        } else if event.status == nil && event.duration == nil && event.to != .app {
            state.callsInFlight.removeAll { $0.answeredBy == nil }
            state.callsInFlight.append(InFlightCall(what: "\(to): \(step) (from \(from))", since: .now,
                                                    answeredBy: (from: to, to: from, step: step)))
        } else if event.from == .app, event.to != .app, let status = event.status {
            state.callsInFlight = [InFlightCall(what: "\(to) (\(step) \(status))", since: .now, answeredBy: nil)]
        } else if let asked = state.callsInFlight.lastIndex(where: { $0.answeredBy.map { $0 == (from, to, step) } ?? false }) {
            state.callsInFlight.removeSubrange(asked...)
        } else {
            state.callsInFlight = []
        }
    }

    /// How often the screen is drawn again while a call is in flight (its elapsed time ticks); nil when nothing
    /// is waited on, so that an idle screen writes nothing.
    public var tickInterval: Duration? { tickInterval(at: .now) }

    /// ``tickInterval`` as it is at `now`.
    public func tickInterval(at now: ContinuousClock.Instant) -> Duration? {
        // The state file may wait for another process's lock as the session starts: asked a few times a second until
        // the service is built (a frame that did not change writes nothing).
        if serviceIfReady == nil, startupLock != nil { return .milliseconds(250) }
        if case .working(_, _, let step) = state.screen {
            if step != ScreenState.cancellingStep, state.inFlight != nil { return .milliseconds(250) }
            // A cancel is quiet for its first second (most end within it), then its time ticks.
            if step == ScreenState.cancellingStep, let since = state.cancellingSince {
                let shown = since + AppState.cancelShownAfter
                return now < shown ? now.duration(to: shown) : .milliseconds(250)
            }
            // With nothing in flight, the flow's end may wait for another process's lock on the state file, which
            // only the history can tell: asked a few times a second while a flow works (a frame that did not change
            // writes nothing).
            if let history = serviceIfReady?.history, !(history is MemoryFlowHistory) { return .milliseconds(250) }
        }
        // A prompt that times out: nothing until its countdown starts, then the countdown ticks.
        if let left = state.promptTimeLeft(at: now), left > .zero {
            return left > AppState.countdownFrom ? left - AppState.countdownFrom : .milliseconds(250)
        }
        return nil
    }

    /// Moves the screen's clock on, for the elapsed time of the call in flight.
    public func tick(now: ContinuousClock.Instant = .now) {
        state.now = now
        if serviceIfReady == nil { state.startupLockedSince = startupLock?.since() }
        state.stateFileLockedSince = if case .working = state.screen { serviceIfReady?.history?.lockedSince } else { nil }
    }

    public func flowService(_ service: FlowService, needsAnswerTo prompt: FlowPrompt) {
        // The prompt of a flow cancelled while it worked, posted before the cancel reached it: the flow is ending, and
        // its form is not shown (the lines of a script that followed the Esc were taken as its hidden password).
        if case .working(let flowID, _, ScreenState.cancellingStep) = state.screen, flowID == prompt.flowID {
            service.answer(prompt, with: .cancel)
            return
        }
        state.promptDeadline = service.promptTimeout.map { ContinuousClock.now + $0 }
        // The form is open now: a key typed while it worked is old news (it stayed under a challenge screen come back).
        if state.notice == AppState.notKeptWhileWorking { state.notice = nil }
        // A prompt takes the keys from a focused log, which gives the focus back as Esc there does, after the screen
        // changes (the log's rows are the form's); keys typed next went to the log while the form's cursor waited in
        // its field. Not from a filter being typed or an event shown whole: the rest of a filter's text went into
        // the password and its Enter submitted it (a wrong password, an attempt spent), and the Esc that was to
        // close an event cancelled the flow. Those keep the keys, say that the form is waiting, and hand it the
        // keys when they close (as the faults panel stays over a form that comes). A filter being typed stops, its
        // text so far kept: a password typed on, meant for the form, showed in it; keys are now "not typed", as
        // after F6 from a form.
        var leaving = state.logFocus
        let keepsKeys = leaving.map { $0.editingFilter || $0.detail != nil } ?? false
        if leaving?.editingFilter == true {
            state.logFocus?.editingFilter = false
            state.notice = LogFocusState.formCame
        }
        // A log that keeps the keys is not zoomed over the form: the form shows, waiting (it stayed hidden under the
        // log, its prompt's time running).
        state.logFocus?.zoomed = false
        leaving?.zoomed = false
        state.diagramZoomed = false
        if !keepsKeys { state.logFocus = nil }
        defer { if let leaving, !keepsKeys { leaveLogFocus(leaving) } }
        switch prompt.request {
        case let form as any ChoosingForm: open(prompt, form)
        case let request as PaymentDetailsRequest: state.screen = .payment(PaymentFormState(prompt: prompt, defaults: request.defaults, lastCard: state.lastCard))
        case let request as ChallengeRequest: state.screen = .challenge(ChallengeState(prompt: prompt, screen: request.screen))
        case is any CredentialForm: state.screen = .form(FormState(prompt: prompt, focusFirstEmpty: !state.plain))
        default: service.answer(prompt, with: .cancel)
        }
    }

    public func flowService(_ service: FlowService, didFinish result: FlowResult) {
        if state.runningFlow == result.flowID { state.runningFlow = nil }
        state.endedFlows.insert(result.flowID)
        if let recorded = result.details.lazy.compactMap({ $0 as? HistoryEntryDetail }).first {
            state.historyIDs[result.flowID] = recorded.id
        }
        state.inFlight = nil
        state.deviceStatus = service.statusLine
        // An Esc that stopped waiting for the state file's lock held for the flow it ended (its late SDK work too,
        // until now): what comes next waits again.
        service.history?.waitForLockAgain()
        // A note about keys the log took from the flow's prompt goes with the prompt.
        if [LogFocusState.notTyped, LogFocusState.notTypedSlash, LogFocusState.pasteIgnored, LogFocusState.formCame].contains(state.notice) {
            state.notice = nil
        }
        guard exitStatus == nil else { return }
        // So is one after a wait for the state file's lock that the screen showed: an Esc meant to stop it, coming as
        // it ended, dismissed the result unseen.
        let waited = state.screen.isCancelling && state.cancellingSince.map { $0.duration(to: .now) >= AppState.cancelShownAfter } == true
            || state.showsLockWait(at: .now)
        state.resultAfterWaitedCancel = waited ? .now : nil
        state.screen = .result(result)
    }

    public func flowService(_ service: FlowService, didReport report: any Sendable) {
        if let report = report as? ParityReport { showComparison(report) }
    }
}
