import Foundation
import Testing

/// `--help` and the one-line errors on standard error under a locale that is not UTF-8 (`LC_ALL=C`, or none set):
/// ASCII only, as plain mode is; under a UTF-8 locale, the symbols.
@Suite struct ASCIILocaleTests {
    static let commands = [[], ["run"], ["compare"], ["history"], ["reset"], ["scenario"]]

    /// Every byte below 0x80.
    private func expectASCII(_ text: String, _ what: String) {
        let other = text.unicodeScalars.filter { !$0.isASCII }
        #expect(other.isEmpty, "\(what): \(String(String.UnicodeScalarView(other)))")
        #expect(text.utf8.allSatisfy { $0 < 0x80 }, "\(what)")
    }

    @Test func helpIsASCIIUnderALocaleThatIsNotUTF8() throws {
        for environment in [["LC_ALL": "C"], ["LANG": ""], ["LANG": "C.UTF-8", "LC_CTYPE": "POSIX"]] {
            for command in Self.commands {
                let run = try BinaryRun.run(command + ["--help"], environment: environment)
                #expect(run.status == 0)
                expectASCII(run.stdout + run.stderr, "\(environment) \(command) --help")
            }
            let help = try BinaryRun.run(["--help"], environment: environment).stdout
            #expect(help.contains("idp-tui 0.2.0 -- simulate IdpSdk"), "\(environment): the dash spelled")
            #expect(help.contains("exit status: 0 every flow succeeded (or quit: at a terminal") && help.contains(" - 1 a flow failed - 3"), "\(environment): the separator spelled")
            #expect(try BinaryRun.run(["run", "--help"], environment: environment).stdout.contains("swift 1.5 s x 3"))
        }
        // Under a UTF-8 locale (BinaryRun's default, C.UTF-8) the same help keeps its symbols.
        let help = try BinaryRun.run(["--help"]).stdout
        #expect(help.contains("idp-tui 0.2.0 — simulate IdpSdk") && help.contains(" · 1 a flow failed · 3"))
    }

    @Test func errorLinesAreASCIIUnderALocaleThatIsNotUTF8() throws {
        let theme = try temporaryFile("title = bogus\n")
        defer { try? FileManager.default.removeItem(atPath: theme) }
        let cases: [(arguments: [String], says: String)] = [
            (["--theme", theme], "bright-..., default, or 0 to 255"),
            (["--theme", "/nonexistent/thème-€.theme"], "/nonexistent/th?me-?.theme"),
            (["run", "activate", "--scenario", "/nonexistent/scénario.json"], "/nonexistent/sc?nario.json"),
            (["--bogus"], "unknown option --bogus"),
        ]
        for (arguments, says) in cases {
            let run = try BinaryRun.run(arguments, stdin: Answers.aliceActivation, environment: ["LC_ALL": "C"])
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            expectASCII(run.stdout + run.stderr, "\(arguments)")
            #expect(run.stderr.hasPrefix("idp-tui: ") && run.stderr.contains(says), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
        }
        // A UTF-8 locale gets the line as it is.
        let utf8 = try BinaryRun.run(["--theme", theme])
        #expect(utf8.stderr.contains("bright-…, default"), "\(utf8.stderr)")
        #expect(try BinaryRun.run(["--theme", "/nonexistent/thème-€.theme"]).stderr.contains("thème-€.theme"))
    }

    /// A control character in what the command line gave (here a path with an escape sequence and a newline) never
    /// reaches the terminal: such a word is named by its place (docs/decisions.md, "What an error echoes"), and
    /// any control character left in an error is written as `\x1B`. It cannot colour or clear the terminal, and the
    /// error stays one line.
    @Test func errorLinesShowControlCharactersEscaped() throws {
        let path = "/nonexistent/a\u{1B}[2J\u{1B}]0;owned\u{07}\nb.sqlite"
        for environment in [[:], ["LC_ALL": "C"]] {
            let run = try BinaryRun.run(["history", "--state", path], environment: environment)
            #expect(run.status == 2, "\(run.stderr)")
            #expect(!run.stderr.utf8.contains { $0 < 0x20 && $0 != 0x0A }, "\(environment): \(run.stderr)")
            #expect(run.stderr.hasPrefix("idp-tui: history: [argument 3] does not exist; check the path"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
        }
    }

    /// What a person reads on standard output — `history show`'s transcript and `compare`'s table — is ASCII
    /// under a locale that is not UTF-8 too; the exports and JSON, made for other tools, are left as they are.
    @Test func historyShowAndCompareAreASCIIUnderALocaleThatIsNotUTF8() throws {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        // A payment has no user: the table's dash for it is spelled too.
        #expect(try BinaryRun.run(["run", "payer-auth", "--state", state], stdin: #"{"card":"4000000000002701","expiry":"12/30"}"#).status == 0)
        let list = try BinaryRun.run(["history", "--state", state], environment: ["LC_ALL": "C"])
        #expect(list.status == 0, "\(list.stderr)")
        expectASCII(list.stdout, "history")
        let show = try BinaryRun.run(["history", "show", "1", "--state", state], environment: ["LC_ALL": "C"])
        #expect(show.status == 0, "\(show.stderr)")
        expectASCII(show.stdout, "history show")
        #expect(show.stdout.contains("1. App -> MC-SDK  Start"), "\(show.stdout)")
        #expect(try BinaryRun.run(["history", "show", "1", "--state", state]).stdout.contains("1. App → MC-SDK  Start"))
        let compare = try BinaryRun.run(["compare"], environment: ["LC_ALL": "C"])
        #expect(compare.status == 0, "\(compare.stderr)")
        expectASCII(compare.stdout, "compare")
        // The KSSIDP column starts where it does under UTF-8, on every row: the table is laid out in ASCII, not
        // spelled in ASCII after (✓ and → are one column, ok and -> two).
        let utf8 = try BinaryRun.run(["compare"], environment: ["LANG": "C.UTF-8"]).stdout
        // The step rows name the KSSIDP flow (`legacy-activate: …`) in the right column.
        func kssidpColumn(_ text: String) -> Set<Int> {
            Set(text.split(separator: "\n").compactMap { line in line.range(of: "legacy-")?.lowerBound.utf16Offset(in: line) })
        }
        #expect(kssidpColumn(utf8).count == 1)
        #expect(kssidpColumn(compare.stdout) == kssidpColumn(utf8), "\(compare.stdout)")
        // And so do the message rows (`Start -> GetAstClientData -> …` on both sides).
        let column = try #require(kssidpColumn(utf8).first)
        let twoSided = compare.stdout.split(separator: "\n").map(Array.init).filter { $0.count > column && $0.starts(with: Array("    ")) }
        #expect(twoSided.count > 10)
        let misaligned = twoSided.filter { $0[column - 1] != " " || $0[column] == " " }.map { String($0) }
        #expect(misaligned.isEmpty, "\(misaligned.joined(separator: "\n"))")
        let mermaid = try BinaryRun.run(["history", "export", "1", "--format", "mermaid", "--state", state], environment: ["LC_ALL": "C"])
        #expect(mermaid.status == 0 && mermaid.stdout.hasPrefix("sequenceDiagram"), "\(mermaid.stderr)")
    }
}
