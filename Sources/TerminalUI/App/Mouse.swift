// The mouse: a click presses what is under it (a menu item, a field, a button, an option), as the keyboard
// would; the wheel scrolls the help, the lists and the event log.
extension TerminalApp {
    public func handleMouse(_ report: MouseReport) {
        // Nothing is under the pointer while "terminal too small" hides the screen.
        guard !state.isTooSmall else { return }
        guard serviceIfReady != nil else {
            waitUntilReady(.mouse(report))
            return
        }
        switch report.button {
        case 64: wheel(up: true, row: report.row - 1)
        case 65: wheel(up: false, row: report.row - 1)
        case 0 where report.pressed: click(row: report.row - 1, column: report.column - 1)
        default: break
        }
    }

    private func wheel(up: Bool, row: Int) {
        if state.showHelp || state.cardPicker != nil || state.faultsPanel != nil {
            handle(up ? .up : .down)
            return
        }
        // Over the log pane the wheel scrolls the log, whatever the main panel shows (the KSSIDP comparison has none).
        if row >= 1 + AppView.mainPanelHeight(state), row < state.height - 2 {
            // The focused log moves its selection, as ↑↓ do there.
            if state.logFocus != nil { handle(up ? .up : .down) } else { scrollLog(by: up ? 1 : -1) }
            return
        }
        // Over the main panel: what it shows, when that scrolls (a result's lines too); a menu or a form does not,
        // and the log under them is not under the pointer (it scrolled, and stopped following the flow).
        switch state.screen {
        case .history, .transcript, .comparison, .result: handle(up ? .up : .down)
        default: break
        }
    }

    private func click(row: Int, column: Int) {
        // Over the help a click does nothing: it closes with its keys.
        guard !state.showHelp else { return }
        // A click anywhere in the main panel takes the focus from the log, as Esc there does (its Enter went to the
        // log: a menu item clicked opened an event), as lazygit's panels take it; not through an event shown whole,
        // which covers the panel.
        if let focus = state.logFocus, state.cardPicker == nil, state.faultsPanel == nil, row >= 1, row < 1 + AppView.mainPanelHeight(state) {
            guard focus.detail == nil else { return }
            leaveLogFocus(focus)
        }
        guard let target = render().targets.first(where: { $0.contains(row: row, column: column) }) else { return }
        let now = ContinuousClock.now
        // Within a cell of the last press (a hand moves a little between the two: one column over had pressed the
        // menu's Quit); a third press of a triple click counts from the second.
        if let last = state.lastClick, abs(last.row - row) <= 1, abs(last.column - column) <= 1,
           last.at.duration(to: now) < AppState.doubleClick {
            state.lastClick = (row, column, now)
            return
        }
        state.lastClick = (row, column, now)
        state.notice = nil
        // A test card clicked fills the form, as its Enter does; a fault clicked switches, as Space does. Beside
        // them (their only targets) a click does nothing.
        if var picker = state.cardPicker {
            picker.focus = target.stop
            state.cardPicker = picker
            handle(.enter)
            return
        }
        if var panel = state.faultsPanel {
            panel.focus = target.stop
            state.faultsPanel = panel
            handle(.character(" "))
            return
        }
        switch state.screen {
        case .home:
            state.menuSelection = target.stop
            handle(.enter)
        case .result:
            handle(.enter)
        case .history(var history):
            // A past flow clicked opens, as a menu item clicked starts (it was ignored, and Enter then opened the
            // flow selected before).
            history.selection = target.stop
            // The typing ends with the click, as in a transcript (Enter then only closed the filter).
            history.editingFilter = false
            state.screen = .history(history)
            handle(.enter)
        case .transcript(var transcript, let history) where transcript.detail == nil && !transcript.asSequence:
            // A past flow's event clicked shows it whole, as its Enter does (a filter being typed is kept: the click
            // ended the typing, and Enter then only closed it).
            transcript.scroll = target.stop
            transcript.editingFilter = false
            state.screen = .transcript(transcript, returnTo: history)
            handle(.enter)
        case .choice(var choice):
            choice.selection = target.stop
            state.screen = .choice(choice)
            handle(.enter)
        case .form(var form):
            form.focus = target.stop
            state.screen = .form(form)
            if target.stop >= form.fieldCount { handle(.enter) }
        case .payment(var form):
            form.focus = target.stop
            state.screen = .payment(form)
            if target.stop >= form.fieldCount { handle(.enter) }
        case .challenge(var challenge):
            challenge.focus = target.stop
            state.screen = .challenge(challenge)
            switch challenge.focusedStop {
            case .code: break
            case .option: handle(.character(" "))
            default: handle(.enter)
            }
        default: break
        }
    }
}
