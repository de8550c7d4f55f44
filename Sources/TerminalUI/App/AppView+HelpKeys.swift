// The help bar's keys for what is on screen: the current screen's, or those of the panel or overlay over it.
extension AppView {
    /// In the order they are dropped from the end when the bar is narrow (Esc and help always stay).
    static func helpKeys(_ state: AppState) -> [(String, String)] {
        // Every bar has a way out (esc) and the help (F1, or ? where it is not typed), whatever is over the screen.
        if state.showHelp { return [("↑↓ pgup pgdn", "scroll"), ("esc q ?", "close help")] }
        if let panel = state.faultsPanel {
            let cycles = state.faultSwitches.indices.contains(panel.focus) && state.faultSwitches[panel.focus].cycles
            return [("↑↓", "move"), ("space", cycles ? "next value" : "switch"), ("esc", "close"), ("F1", "help"), ("x", "all off")]
        }
        if let picker = state.cardPicker {
            if !picker.filter.isEmpty || picker.editingFilter {
                return [("type", "filter"), ("↑↓", "move"), ("enter", "fill the form"), ("esc", "clear"), ("F1", "help")]
            }
            // Enter before the filter, in short words: at 60 columns the bar dropped "enter fill the form", the one key
            // that takes a card (a newcomer found it only in the title, cut).
            return [("↑↓", "move"), ("enter", "fill"), ("type", "filter"), ("esc", "close"), ("F1", "help")]
        }
        if let focus = state.logFocus {
            // F1, not ?: with a form behind the log, ? is typed.
            // A form that came while the filter was typed or an event shown waits for them to close.
            if focus.detail != nil { return [("↑↓ pgup pgdn", "scroll"), ("esc", state.isAsking ? "close, to the form" : "close"), ("F1", "help")] }
            if focus.editingFilter { return [("type", "filter"), ("enter", "keep"), ("esc", "clear"), ("F1", "help")] }
            // "move", not "select": at 60 columns the bar keeps End too.
            // `v` last but help: the diagram, where Tab reached the log (the bar drops it first when narrow).
            // No filter while a form waits (a "/" may be in a password typed here by mistake).
            // z early, where a small terminal needs it (at 80 columns it was dropped); not while a form waits.
            return [("↑↓", "move"), ("enter", "details")] + (state.isAsking ? [] : [("z", focus.zoomed ? "unzoom" : "zoom"), ("/", "filter")])
                + [("end", "newest"), ("esc", "back")] + (state.logTakesV ? [("v", "diagram")] : []) + [("F1", "help")]
        }
        if state.isDiagramZoomed {
            return [("↑↓ pgup pgdn", "scroll"), ("z esc", "unzoom"), ("tab", "into the log"), ("v", "the list"), ("? F1", "help")]
        }
        let keys = screenKeys(state)
        // z early where the diagram shows: a small terminal needs it most.
        guard state.logAsSequence, !state.isAsking, state.logTakesV, keys.count > 2 else { return keys }
        return Array(keys.prefix(2)) + [("z", "zoom")] + keys.dropFirst(2)
    }

