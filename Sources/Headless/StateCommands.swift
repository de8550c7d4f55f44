import FlowCatalog
import FlowRecords
import Foundation
import JSONText
import LocaleText
import IdentityProvider
import StateStore
import Threading

/// `idp-tui reset` and `idp-tui history …`: the state file from the command line.
public enum StateCommands {
    /// The state file the commands act on: `--state FILE`, else the default.
    /// `prefix` starts its errors (the command's, else `history prune: `, as the verbs' errors start).
    static func statePath(_ options: CommandLineOptions, command: Command, prefix: String? = nil) throws(UsageError) -> String {
        let prefix = prefix ?? command.prefix
        if options.ephemeral {
            throw UsageError("\(prefix)--ephemeral keeps nothing between runs, so there is no state file to \(command == .reset ? "reset" : "read"); name one with --state")
        }
        guard let path = options.statePath ?? StateFile.defaultPath() else { throw UsageError(prefix + StateFile.noDefaultPath) }
        return path
    }

    /// Whether nothing is at the state path: a link, even one that leads nowhere, is something (opening it refuses
    /// it), and a path behind a folder the user cannot search is refused here, after `prefix`.
    static func isAbsent(_ path: String, prefix: String) throws(UsageError) -> Bool {
        do {
            return try StateFile.isAbsent(path)
        } catch {
            throw UsageError(prefix + error.description)
        }
    }

    /// `--state` given to a command that does not use it (`compare`, `scenario`) is still checked, as every
    /// command checks it: what is at the path must be a state file this user can reach (not a folder, a FIFO, a
    /// link, another program's database, a path behind a folder they cannot search). Nothing there yet is
    /// accepted where `run` could make it, and refused where it could not (`/etc/passwd/x.db` was accepted, exit 0,
    /// where `run` said "/etc/passwd is not a folder"); nothing is made.
    public static func checkUnused(_ options: CommandLineOptions, command: Command) throws(UsageError) {
        guard let path = options.statePath, !options.ephemeral else { return }
        do {
            if try StateFile.isAbsent(path) {
                try StateFile.checkCouldBeMade(path)
            } else {
                try StateFile.check(path)
            }
        } catch {
            throw UsageError(command.prefix + error.description)
        }
    }

    // MARK: reset

    public static func reset(_ options: CommandLineOptions, write: (String) -> Void) throws(UsageError) -> Int32 {
        let path = try statePath(options, command: .reset)
        // At a terminal (standard input and error both one), a reset asks first, as `rm -i` and package managers
        // do, once the file is known to be one it acts on; `--yes`, or a script (no terminal), is not asked.
        let asks = !options.yes && isatty(0) == 1 && isatty(2) == 1
        func confirm() -> Bool {
            guard asks else { return true }
            let question = "idp-tui: reset \(VisibleText.escaped(path))? It forgets the device, the identity provider's counters"
                + " and locks, and the history; it cannot be undone. [y/N] "
            _ = Threading.writeAll(Array(PlainASCII.forUserLocale(question).utf8), to: 2)
            let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased()
            return answer == "y" || answer == "yes"
        }
        let outcome: ResetOutcome
        do {
            outcome = try StateFile.reset(at: path, confirm: confirm)
        } catch {
            throw UsageError("reset: " + error.description)
        }
        switch outcome {
        case .nothingThere:
            write("\(VisibleText.escaped(path)) does not exist: there is nothing to reset")
        case .reset(let before, let after):
            write("\(VisibleText.escaped(path)): the device, the identity provider's counters and locks, and the history are reset (\(bytes(before)) → \(bytes(after)))")
        case .declined:
            writeErrorLine("idp-tui: reset: not confirmed; nothing was changed (--yes resets without asking)")
            return 1
        case .movedAside(let moves):
            write("\(VisibleText.escaped(path)) could not be read; it was kept, not deleted, and the next run starts a new one. Moved:")
            for move in moves { write("  \(VisibleText.escaped(move.from)) → \(VisibleText.escaped(move.to))") }
        }
        return 0
    }

    private static func bytes(_ count: Int64) -> String {
        count < 10_000 ? "\(count) bytes" : count < 10_000_000 ? "\(count / 1000) KB" : "\(count / 1_000_000) MB"
    }

    // MARK: history

