import FlowRecords
import FlowService
import Foundation
import IdentityProvider
import StateStore

/// `idp-tui reset` and `idp-tui history …`: the state file from the command line.
public enum StateCommands {
    public static let historyUsage = """
        usage: idp-tui history [--json] [--limit N] [--state FILE]        past flows, newest first
               idp-tui history show ID [--state FILE]                   one flow's transcript
               idp-tui history export ID --format mermaid|json [--state FILE]
        """

    public static let resetUsage = """
        usage: idp-tui reset [--state FILE]    forget the device, the IdP's counters and locks, and the history
        """

    /// Splits `--state FILE` (and `--state=FILE`) off the arguments.
    static func takeStatePath(_ arguments: inout [String], command: String) throws(UsageError) -> String {
        var path: String?
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--state" {
                guard index + 1 < arguments.count else { throw UsageError("\(command): --state needs a value") }
                path = arguments[index + 1]
                index += 2
                continue
            }
            if argument.hasPrefix("--state=") { path = String(argument.dropFirst("--state=".count)) } else { rest.append(argument) }
            index += 1
        }
        arguments = rest
        return path ?? StateFile.defaultPath()
    }

    // MARK: reset

    public static func reset(_ arguments: [String], write: (String) -> Void) throws(UsageError) -> Int32 {
        var arguments = arguments
        if arguments.contains("--help") || arguments.contains("-h") {
            write(resetUsage)
            return 0
        }
        let path = try takeStatePath(&arguments, command: "reset")
        if let extra = arguments.first { throw UsageError("reset: unknown argument \"\(extra)\"; see idp-tui reset --help") }
        guard FileManager.default.fileExists(atPath: path) else {
            write("\(path) does not exist: there is nothing to reset")
            return 0
        }
        do {
            try StateFile(path: path).reset()
            write("\(path): the device, the identity provider's counters and locks, and the history are reset")
        } catch {
            // A file that cannot be read is kept, moved aside, never deleted.
            let aside = path + ".unreadable-" + String(Int(Date().timeIntervalSince1970))
            do {
                try FileManager.default.moveItem(atPath: path, toPath: aside)
                for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                    try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
                }
            } catch {
                throw UsageError("reset: \(path) cannot be read, nor moved aside: \(error.localizedDescription)")
            }
            write("\(path) could not be read (\(error.description)); it was moved to \(aside), and the next run starts a new one")
        }
        return 0
    }

    // MARK: history

    public static func history(_ arguments: [String], write: (String) -> Void) throws(UsageError) -> Int32 {
        var arguments = arguments
        if arguments.contains("--help") || arguments.contains("-h") {
            write(historyUsage)
            return 0
        }
        let path = try takeStatePath(&arguments, command: "history")
        func open() throws(UsageError) -> StateFile {
            guard FileManager.default.fileExists(atPath: path) else {
                throw UsageError("history: \(path) does not exist yet; run a flow first (or name the file with --state)")
            }
            do {
                return try StateFile(path: path)
            } catch {
                throw UsageError("history: " + error.description)
            }
        }
        switch arguments.first {
        case "show", "export":
            let verb = arguments[0]
            guard arguments.count >= 2, let id = Int(arguments[1]), id > 0 else {
                throw UsageError("history \(verb): give the id of a flow (idp-tui history lists them)")
            }
            var format: String?
            var rest = Array(arguments.dropFirst(2))
            while let argument = rest.first {
                rest.removeFirst()
                if argument == "--format", verb == "export" {
                    guard let value = rest.first else { throw UsageError("history export: --format needs mermaid or json") }
                    rest.removeFirst()
                    format = value
                } else if argument.hasPrefix("--format="), verb == "export" {
                    format = String(argument.dropFirst("--format=".count))
                } else {
                    throw UsageError("history \(verb): unknown argument \"\(argument)\"; see idp-tui history --help")
                }
            }
            if verb == "export" {
                guard let format else { throw UsageError("history export: choose --format mermaid or --format json") }
                guard format == "mermaid" || format == "json" else {
                    throw UsageError("history export: --format takes mermaid or json, not \"\(format)\"")
                }
            }
            let record: HistoryRecord?
            do {
                record = try open().history.record(id: id)
            } catch {
                throw UsageError("history: \(error)")
            }
            guard let record else { throw UsageError("history: there is no flow \(id) in \(path)") }
            switch (verb, format) {
            case ("export", "mermaid"): write(HistoryExport.mermaid(record))
            case ("export", _): write(HistoryExport.json(record))
            default: write(HistoryExport.transcript(record))
            }
            return 0
        default:
            var json = false
            var limit = 50
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                switch argument {
                case "--json": json = true
                case "--limit":
                    guard let value = rest.popFirst(), let number = Int(value), (1...100_000).contains(number) else {
                        throw UsageError("history: --limit takes a whole number from 1 to 100000")
                    }
                    limit = number
                default: throw UsageError("history: unknown argument \"\(argument)\"; see idp-tui history --help")
                }
            }
            let entries: [HistorySummary]
            do {
                entries = try open().history.list(limit: limit)
            } catch {
                throw UsageError("history: \(error)")
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                for entry in entries { if let data = try? encoder.encode(entry) { write(String(decoding: data, as: UTF8.self)) } }
            } else {
                write(HistoryExport.table(entries))
            }
            return 0
        }
    }
}
