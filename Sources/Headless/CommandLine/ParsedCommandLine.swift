import FlowCatalog
import FlowEngine
import JSONText

/// A command line, read: which command, its options, and the words that are not options.
///
/// One grammar for every command: `--option value` and `--option=value`; options before or after the command;
/// the global options (``OptionTable``) everywhere; `--help` (or `-h`, or `help COMMAND`) for any command.
public struct ParsedCommandLine: Sendable {
    public enum Request: Sendable, Equatable {
        case run(Command)
        case help(Command)
        case version
    }

    public let request: Request
    public let options: CommandLineOptions
    /// The words that are not options, in order (flows, verbs, files, ids).
    public let words: [String]

    public static func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommandLine {
        var command: Command?
        var help = false
        var version = false
        var words: [String] = []
        /// Where each word is on the command line, from 1, for an error that must not print the word.
        var places: [Int] = []
        var given: [(spec: OptionSpec?, name: String, value: String?)] = []
        /// A command's name where an option's value was due (`idp-tui --state compare`): the value is missing, and the
        /// command is the command (it was taken as the file's name, and the terminal UI ran).
        var commandForValue: [String: String] = [:]
        var optionsEnd = false
        /// `--help` or `--version` given a value (`--help=yes`).
        var valuedFlag: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let place = arguments.count - rest.count
            // `--` ends the options, as getopt's does: what follows is words, even when it starts with a dash.
            if optionsEnd || argument == "--" {
                if optionsEnd {
                    words.append(argument)
                    places.append(place)
                }
                optionsEnd = true
                continue
            }
            switch argument {
            case "--help", "-h":
                help = true
                continue
            case "--version", "-V":
                version = true
                continue
            default: break
            }
            // A negative number (`history show -1`) is a word its command judges, not an unknown option.
            let negativeNumber = argument.count > 1 && argument.dropFirst().allSatisfy { ("0"..."9").contains($0) }
            guard argument.hasPrefix("-"), argument != "-", !negativeNumber else {
                if command == nil, words.isEmpty, argument == "help" {
                    help = true
                } else if command == nil, words.isEmpty, let named = Command(rawValue: argument), named != .terminal {
                    command = named
                } else {
                    words.append(argument)
                    places.append(place)
                }
                continue
            }
            let (name, inline) = split(argument)
            // `--help=yes` said "unknown option --help".
            if name == "--help" || name == "--version", inline != nil {
                valuedFlag = valuedFlag ?? name
                continue
            }
            let spec = OptionTable.named(name)
            var value = inline
            if let spec, spec.value != nil, value == nil {
                // The value is the next argument; a missing one is reported once the command is known. An option
                // in its place (`--format --state F`) is not its value: the value is missing (`--x=--y` still works).
                if let next = rest.first, !next.hasPrefix("--") {
                    if command == nil, words.isEmpty, let named = Command(rawValue: next), named != .terminal {
                        commandForValue[name] = next
                    } else {
                        value = rest.popFirst()
                    }
                }
                if value == nil { given.append((spec, name, nil)); continue }
            }
            given.append((spec, name, value))
        }
        if help, command == nil, let first = words.first, let named = Command(rawValue: first), named != .terminal {
            command = named
            words.removeFirst()
            places.removeFirst()
        }
        let chosen = command ?? .terminal
        // Alone: with anything else (`--version frob`), the line is not what its writer meant.
        if version && command == nil && words.isEmpty && given.isEmpty && !help {
            return ParsedCommandLine(request: .version, options: CommandLineOptions(), words: [])
        }
        // `idp-tui check --help` (for `scenario check`) printed the whole help and exited 0, as if `check` were a command.
        if help, command == nil, let word = words.first {
            let hint = KeySuggestion.hint(for: word, among: Command.allCases.map(\.rawValue).filter { !$0.isEmpty })
            throw UsageError("unknown command \"\(word)\"" + (hint.isEmpty ? "; see idp-tui --help" : hint))
        }
        if help { return ParsedCommandLine(request: .help(chosen), options: CommandLineOptions(), words: words) }

