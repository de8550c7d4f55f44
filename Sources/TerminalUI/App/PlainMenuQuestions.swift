import FlowEngine
import FlowRecords
import LocaleText

/// A question plain mode's menu opens in its own place: the terminal UI's faults panel (`f`) and history (`h`),
/// each a screen of its own whose question goes back to the menu on Enter, `q`, Esc or Ctrl-D (the menu is printed
/// again, its device read again, as after a result).
enum PlainMenuQuestion: Equatable, Sendable {
    case faults
    /// `newest`: the newest flow's ID when the list was read, the highest an answer shows as typed.
    case history(newest: Int)
}

extension TerminalApp {
    /// Flows the history question lists: the newest, as many as a screen reader's user reads through; an older one is
    /// shown by its ID.
    static let plainHistoryLimit = 20

    /// `f` or `h` at the menu (either case): its question opened, its listing printed. Returns false for another line.
    func openPlainMenuQuestion(_ letter: String) -> Bool {
        switch letter.lowercased() {
        case "?":
            // The keys, which were only in docs/terminal.md (not installed with the binary): `?` and `help` said
            // "(not an answer here)". A listing, not a question: the menu is asked again under it.
            state.plainListing = Self.plainHelp
            return true
        case "f":
            refreshFaults()
            // No family offers a switch: nothing to ask, as an empty history asks nothing.
            guard !state.faultSwitches.isEmpty else {
                state.notice = Self.noFaultSwitches
                return true
            }
            state.plainListing = plainFaultLines()
            state.plainMenuQuestion = .faults
        case "h":
            guard service.history != nil else {
                state.notice = "this run keeps no history"
                return true
            }
            let (lines, newest) = plainHistoryLines()
            state.plainListing = lines
            // An empty history asks nothing: there is no flow to show.
            state.plainMenuQuestion = newest.map { .history(newest: $0) }
        default: return false
        }
        return true
    }

    /// Plain mode's keys, for `?` at the menu: one line each, which the terminal's width wraps (lines broken here
    /// were broken again there, into ragged rows). What Ctrl-D does at a result is said (it quits, exit 0: the
    /// help named only the menu, and a second Ctrl-D after a cancel left the session unwarned).
    static let plainHelp = [
        "Keys at every question:",
        "  Enter answers; a line typed before its question waits for it",
        "  Esc alone, or a line holding it, cancels the flow under way; so does Ctrl-D on an empty line (at the menu or a result it quits; at the faults or the history question it goes back)",
        "  Backspace, Ctrl-U (the whole line) and Ctrl-W (the last word) edit what is typed",
        "  Tab after text answers a question of text, as Enter does",
        "  ? at a user name lists the demo users, and fills in one's password; at a password or activation code, it fills in the named user's (typed above it, or on the first page), a demo user's only; at the card number, it lists the test cards (? and text: those matching)",
        "  resend (any case) at a one-time code asks for a new code, while codes can be sent; a code holding more than digits is sent only when given twice",
        "  secrets (passwords, codes) are read with nothing shown",
        "At a result: Enter or Esc goes back to the menu, h opens the history, q or Ctrl-D quits.",
        "At the menu: a number, f faults, h history, q quits; Enter alone lists the choices. Ctrl-C quits from anywhere.",
    ]

    /// The heading the menu's place shows while one of its questions is open.
    var plainMenuQuestionScreen: [String] {
        switch state.plainMenuQuestion {
        case .faults: ["Faults (identity: at the next step; bridge, 3DS: at the next payment):"]
        case .history: ["History: past flows, newest first"]
        case nil: []
        }
    }

    var plainMenuSubquestion: PlainQuestion {
        let back: Set = ["", "q", "Q", "f", "F", "h", "H"]
        switch state.plainMenuQuestion {
        case .history(let newest):
            return PlainQuestion(text: "Show which flow? (its ID; h lists them; Enter goes back): ", secret: false,
                                 takes: .flowID(newest: newest, words: back))
        case .faults, nil:
            let count = state.faultSwitches.count
            return PlainQuestion(text: "Switch which fault? (1-\(count); f lists them; Enter goes back): ", secret: false,
                                 takes: .choice(back.union((1...count).map(String.init))))
        }
    }