    /// Why flow `id` is not in the file: ids are never given twice (a reset keeps them given), so one at or below
    /// the last given was removed, by `reset` or by the history's policy (`history prune`), and one above it is not
    /// there yet (a pruned flow was said only not to exist). The policy is named only where it could have removed
    /// it: a file holding fewer flows than it keeps, with no age limit, lost it to a reset.
    private static func noFlow(_ id: Int, in state: StateFile, path: String) -> String {
        let given = state.flowsRecorded
        if UInt64(id) > given {
            let newest = (try? state.history.list(limit: 1))?.first?.id
            return "there is no flow \(id) in \(path): " + (newest.map { "the newest is \($0)" } ?? (given > 0 ? "it holds none" : "it holds no flow yet"))
        }
        guard let policy = try? state.retention(), policy.days > 0 || state.flowCount >= policy.flows
        else { return "flow \(id) is no longer in \(path): a reset removed it" }
        return "flow \(id) is no longer in \(path): removed by a reset or by the history's policy, which keeps \(policy) (idp-tui history prune sets it)"
    }

    public static func history(_ command: ParsedCommandLine, write: (String) -> Void) throws(UsageError) -> Int32 {
        let arguments = command.words
        let options = command.options
        // The option checks below name the verb only when it is one; another word is the unknown argument, shown
        // as every error shows a word from the command line (ArgumentEcho: a name-like word as it is, else its place).
        let verb = Command.history.verb(of: arguments).flatMap { $0.isEmpty ? nil : $0 }
        // Every error of a verb starts with it (`history prune: `), as the option parser's do.
        let prefix = verb.map { "history \($0): " } ?? "history: "
        let path = try statePath(options, command: .history, prefix: prefix)
        // Reading opens a file the user cannot write read-only; prune writes (and may create the file).
        func open(writing: Bool = false, creating: Bool = false) throws(UsageError) -> StateFile {
            if !creating, try isAbsent(path, prefix: prefix) {
                // A path the user named is more likely mistyped than not yet made ("name the file with --state" was
                // said to a user who had).
                throw UsageError(prefix + (options.statePath == nil
                    ? "\(path) does not exist yet; run a flow first (or name the file with --state)"
                    : "\(path) does not exist; check the path given with --state (idp-tui run makes the file at its first flow)"))
            }
            do {
                let state = try writing ? StateFile(path: path) : StateFile(reading: path)
                for warning in state.warnings { writeErrorLine("idp-tui: \(warning)") }
                return state
            } catch {
                throw UsageError(prefix + error.description)
            }
        }
        let unknown = { (word: String) in
            // `history list`, as git's `stash list` is: the list is the command with no verb.
            word == "list" ? UsageError("history: the list is idp-tui history itself, with no verb; its verbs are show ID, export ID and prune")
                : UsageError("history: unknown argument \"\(word)\"\(KeySuggestion.hint(for: word, among: Command.historyVerbs)); use show ID, export ID or prune, or see idp-tui history --help")
        }
        // (An option given to the wrong verb was refused by the parser, from the option table.)
        if verb == nil, let word = arguments.first { throw unknown(word) }
        switch arguments.first {
        case "show", "export":
            let verb = arguments[0]
            // Its output's failure (a full disk) is said as its other errors are: `history export:`, not `history:`.
            ProcessOutput.name(command: "history \(verb)")
            guard arguments.count >= 2 else { throw UsageError("history \(verb): give the id of a flow (idp-tui history lists them)") }
            // Digits only: `+3` was taken as 3 (Int's own parse) where `-1`, ` 3` and `0x3` were refused.
            guard arguments[1].first != "+", let id = Int(arguments[1]), id > 0 else {
                // Not echoed: whatever was typed there stays off the error line. A whole number too large for any id
                // is said to be (it was told to be a whole number from 1, which it was).
                let digits = !arguments[1].isEmpty && arguments[1].utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                throw UsageError("history \(verb): " + (digits && arguments[1].contains { $0 != "0" }
                    ? "the id given is larger than any flow's (idp-tui history lists them)"
                    : "the id given is not a flow's id, a whole number from 1 (idp-tui history lists them)"))
            }
            if let extra = arguments.dropFirst(2).first {
                throw UsageError("history \(verb): unknown argument \"\(extra)\"; see idp-tui history --help")
            }
            let format = options.format
            if verb == "export" && format == nil { throw UsageError("history export: choose --format mermaid or --format json") }
            let record: HistoryRecord?
            let state = try open()
            do {
                record = try state.history.record(id: id)
            } catch {
                throw UsageError(prefix + "\(error)")
            }
            guard let record else { throw UsageError(prefix + Self.noFlow(id, in: state, path: path)) }
            switch (verb, format) {
            case ("export", "mermaid"): write(HistoryExport.mermaid(record))
            case ("export", _): write(HistoryExport.json(record))
            // Read by a person: in ASCII under a locale that is not UTF-8 (the exports are files for other tools).
            default: write(PlainASCII.forUserLocale(HistoryExport.transcript(record)))
            }
            return 0
        case "prune":
            if let extra = arguments.dropFirst().first {
                throw UsageError("history prune: unknown argument \"\(extra)\"; see idp-tui history --help")
            }
            // A new user (no default file yet) has nothing to prune; a policy given is kept all the same, in a new
            // file, so that the runs to come keep to it. A --state that names no file is likely a typo (exit 2).
            let policyGiven = options.keepFlows != nil || options.keepDays != nil
            var isNew = false
            if options.statePath == nil { isNew = try isAbsent(path, prefix: "history prune: ") }
            if isNew && !policyGiven {
                write("no flows yet: nothing to prune (\(VisibleText.escaped(path)) does not exist yet)")
                return 0
            }
            let state = try open(writing: true, creating: isNew)
            let report: PruneReport
            do {
                var policy: Retention?
                if options.keepFlows != nil || options.keepDays != nil {
                    let current = try state.retention()
                    policy = Retention(flows: options.keepFlows ?? current.flows, days: options.keepDays ?? current.days)
                }
                report = try state.prune(setting: policy)
            } catch {
                throw UsageError("history prune: \(error)")
            }
            if isNew {
                write("\(VisibleText.escaped(path)): a new state file, to keep \(report.retention) from now on; no flows yet")
                return 0
            }
            let forgotten = report.countersForgotten == 0 ? ""
                : "; over its size budget, forgot the failure counters of the \(report.countersForgotten) user \(report.countersForgotten == 1 ? "name" : "names") least recently tried"
            write("\(VisibleText.escaped(path)): keeps \(report.retention); removed \(report.removed) \(report.removed == 1 ? "flow" : "flows"), \(report.kept) kept\(forgotten) (\(bytes(report.bytesBefore)) → \(bytes(report.bytesAfter)))")
            return 0
        case let word?:
            throw unknown(word)
        case nil:
            let json = options.json
            let limit = options.limit ?? 50
            let entries: [HistorySummary]
            // No default file yet is a new user's empty history; a --state that names no file is likely a typo.
            if options.statePath == nil, try isAbsent(path, prefix: "history: ") {
                if !json { write(HistoryExport.table([])) }
                return 0
            }
            let state = try open()
            let unreadable: [Int]
            let more: Bool
            do {
                let filter = options.filter
                // One more than asked for tells whether older flows are left out.
                let found = try state.flows(limit: limit + 1, before: options.before) { entry in
                    filter.map { entry.holds($0, title: FlowCatalog.kind(named: entry.flow)?.title ?? "") } ?? true
                }
                (entries, unreadable, more) = (Array(found.entries.prefix(limit)), found.unreadable, found.entries.count > limit)
            } catch {
                throw UsageError("history: \(error)")
            }
            // Said, not dropped in silence: a flow whose row is damaged was missing from the list with nothing said.
            if !unreadable.isEmpty {
                let ids = unreadable.map(String.init).joined(separator: ", ")
                writeErrorLine("idp-tui: history: \(unreadable.count == 1 ? "flow" : "flows") \(ids) in \(path) cannot be read (a damaged or hand-edited row) and \(unreadable.count == 1 ? "is" : "are") left out")
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let failures = (try? state.failures(ids: entries.map(\.id))) ?? [:]
                for entry in entries {
                    guard let data = try? encoder.encode(entry) else { continue }
                    let line = Self.withFailure(String(decoding: data, as: UTF8.self), failures[entry.id])
                    write(VisibleText.escapedInJSON(line))
                }
            } else {
                let none = [options.filter.map { "no flows match \"\(VisibleText.escaped($0.replacingOccurrences(of: "\\", with: "\\\\")).replacingOccurrences(of: "\"", with: "\\\""))\"" }, options.before.map { "older than flow \($0)" }]
                    .compactMap { $0 }.joined(separator: " ")
                write(HistoryExport.table(entries, none: none.isEmpty ? "no flows yet"
                    : (options.filter == nil ? "no flows " : "") + none))
                // The next page's command, where older flows are left out (a file of thousands had no way past the
                // newest: only --limit and grep).
                if more, let last = entries.last {
                    writeErrorLine("idp-tui: history: older flows\(options.filter == nil ? "" : " that match") are not listed: add --before \(last.id) for the next \(limit)")
                }
            }
            return 0
        }
    }

    /// A `history --json` line with its flow's `error` and `failedStep` when the result has them (a CI script read
    /// each failure's with `history export N` before), keys still in order; the line as it was otherwise.
    static func withFailure(_ line: String, _ failure: (error: String?, failedStep: String?)?) -> String {
        let error = failure?.error.flatMap { try? JSONParser.parse($0) }
        let step = failure?.failedStep.map { JSONNode.string($0) }
        guard error != nil || step != nil, case .object(let summary)? = try? JSONParser.parse(line).value else { return line }
        let added = [("error", error), ("failedStep", step)].compactMap { key, value in value.map { (key: key, value: $0) } }
        let merged = (summary + added).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return JSONNode.object(merged).text(pretty: false)
    }
}