        let prefix = errorPrefix(of: chosen, words: words)
        let problem = { (message: String) in UsageError(prefix + message) }
        if let valuedFlag { throw problem("\(valuedFlag) takes no value") }
        // With a command, --version would be dropped and the command run (a script's `reset --version` reset the
        // state): it is checked as any option a command does not take.
        if version { throw problem("--version goes alone (idp-tui --version)") }
        var options = CommandLineOptions()
        var seen: Set<String> = []
        for (spec, name, value) in given {
            guard let spec, spec.scope.includes(chosen) else {
                let owner = spec.map { owners(of: $0) }.map { " (it is for \($0))" } ?? ""
                // `--=x` has no name: "unknown option --" named the word that ends the options instead.
                let shown = name == "--" ? "\(name)=\(value ?? "")" : name
                // A misspelled option (`--see`, `--Seed`): the one of this command's it is likely meant to be.
                // Of those this verb takes (`history show`'s, not the list's --limit).
                let verb = chosen.verb(of: words)
                let takes = OptionTable.all.filter { $0.scope.includes(chosen) && (verb.map($0.isFor(verb:)) ?? true) }
                let likely = spec == nil ? KeySuggestion.hint(for: name, among: takes.map(\.name)) : ""
                throw problem("unknown option \(shown)\(owner)\(likely); see idp-tui \(chosen.rawValue.isEmpty ? "" : chosen.rawValue + " ")--help")
            }
            guard seen.insert(name).inserted || spec.repeatable else { throw problem("\(name) is given twice; give it once") }
            switch (spec.value, value) {
            case (nil, nil): try spec.apply(&options, "", problem)
            case (nil, _?): throw problem("\(name) takes no value")
            case (let what?, nil):
                // A file of that name is written ./NAME; for a number or a word the command's name is no value at all.
                let named = commandForValue[name].map { "; \"\($0)\" is a command" + (what.contains("FILE") ? " (a file of that name: ./\($0))" : "") } ?? ""
                throw problem("\(name) needs a value\(named)")
            // No option takes an empty value: `--answers=` would otherwise look for a file named "".
            case (_?, ""?): throw problem("\(name) needs a value, not an empty one")
            case (_?, let value?): try spec.apply(&options, value, problem)
            }
        }
        // An option of one of history's verbs on another is refused naming where it goes: accepted and ignored, a
        // script's `history --format json` read a text table as JSON.
        if let verb = chosen.verb(of: words), let misplaced = given.first(where: { $0.spec?.isFor(verb: verb) == false })?.spec {
            throw problem(misplaced.misplaced(on: verb))
        }
        if options.ephemeral && options.statePath != nil {
            throw problem("--state and --ephemeral exclude each other: keep state in FILE, or in memory only")
        }
        switch chosen {
        case .terminal:
            if let word = words.first {
                // A command after `--` is a word (`idp-tui -- run`): "did you mean "run"?" contradicted itself.
                if optionsEnd && Command(rawValue: word).map({ $0 != .terminal }) == true {
                    throw UsageError("\"\(word)\" after \"--\" is not read as a command: give the command before \"--\" (idp-tui \(word) -- …)")
                }
                let hint = KeySuggestion.hint(for: word, among: Command.allCases.map(\.rawValue).filter { !$0.isEmpty })
                throw UsageError("unknown command or option \"\(word)\"" + (hint.isEmpty ? "; see idp-tui --help" : hint))
            }
        case .run:
            for (word, place) in zip(words, places) {
                guard let flow = FlowCatalog.kind(named: word) else {
                    let flows = FlowCatalog.kinds.map(\.rawValue)
                    // A value pasted here (the answers, a password, a code) is named by its place, never printed: only
                    // a word that could be a mistyped flow (letters and dashes, or one a flow is near) is named.
                    let hint = KeySuggestion.hint(for: word, among: flows)
                    let couldBeAFlow = !hint.isEmpty || (word.count <= 24 && word.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-") })
                    guard ArgumentEcho.isShowable(word), couldBeAFlow else {
                        throw problem("argument \(place) is not a flow name; "
                            + (ArgumentEcho.looksLikeJSON(word)
                                ? "answers go on standard input or in a file named by --answers, never on the command line"
                                : "flows: \(flows.joined(separator: ", "))"))
                    }
                    throw problem("unknown flow \"\(word)\"\(hint); flows: \(flows.joined(separator: ", "))")
                }
                options.flows.append(flow)
            }
            guard !options.flows.isEmpty else {
                throw problem("name at least one flow (\(FlowCatalog.kinds.map(\.rawValue).joined(separator: ", ")))")
            }
            let flows = options.flows
            if let idle = given.lazy.compactMap(\.spec).first(where: { $0.reaches.map { !$0.contains(where: flows.contains) } ?? false }),
               let reaches = idle.reaches {
                let names = reaches.count < 2 ? reaches.map(\.rawValue).joined()
                    : reaches.dropLast().map(\.rawValue).joined(separator: ", ") + " and " + reaches.last!.rawValue
                throw problem("\(idle.name) reaches only \(names), and this run has none (\(flows.reduce(into: [String]()) { if !$0.contains($1.rawValue) { $0.append($1.rawValue) } }.joined(separator: ", "))): it would change nothing")
            }
        case .compare, .reset:
            if let word = words.first { throw problem("unknown argument \"\(word)\"; see idp-tui \(chosen.rawValue) --help") }
        case .history, .scenario:
            break  // their verbs and ids are read by the commands
        }
        return ParsedCommandLine(request: .run(chosen), options: options, words: words)
    }