    /// Back to the menu from its question, the device read again (another process may have run a flow meanwhile).
    func closePlainMenuQuestion() {
        state.plainMenuQuestion = nil
        refreshDeviceStatus()
    }

    /// An answer to the faults or the history question: Enter (or `q`, as in the terminal UI's panel) goes back to
    /// the menu; `f` and `h` open (or list again) the faults and the history.
    func answerPlainMenuSubquestion(_ text: String) -> Bool {
        guard let question = state.plainMenuQuestion else { return false }
        if text.isEmpty || text.lowercased() == "q" {
            closePlainMenuQuestion()
            return false
        }
        // Its own letter lists again; the other's opens the other question, as from the menu.
        if ["f", "h"].contains(text.lowercased()) {
            _ = openPlainMenuQuestion(text)
            return false
        }
        switch question {
        case .faults:
            // Each number switches one and says what it did.
            guard let number = Int(text), state.faultSwitches.indices.contains(number - 1) else {
                return refuse("choose a fault from 1 to \(state.faultSwitches.count), f to list them, or Enter to go back")
            }
            let notice = switchFault(at: number - 1)
            state.plainListing = [notice + (state.faultSwitches.indices.contains(number - 1) ? Self.plainUpcoming(state.faultSwitches[number - 1], all: false) : "")]
        case .history(let newest):
            // Digits are an ID, however many (one past Int's range is not in the history either). The ID is not said
            // back: a line of digits may be a code meant for a flow that ended. One past the newest listed is refused
            // as its echo shows it, `(not an answer here)`, even when another process has run that flow since: `h`
            // lists again, and the newest with it.
            guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return refuse("type a flow's ID, h to list them, or Enter to go back")
            }
            do {
                guard let id = Int(text), id >= 1, id <= newest, let record = try service.history?.record(id: id) else {
                    return refuse("no flow with that ID in the history; h lists them")
                }
                state.plainListing = record.transcriptLines.map(spelled)
            } catch {
                return refuse("that flow cannot be read: \(error)")
            }
        }
        return false
    }

    /// The newest flows, as the terminal UI's history lists them (the time left out on a narrow terminal, a long user
    /// name cut), with how many there are and which IDs show older ones; and the newest ID (nil: none yet).
    private func plainHistoryLines() -> (lines: [String], newest: Int?) {
        do {
            // As many as the terminal UI's list reads, to say how many there are and which IDs are older.
            var entries = try service.history?.list(limit: Self.historyLimit + 1) ?? []
            guard let newest = entries.first?.id else {
                let kept = service.history is MemoryFlowHistory ? "kept here until idp-tui exits (--ephemeral)" : "kept here, with their events"
                return (["No flows yet: the flows you run are \(kept)."], nil)
            }
            var lines: [String] = []
            if entries.count > Self.plainHistoryLimit {
                let older = entries[Self.plainHistoryLimit...].map(\.id)
                let total = entries.count > Self.historyLimit ? "over \(Self.historyLimit)" : String(entries.count)
                let range = entries.count > Self.historyLimit ? "\(older.max() ?? 0) and below"
                    : older.count == 1 ? "\(older[0])" : "\(older.min() ?? 0) to \(older.max() ?? 0)"
                lines.append("The newest \(Self.plainHistoryLimit) of \(total) flows; an older one's ID shows it too (\(range)):")
                entries.removeLast(entries.count - Self.plainHistoryLimit)
            }
            let columns = AppView.HistoryColumns(entries, width: state.plainWidth - 2, spelled: spelled)
            lines.append("  " + columns.row(AppView.HistoryColumns.header))
            for entry in entries {
                lines.append("  " + columns.row(AppView.HistoryColumns.values(entry, spelled: spelled)))
            }
            return (lines, newest)
        } catch {
            return (["! the history cannot be read: \(error)"], nil)
        }
    }

    private func spelled(_ text: String) -> String {
        let visible = VisibleText.escaped(text)
        return state.plainASCII ? PlainASCII.text(visible) : visible
    }
}
