import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import IdpSdk
import LegacyFlows
import PaymentFlows
import Secrets

/// The terminal front end's logic, with no terminal: keys and service messages in, state out; the view draws
/// the state into a ``ScreenBuffer``. The curses backend drives it on the main thread.
public final class TerminalApp: FlowFrontEnd {
    public internal(set) var state: AppState
    /// The service, once it is built: the first frame is drawn before it is ready, and keys typed in the
    /// meantime wait for it.
    public private(set) var serviceIfReady: FlowService?
    /// Input that came before the service was built, replayed in order once it is.
    private var waitingInput: [WaitingInput] = []

    enum WaitingInput {
        case key(Key)
        case mouse(MouseReport)
        case paste(String)
    }
    /// Set when the app wants to exit, with the exit status.
    public private(set) var exitStatus: Int32?
    /// How the app learns, before its service is built, that the state file waits for another process's lock, and stops
    /// that wait (nil: it cannot wait, `--ephemeral`).
    public var startupLock: StartupLock?

    /// An app whose service is still being built; ``attach(_:)`` completes it.
    public init(tenant: String, idpUrl: String, width: Int, height: Int) {
        let host = URL(string: idpUrl)?.host ?? idpUrl
        state = AppState(width: width, height: height, tenant: tenant, idpHost: host, deviceStatus: "starting…")
    }

    public convenience init(service: FlowService, width: Int, height: Int) {
        self.init(tenant: service.world.tenantId, idpUrl: service.world.idpUrl, width: width, height: height)
        attach(service)
    }

    /// Keeps input for when the service is built.
    func waitUntilReady(_ input: WaitingInput) {
        waitingInput.append(input)
    }

    /// Hands the app its service, and the keys typed while it was being built.
    public func attach(_ service: FlowService) {
        serviceIfReady = service
        state.startupLockedSince = nil
        // The scenario is read after the first frame: its tenant and IdP come with the service.
        state.tenant = service.world.tenantId
        state.idpHost = URL(string: service.world.idpUrl)?.host ?? service.world.idpUrl
        state.deviceStatus = service.statusLine
        state.stateOption = service.stateOption
        refreshFaults()
        let waiting = waitingInput
        waitingInput = []
        for input in waiting where exitStatus == nil {
            switch input {
            case .key(let key): handle(key)
            case .mouse(let report): handleMouse(report)
            case .paste(let text): handlePaste(text)
            }
        }
    }

    /// The service; only reached once attached (input waits until then).
    var service: FlowService {
        guard let serviceIfReady else { preconditionFailure("TerminalApp used its service before attach(_:)") }
        return serviceIfReady
    }

    // MARK: Input

    public func handle(_ key: Key) {
        let homeWasInSight = homeInSight
        handleKey(key)
        if !homeWasInSight, homeInSight { refreshDeviceStatus() }
    }

    /// The home screen with nothing over it (the help, the faults panel).
    private var homeInSight: Bool {
        guard case .home = state.screen, !state.showHelp, state.faultsPanel == nil, serviceIfReady != nil else { return false }
        return true
    }

    /// The status line's device as stored, when the home screen comes back into sight (after a result, the
    /// history, the help, the faults panel): another process on the same state file may have changed it. Once
    /// per return, never while idle (docs/decisions.md).
    func refreshDeviceStatus() {
        state.deviceStatus = service.reloadedStatusLine()
    }