    /// The current screen's keys.
    private static func screenKeys(_ state: AppState) -> [(String, String)] {
        switch state.screen {
        // q before f and h: at 60 columns the bar dropped it, and with it the way out.
        // Tab and v last: the log's keys show where the bar has room (tab from 80 columns, v from about 90).
        case .home: return [("↑↓ 1-\(MenuItem.all.count)", "move"), ("enter", "select"), ("q", "quit"), ("f", "faults"), ("h", "history"),
                            ("tab", "log"), ("v", "diagram"), ("? F1", "help")]
        case .history(let history) where history.editingFilter: return [("type", "filter"), ("enter", "keep"), ("esc", "clear"), ("F1", "help")]
        case .history(let history) where !history.filter.isEmpty:
            return [("↑↓ j k", "move"), ("enter", "transcript"), ("/", "filter"), ("esc", "clear the filter"), ("? F1", "help")]
        case .history: return [("↑↓ j k", "move"), ("enter", "transcript"), ("/", "filter"), ("esc", "back"), ("f", "faults"), ("? F1", "help")]
        case .transcript(let transcript, _) where transcript.detail != nil: return [("↑↓ pgup pgdn", "scroll"), ("esc", "close"), ("? F1", "help")]
        case .transcript(let transcript, _) where transcript.asSequence: return [("↑↓ pgup pgdn", "scroll"), ("v", "the list"), ("esc", "back"), ("? F1", "help")]
        case .transcript(let transcript, _) where transcript.editingFilter: return [("type", "filter"), ("enter", "keep"), ("esc", "clear"), ("F1", "help")]
        // Esc clears a kept filter first (the bar said "back").
        case .transcript(let transcript, _) where !transcript.filter.isEmpty:
            return [("↑↓ pgup pgdn", "select"), ("enter", "the event whole"), ("/", "filter"), ("esc", "clear the filter"), ("? F1", "help")]
        case .transcript: return [("↑↓ pgup pgdn", "select"), ("enter", "the event whole"), ("/", "filter"), ("v", "sequence"), ("esc", "back"), ("? F1", "help")]
        // The other variants' keys, not the one on screen (at 60 columns the bar kept "1 guide", the view shown, and
        // dropped the two that lead elsewhere).
        case .comparison(let comparison): return [("↑↓ j k", "scroll"), ("esc", "back")]
            + ComparisonState.variantWords.enumerated().filter { $0.element.variant != comparison.variant }.map { ("\($0.offset + 1)", $0.element.word) }
            + [("pgup pgdn space b", "page"), ("? F1", "help")]
        // In the order they are dropped from the end when the bar is narrow (Esc and help always stay).
        // Test data (F4) before Enter, which everyone tries: at 60 columns the bar keeps tab, esc, F4 and F1.
        // F6 (into the log) before shift-tab: at 80 columns the bar has room for it, not for both.
        case .form: return [("tab ↓", "next"), ("esc", "cancel"), ("F4", "demo user"), ("F1", "help"), ("enter", "next/submit"), ("F6", "log"),
                            ("shift-tab ↑", "back")]
        case .payment: return [("tab ↓", "next"), ("esc", "cancel"), ("F4", "test cards"), ("F1", "help"), ("enter", "next/submit"), ("F6", "log"),
                               ("shift-tab ↑", "back")]
        case .challenge(let challenge):
            switch challenge.screen.uiType {
            case .text: return [("enter", "submit"), ("tab", "next"), ("esc", "cancel"), ("F6", "log"), ("F1", "help")]
            // v before help: the diagram of the challenge's CReq and CRes, where no code field takes the key.
            // Space and Enter first, the arrows after them: at 60 columns the bar dropped "enter submit" and kept
            // the arrows, which need no telling.
            case .singleSelect, .multiSelect: return [("space", "pick"), ("enter", "submit"), ("↑↓", "move"), ("esc", "cancel"), ("F6", "log"),
                                                      ("v", "diagram"), ("? F1", "help")]
            // Once answered on the other device, a and r are refused ("already approved…"): Enter is what is left.
            case .outOfBand where challenge.decision != nil:
                return [("enter", "continue"), ("esc", "cancel"), ("F6", "log"), ("v", "diagram"), ("? F1", "help")]
            case .outOfBand: return [("a", "approve on phone"), ("r", "refuse"), ("enter", "continue"), ("esc", "cancel"), ("F6", "log"),
                                     ("v", "diagram"), ("? F1", "help")]
            case .htmlOther: return [("enter", "select"), ("tab", "next"), ("esc", "cancel"), ("F6", "log"), ("v", "diagram"), ("? F1", "help")]
            }
        // F6 into the log: Tab moves round the choice (``ChoiceList``), as between a form's fields.
        case .choice(let choice): return [("↑↓ 1-\(choice.choice.options.count)", "move"), ("enter", "select"), ("esc", "cancel"), ("f", "faults"),
                                          ("F6", "log"), ("? F1", "help")]
        // Cancelling, Esc again stops waiting for the SDK (the screen says so too).
        case .working: return [("esc", state.screen.isCancelling ? "end now" : "cancel flow"), ("pgup pgdn", "log"), ("f", "faults"), ("? F1", "help")]
        case .result: return [("enter esc", "back"), ("pgup pgdn", "log"), ("h", "history"), ("f", "faults"), ("tab", "into the log"),
                              ("v", "diagram"), ("? F1", "help")]
        }
    }
}
