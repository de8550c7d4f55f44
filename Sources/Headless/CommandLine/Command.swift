import FlowCatalog

/// The commands of `idp-tui`: the terminal UI when none is named.
public enum Command: String, Sendable, CaseIterable {
    case terminal = ""
    case run
    case compare
    case history
    case reset
    case scenario

    /// Where its errors start: `run: …`; nothing for the terminal UI.
    var prefix: String { self == .terminal ? "" : "\(rawValue): " }

    /// `history`'s verbs; the list itself is none.
    static let historyVerbs = ["show", "export", "prune"]

    /// The verb of `history` its words name (`""`: the list), or nil when the first word is none (an unknown
    /// argument, which the command reports); nil for the other commands.
    func verb(of words: [String]) -> String? {
        guard self == .history else { return nil }
        guard let first = words.first else { return "" }
        return Self.historyVerbs.contains(first) ? first : nil
    }

    /// How it is invoked, without its options, and what it does: one pair a form.
    var forms: [(invocation: String, summary: String)] {
        switch self {
        case .terminal: [("idp-tui [options]", "the terminal UI")]
        case .run: [("idp-tui run FLOW [FLOW…] [options]", "run flows headless: answers as JSON on stdin, JSON Lines out")]
        case .compare: [("idp-tui compare [options]", "the same flows through the IdpSdk orchestration and the KSSIDP wrapper")]
        case .history:
            [
                ("idp-tui history [options]", "past flows, newest first (by when each ended)"),
                ("idp-tui history show ID [options]", "one flow's transcript"),
                ("idp-tui history export ID --format mermaid|json", "one flow as a sequence diagram or JSON"),
                ("idp-tui history prune [--keep-flows N] [--keep-days D]", "apply (and set) how much history the file keeps; give the space back"),
            ]
        case .reset: [("idp-tui reset [options]", "forget the device, the IdP's counters and locks, and the history")]
        case .scenario:
            [
                ("idp-tui scenario check FILE", "report every problem of a scenario file (exit 2 if any)"),
                ("idp-tui scenario show [FILE]", "print the effective scenario; secrets print as \"<secret>\""),
            ]
        }
    }

    /// ``forms`` as aligned lines.
    public static func synopsis(of commands: [Command]) -> [String] {
        let forms = commands.flatMap(\.forms)
        let width = forms.map(\.invocation.count).max() ?? 0
        return forms.map { "  \($0.invocation.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
    }

    /// What it says about itself in its help, after the options.
    var notes: [String] {
        switch self {
        case .terminal: ["themes: default, high-contrast, monochrome, or a theme file (NO_COLOR selects monochrome)",
                         // How to write one: the format was learnt from the errors (a terminal newcomer).
                         "        a theme file: one `role = [attributes] [colour] [on colour]` a line, e.g. `title = bold cyan on black`;",
                         "        the built-ins are Themes/*.theme in the source tree, to copy"]
        case .run: ["flows: \(FlowCatalog.kinds.map(\.rawValue).joined(separator: ", "))"] + AnswerKeys.help
        case .compare:
            [
                "runs activation then login, a wrong password, a wrong activation code, a cancel and a login before",
                "activation both ways, and flags every difference. Exit 0: they agree; 1: they differ; 2: bad input.",
            ]
        case .history, .reset, .scenario: []
        }
    }

    /// Its guide in the source tree, which a binary alone does not have: its help says so.
    var guide: String {
        switch self {
        case .terminal: "docs/terminal.md"
        case .run: "docs/headless.md"
        case .compare: "docs/migration.md"
        case .history, .reset: "docs/state-and-history.md"
        case .scenario: "docs/scenarios.md"
        }
    }
}