    private func handleKey(_ key: Key) {
        state.notice = nil
        if key == .control("c") {
            quit(130)
            return
        }
        // "terminal too small" hides the screen: a key would act on it blind (type, submit, cancel a flow). Only q on
        // the home screen, which quits there (Ctrl-C was the only way out, with 130).
        guard !state.isTooSmall else {
            if key == .character("q"), state.quitsOnQ { quit(0) }
            return
        }
        guard serviceIfReady != nil else {
            // The state file waits for another process's lock as the session starts (the status line says so): q or Esc
            // quits now, rather than after the 10 s wait (it said "device: starting…", and keys waited unsaid).
            if state.showsStartupLockWait(at: .now), key == .character("q") || key == .escape {
                startupLock?.stop()
                quit(0)
                return
            }
            waitingInput.append(.key(key))
            return
        }
        if state.showHelp {
            switch key {
            // q too, as less and k9s close their help (it did nothing here).
            case .character("?"), .character("q"), .f1, .escape, .enter: state.showHelp = false
            default:
                state.helpScroll = HelpBar.overlayScroll(from: state.helpScroll, by: key, width: state.width, height: state.height,
                                                         keys: state.helpOverlayKeys)
            }
            return
        }
        // F1 opens the help over every panel and list (the faults panel and the test cards took it for nothing);
        // closing the help gives it back. ? too over the faults panel, which types nothing (the picker's filter takes it).
        if (key == .f1 && (state.faultsPanel != nil || state.cardPicker != nil)) || (key == .character("?") && state.faultsPanel != nil) {
            state.showHelp = true
            return
        }
        if var panel = state.faultsPanel {
            handleFaultsPanel(key, &panel)
            return
        }
        if var picker = state.cardPicker {
            handleCardPicker(key, &picker)
            return
        }
        if state.isDiagramZoomed, handleZoomedDiagram(key) { return }
        // F1 and ? open the help over the focused log too (? types into its filter while one is edited).
        if var focus = state.logFocus, key != .f1 && (key != .character("?") || focus.editingFilter || isEditing) {
            handleLogFocus(key, &focus)
            return
        }
        // F6 goes into the log from any screen, as F6 moves between panes in a browser: on a form or a challenge,
        // where Tab moves between fields, it is the way to read an event whole (a question cut at 60×18).
        // Not where no log shows (the KSSIDP comparison takes the whole screen).
        if (key == .f6 && AppView.logRows(state) > 0) || (key == .tab && logTakesTab) {
            // The selection starts on the newest event shown.
            let shown = state.log.count - 1 - state.logScroll
            state.logFocus = LogFocusState(selected: state.logScroll > 0 && state.log.indices.contains(shown) ? state.log[shown].sequence : nil,
                                           scroll: state.logScroll, fromDiagram: state.logAsSequence, zoomed: state.isDiagramZoomed)
            state.logAsSequence = false
            return
        }
        if key == .character("v") && !isEditing && state.logTakesV {
            if state.logAsSequence { state.logAsSequence = false } else { showDiagram() }
            state.logScroll = 0  // Each view opens on the newest (the list's lines and the diagram's arrows differ).
            return
        }
        if key == .character("z"), zoomDiagram() { return }
        if key == .f4, handleTestDataKey() { return }
        if key == .f2 || (key == .character("f") && !isEditing && acceptsShortcuts) {
            openFaults()
            return
        }
        if key == .f3 || (key == .character("h") && !isEditing && isHome) {
            if isHome { openHistory() } else { state.notice = "the history opens from the home screen or a result" }
            return
        }
        if key == .f1 || (key == .character("?") && !isEditing) {
            state.showHelp = true
            return
        }
        switch key {
        case .pageUp where !scrollsItself, .pageDown where !scrollsItself:
            pageLog(down: key == .pageDown)
            return
        default: break
        }
        switch state.screen {
        case .home: handleHome(key)
        case .form(var form):
            handleForm(key, &form)
        case .payment(var form):
            handlePayment(key, &form)
        case .challenge(var challenge):
            handleChallenge(key, &challenge)
        case .choice(var choice):
            handleChoice(key, &choice)
        case .working(let flowID, let flow, _):
            if key == .escape {
                let cancelling = if case .working(_, _, ScreenState.cancellingStep) = state.screen { true } else { false }
                service.cancel(flowID: flowID)
                // A second Esc stops waiting for the SDK to end the cancel (``FlowService/stopAwaitedCall(flowID:)``).
                if cancelling { service.stopAwaitedCall(flowID: flowID) } else { state.showCancelling(flowID: flowID, flow: flow) }
                // An Esc while a wait for the state file's lock is under way, shown or not yet, stops waiting for it,
                // and for every wait until the flow's result: what waited fails as locked (the flow's record is not
                // saved, and its result says so). One a moment before the line showed let both waits run their 10 s.
                // Asked of the history, not of the screen's last tick: plain mode draws no ticks.
                if service.history?.lockedSince != nil { service.history?.stopWaitingForLock() }
            } else if case .character = key {
                // Its letters are shortcuts (f, v, ?), so nothing is typed ahead into the form to come: say so,
                // rather than drop the keys of someone typing a user name early (docs/decisions.md).
                state.notice = AppState.notKeptWhileWorking
            }
        case .result(let result):
            let last = max(0, AppView.resultLines(result, width: state.width - 4).count - AppView.resultRows(state))
            switch key {
            // The second Esc of a cancel that was waiting, come just after its result: the result stays, and says so.
            case .escape where state.resultAfterWaitedCancel.map { $0.duration(to: .now) < AppState.lateEscape } == true:
                state.resultAfterWaitedCancel = nil
                state.notice = "the flow had ended: here is its result (esc goes back)"
            // q as on the history and the comparison: back (it did nothing here).
            case .enter, .escape, .character("q"): state.screen = .home
            case .down, .character("j"): state.resultScroll = min(last, state.resultScroll + 1)
            case .up, .character("k"): state.resultScroll = max(0, state.resultScroll - 1)
            default: break
            }
        case .history(var history):
            handleHistory(key, &history)
        case .comparison(var comparison):
            handleComparison(key, &comparison)
        case .transcript(var transcript, let history):
            handleTranscript(key, &transcript, returnTo: history)
        }
    }

