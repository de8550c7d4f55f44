import FlowCatalog
import FlowEngine
import Foundation
import JSONText
import StateStore

/// One option of the command line: its name, the value it takes (nil: none), what it does, where it is
/// accepted, and how it sets ``CommandLineOptions``. The parser, the errors and every `--help` come from
/// ``OptionTable/all``.
struct OptionSpec: Sendable {
    enum Scope: Sendable {
        /// Every command: `--state`, `--ephemeral`, `--seed`, `--scenario`, `--tenant`, `--theme`.
        case global
        /// The commands that run flows: the terminal UI and `run`.
        case engine
        case only([Command])

        func includes(_ command: Command) -> Bool {
            switch self {
            case .global: true
            case .engine: command == .terminal || command == .run
            case .only(let commands): commands.contains(command)
            }
        }
    }

    typealias Apply = @Sendable (_ options: inout CommandLineOptions, _ value: String, _ problem: (String) -> UsageError) throws(UsageError) -> Void

    let name: String
    let value: String?
    let help: String
    let scope: Scope
    /// Given more than once, each adds to the last (`--bridge-fault`); any other option given twice is an error,
    /// so that a script's second `--answers` cannot quietly win over its first.
    var repeatable = false
    /// For `history`, the verbs that take it (`""` the list itself); nil, every one. Given to another, it is refused
    /// naming where it goes, and its help shows only under those verbs.
    var verbs: [String]?
    /// What to use instead, by the verb it was misplaced on (`--json` on `history show`: an export as JSON).
    var instead: [String: String] = [:]
    /// The flows it can change, when not every one: a `run` of none of them is refused, as answers' faults that
    /// can reach no flow of theirs are (a CI step's `--bridge-fault` on an activation passed, having bitten nothing).
    var reaches: [FlowKind]? = nil
    let apply: Apply

    /// `--seed N`.
    var usage: String { value.map { "\(name) \($0)" } ?? name }

    /// Whether `history`'s `verb` (`""`: the list) takes it.
    func isFor(verb: String) -> Bool { verbs?.contains(verb) ?? true }

    /// Why it cannot go with `verb`, and where it goes: `--limit is for the list (idp-tui history --limit N)`.
    func misplaced(on verb: String) -> String {
        let places = (verbs ?? []).map { $0.isEmpty ? "the list" : "history \($0)" }
        let examples = (verbs ?? []).map { verb in
            Command.history.forms.first { $0.invocation.hasPrefix("idp-tui history \(verb)") && $0.invocation.contains(name) }?.invocation
                ?? "idp-tui history \(verb.isEmpty ? "" : verb + " ")\(usage)"
        }
        return "\(name) is for \(places.joined(separator: " and ")) (\(examples.joined(separator: "; ")))" + (instead[verb].map { "; \($0)" } ?? "")
    }
}

enum OptionTable {
    /// Every option: the global ones, the engine's, each family's (in the catalog's order), then the commands' own.
    static let all: [OptionSpec] = global + engine + AnswerFamilies.all.flatMap { $0.options } + commands

    private static let exportAsJSON = "one flow as JSON: idp-tui history export ID --format json"

    static func named(_ name: String) -> OptionSpec? { all.first { $0.name == name } }

