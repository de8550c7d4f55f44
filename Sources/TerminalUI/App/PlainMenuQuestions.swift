import FlowEngine
import FlowRecords
import LocaleText

/// A question plain mode's menu opens in its own place: the terminal UI's faults panel (`f`) and history (`h`),
/// each as a question that goes back to the menu on Enter, `q` or Esc.
enum PlainMenuQuestion: String, Sendable {
    case faults = "f"
    case history = "h"
}

extension TerminalApp {
    /// Flows the history question lists: the newest, as many as a screen reader's user reads through; an older one is
    /// shown by its ID.
    static let plainHistoryLimit = 20

    func openPlainMenuQuestion(_ question: PlainMenuQuestion) {
        switch question {
        case .faults:
            refreshFaults()
            state.plainListing = plainFaultLines()
        case .history:
            guard service.history != nil else {
                state.notice = "this run keeps no history"
                return
            }
            state.plainListing = plainHistoryLines()
        }
        state.plainMenuQuestion = question
    }

    var plainMenuSubquestion: PlainQuestion {
        switch state.plainMenuQuestion {
        case .history:
            // Free text: any flow's ID, not only those listed.
            return PlainQuestion(text: "Show which flow? (its ID; h lists them; Enter goes back): ", secret: false)
        case .faults, nil:
            let count = FaultSwitch.allCases.count
            return PlainQuestion(text: "Switch which fault? (1-\(count); f lists them; Enter goes back): ", secret: false,
                                 takes: .choice(Set(["", "f", "F", "q", "Q"] + (1...count).map(String.init))))
        }
    }

    /// An answer to the faults or the history question: Enter (or `q`, as in the terminal UI's panel) goes back to
    /// the menu; the question's own letter lists again.
    func answerPlainMenuSubquestion(_ text: String) -> Bool {
        guard let question = state.plainMenuQuestion else { return false }
        if text.isEmpty || text.lowercased() == "q" {
            state.plainMenuQuestion = nil
            return false
        }
        if text.lowercased() == question.rawValue {
            openPlainMenuQuestion(question)
            return false
        }
        switch question {
        case .faults:
            // Each number switches one and says what it did.
            let switches = FaultSwitch.allCases
            guard let number = Int(text), switches.indices.contains(number - 1) else {
                return refuse("choose a fault from 1 to \(switches.count), f to list them, or Enter to go back")
            }
            state.plainListing = [switchFault(switches[number - 1])]
        case .history:
            guard let id = Int(text), id > 0 else { return refuse("type a flow's ID, h to list them, or Enter to go back") }
            do {
                guard let record = try service.history?.record(id: id) else {
                    return refuse("no flow \(id) in the history; h lists them")
                }
                state.plainListing = record.transcriptLines.map { spelled(VisibleText.escaped($0)) }
            } catch {
                return refuse("flow \(id) cannot be read: \(error)")
            }
        }
        return false
    }

    /// The newest flows, as `idp-tui history` lists them (its duration left out), with how to see one.
    func plainHistoryLines() -> [String] {
        do {
            var entries = try service.history?.list(limit: Self.plainHistoryLimit + 1) ?? []
            guard !entries.isEmpty else { return ["No flows yet: the flows you run are kept here, with their events."] }
            let older = entries.count > Self.plainHistoryLimit
            if older { entries.removeLast() }
            let rows = [["ID", "TIME", "FLOW", "USER", "OUTCOME", "STATUS"]]
                + entries.map { AppView.HistoryColumns.values($0).map(VisibleText.escaped) }
            let title = older ? "The newest \(Self.plainHistoryLimit) flows (an older one's ID shows it too):" : "Past flows, newest first:"
            return [title] + Self.plainColumns(rows, ascii: state.plainASCII)
        } catch {
            return ["! the history cannot be read: \(error)"]
        }
    }

    private func spelled(_ text: String) -> String { state.plainASCII ? PlainASCII.text(text) : text }
}