    private func handleHome(_ key: Key) {
        let items = MenuItem.all
        if let selection = ChoiceList.selection(after: key, from: state.menuSelection, count: items.count) {
            state.menuSelection = selection
            return
        }
        switch key {
        case .character("q"): quit(0)
        case .enter:
            let item = items[state.menuSelection]
            if item == .quit { quit(0) } else if item == .kssidpComparison { openComparison() } else if let flow = item.flow { start(flow) }
        default: break
        }
    }

    private func handleForm(_ key: Key, _ form: inout FormState) {
        let username = form.prompt.fields.firstIndex(of: .username)
        let named = username.map { form.inputs[$0].text }
        switch form.handle(key) {
        case .cancel: cancel(&form)
        case .submit: submit(&form)
        case .edited:
            if let username, form.inputs[username].text != named { form.filledName = nil }
            state.screen = .form(form)
        }
    }

    private func submit(_ form: inout FormState) {
        if let empty = form.inputs.firstIndex(where: \.isEmpty) {
            form.error = "Fill in \(Self.label(form.prompt.fields[empty]))."
            form.focus = empty
            state.screen = .form(form)
            return
        }
        let prompt = form.prompt
        if let at = prompt.fields.firstIndex(of: .username) { state.lastUser = (prompt.flowID, form.inputs[at].text) }
        // The screen lets go of the form first, so that taking the values wipes the only copy of the fields.
        let step = (prompt.request as? any CredentialForm)?.sending ?? "\(prompt.flow.title): sending the answer…"
        state.screen = .working(flowID: prompt.flowID, flow: prompt.flow, step: step)
        var values: [String: Secret] = [:]
        for (index, field) in prompt.fields.enumerated() { values[field.key] = form.inputs[index].take() }
        if !service.answer(prompt, with: .credentials(values)) { state.notice = "that prompt had already closed" }
    }