    private static let global: [OptionSpec] = [
        OptionSpec(name: "--state", value: "FILE", help: "the state file (default: $XDG_STATE_HOME/idp-tui/state.sqlite, else ~/.local/state/idp-tui/state.sqlite)", scope: .global) {
            // SQLite reads ":memory:" as a database in memory and, built to take URIs (Debian's is), "file:…" as one
            // (`file:x?mode=memory`): the run then kept nothing, exit 0. Named as files in this folder, they are files.
            options, value, problem throws(UsageError) in
            // SQLite keeps a file's journal beside it as FILE-wal, FILE-shm or FILE-journal: a state file of that name
            // would be taken (and deleted) as another's journal, and `reset` would move another file's live journal
            // aside, losing its newest flows.
            // Even with no such file beside it yet: one made later would take this file for its journal (and delete it).
            // `-` is standard input elsewhere (`--answers -`): here it made a file named `-` in the current folder.
            if value == "-" { throw problem("--state takes a file, not - (standard input cannot keep state): name a file, or use --ephemeral") }
            if let suffix = ["-wal", "-shm", "-journal"].first(where: { value.hasSuffix($0) }) {
                throw problem("--state takes the state file, not a journal SQLite keeps beside one (a name ending in \"\(suffix)\")")
            }
            options.statePath = value == ":memory:" || value.hasPrefix("file:") ? "./" + value : value
        },
        OptionSpec(name: "--ephemeral", value: nil, help: "keep no state: everything in memory, gone at exit", scope: .global) {
            options, _, _ in options.ephemeral = true
        },
        OptionSpec(name: "--seed", value: "N", help: "the seed of every id, code and token (default 1: the same seed and state replay them)", scope: .global) {
            options, value, problem throws(UsageError) in
            guard isDigits(value), let seed = UInt64(value) else { throw problem("--seed takes a whole number from 0 to \(UInt64.max), not \"\(value)\"") }
            options.seed = seed
        },
        OptionSpec(name: "--scenario", value: "FILE", help: "a scenario file instead of the embedded demo (idp-tui scenario show prints it)", scope: .global) {
            options, value, _ in options.scenarioPath = value
        },
        // A scenario's other tenants were reachable only by editing its app.tenant (bank-qa's hashed-PIN tenant).
        OptionSpec(name: "--tenant", value: "ID", help: "the tenant the app uses, instead of the scenario's app.tenant (the first)", scope: .global) {
            options, value, _ in options.tenant = value
        },
        OptionSpec(name: "--theme", value: "NAME|FILE", help: "the terminal UI's theme: default, high-contrast, monochrome or a file", scope: .global) {
            options, value, _ in options.theme = value
        },
    ]

    private static let engine: [OptionSpec] = [
        OptionSpec(name: "--plain", value: nil,
                   help: "line-by-line prompts, no drawing (also when TERM=dumb or stdin or stdout is not a terminal)",
                   scope: .only([.terminal])) { options, _, _ in options.plain = true },
        OptionSpec(name: "--no-mouse", value: nil, help: "the terminal UI leaves the mouse to the terminal (no clicks, no wheel)",
                   scope: .only([.terminal])) { options, _, _ in options.mouse = false },
        OptionSpec(name: "--prompt-timeout", value: "SECONDS", help: "how long a prompt waits for an answer (default 300)", scope: .engine) {
            options, value, problem throws(UsageError) in
            // Decimal digits only: Double also reads "0x10" (16), "1e1" and "inf".
            // A number it cannot read says how to write one (1e3 is 1000, in range: "from 0.001 to 86400" misled).
            guard !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let seconds = Double(value) else {
                throw problem("--prompt-timeout takes seconds written with digits and at most one point (such as 300 or 0.5), not \"\(value)\"")
            }
            guard seconds >= 0.001, seconds <= 86_400 else {
                throw problem("--prompt-timeout takes a number of seconds from 0.001 to 86400, not \"\(value)\"")
            }
            // To the nearest millisecond, as the messages say it (1.001 was cut to 1 s, and said so).
            options.promptTimeout = .milliseconds(Int64((seconds * 1000).rounded()))
        },
    ]

