import FlowEngine

/// Which keys the screen on view takes as its own: shortcuts, typing, its own scrolling.
extension TerminalApp {
    /// The home screen, or a result (whose Back leads home).
    var isHome: Bool {
        if case .home = state.screen { return true }
        if case .result = state.screen { return true }
        return false
    }

    /// Screens where a plain letter is not typed into anything (and `f` opens the faults panel).
    var acceptsShortcuts: Bool {
        switch state.screen {
        case .home, .working, .result, .history, .transcript, .comparison, .choice: true
        case .challenge(let challenge): challenge.focusedStop != .code && challenge.screen.uiType != .outOfBand
        case .form, .payment: false
        }
    }

    /// Screens that use PgUp and PgDn for their own text rather than the event log.
    var scrollsItself: Bool {
        switch state.screen {
        case .history, .transcript, .comparison: true
        default: false
        }
    }

    /// Whether plain letters are typed (into a field, a code, a transcript's filter), not taken as shortcuts.
    var isEditing: Bool {
        switch state.screen {
        case .form(let form): form.focusedField != nil
        case .payment(let form): form.focusedField != nil
        case .challenge(let challenge): challenge.focusedStop == .code
        case .transcript(let transcript, _): transcript.editingFilter
        case .history(let history): history.editingFilter
        default: false
        }
    }
}