    /// Where its errors start: `run: `, and for history's verbs the verb too (`history prune: `), as the errors the
    /// verbs' own code writes do.
    private static func errorPrefix(of command: Command, words: [String]) -> String {
        if let verb = command.verb(of: words), !verb.isEmpty { return "history \(verb): " }
        return command.prefix
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The commands that take an option, for the error when another is given it.
    private static func owners(of spec: OptionSpec) -> String {
        let names = Command.allCases.filter { spec.scope.includes($0) }.map { $0 == .terminal ? "the terminal UI" : "idp-tui \($0.rawValue)" }
        return names.joined(separator: " and ")
    }

    private init(request: Request, options: CommandLineOptions, words: [String]) {
        self.request = request
        self.options = options
        self.words = words
    }
}

extension Command {
    /// `--help` for this command (for `history`'s `verb`, that verb's alone), from the option table, and where its
    /// guide is.
    public func help(verb: String? = nil) -> String {
        usage(verb: verb) + "\nguide: \(guide) in idp-tui's source tree (not installed with the binary)"
    }

    /// `--help` for the command these words follow: `history show --help` is show's (it listed the list's and
    /// prune's options, which show refuses).
    public func help(words: [String]) -> String { help(verb: verb(of: words).flatMap { $0.isEmpty ? nil : $0 }) }

    /// Its usage, options and notes (the whole `idp-tui --help` holds the terminal UI's); for one of `history`'s
    /// verbs, its form and the options it takes.
    public func usage(verb: String? = nil) -> String {
        let forms = verb.map { verb in Command.synopsis(of: [self]).filter { $0.hasPrefix("  idp-tui history \(verb)") } } ?? Command.synopsis(of: [self])
        var lines = ["usage:"] + forms
        let own = OptionTable.all.filter { spec in
            if case .global = spec.scope { return false }
            return spec.scope.includes(self) && (verb.map(spec.isFor(verb:)) ?? true)
        }
        func describe(_ specs: [OptionSpec]) -> [String] {
            let width = specs.map(\.usage.count).max() ?? 0
            return specs.map { "  \($0.usage.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.help)" }
        }
        if !own.isEmpty { lines += ["options:"] + describe(own) }
        lines += ["global options (every command):"] + describe(OptionTable.all.filter { if case .global = $0.scope { true } else { false } })
        if !notes.isEmpty { lines += [""] + notes }
        return lines.joined(separator: "\n")
    }
}