    private static let commands: [OptionSpec] = [
        OptionSpec(name: "--answers", value: "FILE|-", help: "the answers, as JSON (default -: standard input, which a run of only logouts reads only when it is a file)", scope: .only([.run])) {
            options, value, _ in
            options.answersPath = value
            options.answersNamed = true
        },
        OptionSpec(name: "--variant", value: "guide|guide-as-written|enrollment-client-for-login",
                   help: "the IdpSdk orchestration to compare (default: the guide's steps, SetAuthorisationCode sent only with a code)",
                   scope: .only([.compare])) {
            options, value, problem throws(UsageError) in
            guard let variant = ParityCheck.Variant(rawValue: value) else {
                let variants = ParityCheck.Variant.allCases.map(\.rawValue)
                throw problem("--variant takes \(variants.joined(separator: " or ")), not \"\(value)\"" + KeySuggestion.hint(for: value, among: variants))
            }
            options.variant = variant
        },
        OptionSpec(name: "--json", value: nil, help: "JSON instead of text (history: one object a line; compare: one object)", scope: .only([.compare, .history]),
                   verbs: [""], instead: ["show": exportAsJSON, "export": exportAsJSON]) {
            options, _, _ in options.json = true
        },
        OptionSpec(name: "--limit", value: "N", help: "how many flows `history` lists (default 50)", scope: .only([.history]), verbs: [""]) {
            options, value, problem throws(UsageError) in
            guard isDigits(value), let limit = Int(value), (1...100_000).contains(limit) else {
                throw problem("--limit takes a whole number from 1 to 100000, not \"\(value)\"")
            }
            options.limit = limit
        },
        OptionSpec(name: "--before", value: "ID", help: "`history` lists only flows older than flow ID (the next page: the last ID listed)",
                   scope: .only([.history]), verbs: [""]) {
            options, value, problem throws(UsageError) in
            guard isDigits(value), let id = Int(value), id > 0 else { throw problem("--before takes a flow's id, a whole number from 1, not \"\(value)\"") }
            options.before = id
        },
        OptionSpec(name: "--filter", value: "TEXT", help: "`history` lists only flows whose row holds TEXT (id, time, flow, user, outcome, status or title; any case unless TEXT has a capital)",
                   scope: .only([.history]), verbs: [""]) {
            options, value, problem throws(UsageError) in
            guard !value.isEmpty else { throw problem("--filter takes some text to look for, not an empty one") }
            options.filter = value
        },
        OptionSpec(name: "--keep-flows", value: "N", help: "`history prune`: keep the newest N flows from now on (default 1000)",
                   scope: .only([.history]), verbs: ["prune"]) {
            options, value, problem throws(UsageError) in
            guard isDigits(value), let count = Int(value), Retention.flowsRange.contains(count) else {
                throw problem("--keep-flows takes a whole number from 1 to 1000000, not \"\(value)\"")
            }
            options.keepFlows = count
        },
        OptionSpec(name: "--keep-days", value: "D", help: "`history prune`: keep no flow older than D days from now on (0: no limit, the default)",
                   scope: .only([.history]), verbs: ["prune"]) {
            options, value, problem throws(UsageError) in
            guard isDigits(value), let days = Int(value), Retention.daysRange.contains(days) else {
                throw problem("--keep-days takes a whole number of days from 0 (no limit) to 36500, not \"\(value)\"")
            }
            options.keepDays = days
        },
        OptionSpec(name: "--yes", value: nil, help: "reset without asking (at a terminal it asks first; a script is not asked)",
                   scope: .only([.reset])) { options, _, _ in options.yes = true },
        OptionSpec(name: "--format", value: "mermaid|json", help: "what `history export` writes", scope: .only([.history]),
                   verbs: ["export"], instead: ["": "the list as JSON: idp-tui history --json"]) {
            options, value, problem throws(UsageError) in
            guard value == "mermaid" || value == "json" else {
                throw problem("--format takes mermaid or json, not \"\(value)\"" + KeySuggestion.hint(for: value, among: ["mermaid", "json"]))
            }
            options.format = value
        },
    ]
}

/// Whether `value` is a whole number written with digits alone: Swift's integer parsing takes `+1` and `-0`, which
/// `--seed` then read as 1 and 0 though `-1` was refused (the hostile-input tester).
private func isDigits(_ value: String) -> Bool {
    !value.isEmpty && value.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
}