    private func cancel(_ form: inout FormState) {
        state.showCancelling(flowID: form.prompt.flowID, flow: form.prompt.flow)
        for index in form.inputs.indices { form.inputs[index].clear() }
        service.answer(form.prompt, with: .cancel)
    }

    private func start(_ flow: FlowKind) {
        let id = service.start(flow)
        state.runningFlow = id
        // A flow started is what the user wants to watch: the log follows the newest event again.
        state.logScroll = 0
        state.screen = .working(flowID: id, flow: flow, step: "starting…")
    }

    /// The flow a signal (Ctrl-C, SIGTERM, a hang-up) ended before its result, for the line said after the session.
    public private(set) var interruptedFlow: FlowKind?

    /// Ends the app with `status`, cancelling any flow (SIGTERM, SIGHUP and quit keys all come here).
    public func quit(_ status: Int32) {
        if status >= 128 { interruptedFlow = state.flowInProgress }
        // A signal's end is said as one in the history (INTERRUPTED by SIGTERM), not as the user's Cancel.
        serviceIfReady?.cancelAll(status > 128 ? .signal(status - 128) : .user)
        // Nothing more waits for another process's lock: the app is ending (a Ctrl-C then took the 2 s it gives flows).
        serviceIfReady?.history?.stopWaitingForLock()
        state.screen.wipeInputs()
        exitStatus = status
    }

    /// After a signal ended the session: cancels what ran, waits (up to 2 s) for it to be recorded, and says what
    /// was stopped ("interrupted: Log in cancelled, recorded in the history"); nil when no flow was under way. Ctrl-C
    /// in a flow used to exit with nothing said, and the flow was in no history.
    public func interruptionNote() -> String? {
        stoppedFlowNote(ended: "cancelled").map { "interrupted: \($0)" }
    }

    /// Ends a session whose answers are piped in at an answer its question refused (exit 2, bad input): the lines
    /// after it were meant for this question or later ones, and would each fall one question early (a password
    /// as the next flow's user name, shown and kept in the history). The flow under way is aborted for bad input
    /// (`ABORTED_BAD_INPUT`, as `run` aborts one whose answers cannot answer it), not cancelled as the user's.
    /// Returns what became of it ("Log in aborted, recorded in the history"), nil when none was under way.
    public func quitAtRefusedAnswer(_ why: String) -> String? {
        interruptedFlow = state.flowInProgress
        if let flowID = state.runningFlow { serviceIfReady?.cancel(flowID: flowID, reason: .badInput(why)) }
        quit(2)
        return stoppedFlowNote(ended: "aborted")
    }

    /// Waits for the stopped flow to be recorded, and says so ("Log in `ended`, recorded in the history"); nil
    /// when no flow was under way.
    private func stoppedFlowNote(ended: String) -> String? {
        guard let flow = interruptedFlow else { return nil }
        // A flow cancelled at a prompt ends through its SDK, which may wait on a slow server (a payment's cancel
        // CReq, a slow ACS: it was then "not recorded"); after a second, the call it awaits is ended at once.
        // Idle is not kept: a full disk refuses the record, which the result says (it said "recorded").
        var notKept: String?
        let keep = { (result: FlowResult) in notKept = result.detail(HistoryNotSavedDetail.self)?.reason ?? notKept }
        var recorded = serviceIfReady?.waitUntilIdle(timeout: .seconds(1), finished: keep) ?? false
        if !recorded, let service = serviceIfReady {
            service.stopAwaitedCalls()
            recorded = service.waitUntilIdle(timeout: .seconds(1), finished: keep)
        }
        let history = serviceIfReady?.history is MemoryFlowHistory ? ""
            : notKept.map { ", not recorded: \($0)" } ?? (recorded ? ", recorded in the history" : ", not recorded")
        return "\(flow.title) \(ended)\(history)"
    }

    /// A field's label on screen.
    static func label(_ field: CredentialField) -> String { field.label }

    // MARK: View

    public func render() -> ScreenBuffer {
        AppView.render(state)
    }
}
