import Foundation
import Headless
import PaymentFlows
import Testing

/// One grammar for every command (ParsedCommandLine and its option table).
@Suite struct CommandLineTests {
    func parse(_ arguments: [String]) throws -> ParsedCommandLine { try ParsedCommandLine.parse(arguments) }

    func problem(_ arguments: [String]) -> String? {
        do {
            _ = try ParsedCommandLine.parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func optionsGoBeforeOrAfterTheCommandWithOrWithoutAnEqualsSign() throws {
        let forms = [
            ["--state", "/tmp/s.sqlite", "history", "--limit", "3"], ["history", "--state=/tmp/s.sqlite", "--limit=3"],
            ["--limit", "3", "history", "--state", "/tmp/s.sqlite"],
        ]
        for form in forms {
            let parsed = try parse(form)
            #expect(parsed.request == .run(.history), "\(form)")
            #expect(parsed.options.statePath == "/tmp/s.sqlite" && parsed.options.limit == 3, "\(form)")
        }
        let run = try parse(["--seed=7", "run", "activate", "login", "--ephemeral"])
        #expect(run.request == .run(.run) && run.options.flows == [.activate, .login])
        #expect(run.options.seed == 7 && run.options.ephemeral)
    }

    /// `--` ends the options (every command said "unknown option --"), and a command's name where an option's
    /// value is due is the command, its option's value missing (`idp-tui --state compare` ran the terminal UI on a
    /// state file named `compare`).
    @Test func doubleDashEndsTheOptionsAndACommandIsNoOptionsValue() throws {
        let run = try parse(["run", "--ephemeral", "--", "login"])
        #expect(run.options.flows == [.login] && run.options.ephemeral)
        #expect(problem(["compare", "--", "--seed", "1"])?.contains("unknown argument \"--seed\"") == true)
        // After it, a word is never a command, and the error says so (it asked "did you mean "history"?").
        #expect(problem(["--", "history"]) == "\"history\" after \"--\" is not read as a command: give the command before \"--\" (idp-tui history -- …)",
                "\(problem(["--", "history"]) ?? "accepted")")
        for command in ["compare", "history", "run", "reset"] {
            let said = problem(["--state", command, "login"])
            #expect(said?.contains("--state needs a value; \"\(command)\" is a command (a file of that name: ./\(command))") == true,
                    "\(said ?? "accepted")")
        }
        #expect(problem(["--scenario", "compare"])?.contains("--scenario needs a value") == true)
        // Only a file's option is told of ./NAME.
        #expect(problem(["--seed", "run", "activate"])?.hasSuffix("--seed needs a value; \"run\" is a command") == true,
                "\(problem(["--seed", "run", "activate"]) ?? "accepted")")
        // A file of that name, as the error says, and the command after its option still takes the word.
        #expect(try parse(["--state", "./compare"]).options.statePath == "./compare")
        #expect(try parse(["history", "--state", "compare"]).options.statePath == "compare")
    }

    @Test func theGlobalOptionsAreAcceptedByEveryCommand() throws {
        let global = ["--seed", "9", "--scenario", "s.json", "--theme", "monochrome"]
        for command in ["compare", "history", "reset", "scenario"] {
            let parsed = try parse([command] + global + (command == "scenario" ? ["show"] : []))
            #expect(parsed.options.seed == 9 && parsed.options.scenarioPath == "s.json" && parsed.options.theme == "monochrome", "\(command)")
        }
        #expect(try parse(["compare", "--ephemeral"]).options.ephemeral)
        #expect(try parse(["--state", "f", "reset"]).options.statePath == "f")
    }

    /// A prompt timeout is taken to the nearest millisecond, and its messages say it so (1.001 was cut to 1 s).
    @Test(arguments: [("1.001", 1001), ("0.0015", 2), ("0.2", 200), ("86400", 86_400_000)])
    func aPromptTimeoutIsTakenToTheMillisecond(value: String, milliseconds: Int64) throws {
        #expect(try parse(["run", "activate", "--prompt-timeout", value]).options.promptTimeout == .milliseconds(milliseconds))
    }

    /// An option that can reach none of a run's flows is refused naming it, as a fault in the answers that can reach
    /// no flow is: `run activate --bridge-fault wrong-origin` passed, the fault having bitten nothing. The terminal
    /// UI, whose session may start any flow, takes them. What each reaches comes from the families (their settings
    /// and the identity faults that reach their flows), not from a list here.
    @Test func anOptionThatCanReachNoFlowOfTheRunIsRefused() throws {
        #expect(problem(["run", "activate", "--bridge-fault", "wrong-origin"])
            == "run: --bridge-fault reaches only payer-auth, and this run has none (activate): it would change nothing")
        #expect(problem(["run", "login", "logout", "login", "--launch=push"])
            == "run: --launch reaches only q2-login, and this run has none (login, logout): it would change nothing")
        #expect(problem(["--bridge-timing", "web", "run", "q2-login"])?.hasPrefix("run: --bridge-timing reaches only payer-auth") == true)
        #expect(problem(["run", "activate", "payer-auth", "--bridge-fault", "wrong-origin", "--bridge-timing", "web"]) == nil)
        #expect(problem(["run", "q2-login", "--launch", "push"]) == nil)
        #expect(problem(["--bridge-fault", "wrong-origin", "--launch", "push"]) == nil, "the terminal UI")
        // The insecure device reaches every flow but a payment (it passed on payer-auth, whose answers refuse it).
        #expect(problem(["run", "payer-auth", "--insecure-device", "rooted"])
            == "run: --insecure-device reaches only activate, login, logout, q2-login, legacy-activate and legacy-login, and this run has none (payer-auth): it would change nothing")
        #expect(problem(["run", "payer-auth", "logout", "--insecure-device", "rooted"]) == nil)
        // The IdpSdk's settings reach the IdP and SetAuthorisationCode, which a payment, a Q2 sign-in and a logout
        // never do (they passed on those runs, changing nothing); the KSSIDP wrapper's flows use them too.
        for option in [["--auth-mode", "pin"], ["--hash-pin"], ["--certificate-chain", "chain.pem"]] {
            #expect(problem(["run", "payer-auth", "q2-login", "logout"] + option)
                == "run: \(option[0]) reaches only activate, login, legacy-activate and legacy-login, and this run has none (payer-auth, q2-login, logout): it would change nothing")
            #expect(problem(["run", "legacy-login"] + option) == nil)
        }
    }

    @Test func differentBridgeFaultsAddUp() throws {
        let faults = try ParsedCommandLine.parse(["run", "payer-auth", "--bridge-fault", "lose-acks:3", "--bridge-fault", "unknown-event"]).options.settings.payment.bridgeFaults
        #expect(faults.lostAcks == 3 && faults.unknownEvent && !faults.wrongOrigin)
    }

    @Test(arguments: [
        (["run", "activate", "--frob"], "run: unknown option --frob; see idp-tui run --help"),
        // A misspelled option names the command's option it is likely meant to be, as a misspelled flow or key does.
        (["run", "activate", "--see", "5"], "run: unknown option --see; did you mean \"--seed\"?; see idp-tui run --help"),
        (["--Theme", "x"], "unknown option --Theme; did you mean \"--theme\"?; see idp-tui --help"),
        (["history", "--lmit", "3"], "history: unknown option --lmit; did you mean \"--limit\"?; see idp-tui history --help"),
        // Not an option of another verb's, which would then be refused.
        (["history", "show", "1", "--lmit", "3"], "history show: unknown option --lmit; see idp-tui history --help"),
        (["--=x"], "unknown option --=x; see idp-tui --help"),
        (["run", "activate", "--="], "run: unknown option --=; see idp-tui run --help"),
        (["--answers", "a.json"], "unknown option --answers (it is for idp-tui run); see idp-tui --help"),
        (["history", "--variant", "guide"], "history: unknown option --variant (it is for idp-tui compare); see idp-tui history --help"),
        (["run", "activate", "--seed"], "run: --seed needs a value"),
        (["history", "export", "4", "--format", "--state", "f"], "history export: --format needs a value"),
        (["compare", "--json=yes"], "compare: --json takes no value"),
        // It said "unknown option --help".
        (["run", "--help=yes"], "run: --help takes no value"),
        (["--version=1"], "--version takes no value"),
        (["reset", "--limit", "0"], "reset: unknown option --limit (it is for idp-tui history); see idp-tui reset --help"),
        (["history", "--limit", "0"], "history: --limit takes a whole number from 1 to 100000, not \"0\""),
        (["run", "activate", "--state", "f", "--ephemeral"], "run: --state and --ephemeral exclude each other"),
        (["compare", "now"], "compare: unknown argument \"now\""),
        // Help for a command that does not exist is not the whole help, exit 0 (`check` for `scenario check`).
        (["check", "--help"], "unknown command \"check\"; see idp-tui --help"),
        (["help", "check"], "unknown command \"check\"; see idp-tui --help"),
        (["run"], "run: name at least one flow"),
        (["run", "activate", "--answers", "good.json", "--answers=wrong.json"], "run: --answers is given twice; give it once"),
        (["--seed", "1", "history", "--seed", "2"], "history: --seed is given twice"),
        (["--ephemeral", "run", "logout", "--ephemeral"], "run: --ephemeral is given twice"),
        // An empty value is a missing one, for every option that takes a value (`--answers=` looked for a file "").
        (["run", "activate", "--answers="], "run: --answers needs a value, not an empty one"),
        (["run", "activate", "--answers", ""], "run: --answers needs a value, not an empty one"),
        (["run", "activate", "--certificate-chain="], "run: --certificate-chain needs a value, not an empty one"),
        (["--scenario=", "reset"], "reset: --scenario needs a value, not an empty one"),
        (["--theme="], "--theme needs a value, not an empty one"),
        (["run", "activate", "--seed="], "run: --seed needs a value, not an empty one"),
        (["run", "activate", "--insecure-device="], "run: --insecure-device needs a value, not an empty one"),
        (["history", "export", "1", "--format="], "history export: --format needs a value, not an empty one"),
        // --bridge-fault adds a fault each time; the same fault twice is refused, not the last one kept.
        (["run", "payer-auth", "--bridge-fault", "lose-acks:3", "--bridge-fault", "lose-acks:1"],
         "run: --bridge-fault lose-acks is given twice; give it once"),
        (["--bridge-fault", "wrong-origin", "--bridge-fault=lose-acks:2", "--bridge-fault", "wrong-origin"],
         "--bridge-fault wrong-origin is given twice; give it once"),
        // --version with a command was dropped and the command run: `reset --version` reset the state.
        (["reset", "--version"], "reset: --version goes alone (idp-tui --version)"),
        (["-V", "run", "activate"], "run: --version goes alone"),
        (["history", "prune", "--version"], "history prune: --version goes alone"),
        (["--version", "frob"], "--version goes alone (idp-tui --version)"),
        (["--version", "--ephemeral"], "--version goes alone"),
    ])
    func everyErrorNamesTheOption(arguments: [String], message: String) {
        let problem = problem(arguments)
        #expect(problem?.hasPrefix(message) == true, "\(problem ?? "no error")")
    }

    /// A value from a fixed list that is not on it names the word it was likely meant to be (another case, or up to
    /// two letters off), as a misspelt option, flow or key does, after the list it gives as before; a value near no
    /// word gets the list alone. A misspelt command or verb names the one it was likely meant to be.
    @Test(arguments: [
        (["run", "payer-auth", "--bridge-timing", "swfit"],
         #"run: --bridge-timing takes swift (1.5 s, 3 retries) or web (1 s, 2 retries), not "swfit"; did you mean "swift"?"#),
        (["run", "payer-auth", "--bridge-timing", "slow"], #"run: --bridge-timing takes swift (1.5 s, 3 retries) or web (1 s, 2 retries), not "slow""#),
        (["run", "login", "--auth-mode", "PIN"], #"run: --auth-mode takes no, biometric, password or pin, not "PIN"; did you mean "pin"?"#),
        (["run", "login", "--auth-mode", "face"], #"run: --auth-mode takes no, biometric, password or pin, not "face""#),
        (["run", "q2-login", "--launch", "deeplink"], #"run: --launch takes normal, deep-link or push, not "deeplink"; did you mean "deep-link"?"#),
        (["compare", "--variant", "guid"],
         #"compare: --variant takes guide or guide-as-written or enrollment-client-for-login, not "guid"; did you mean "guide"?"#),
        (["history", "export", "1", "--format", "jsn"], #"history export: --format takes mermaid or json, not "jsn"; did you mean "json"?"#),
        (["history", "export", "1", "--format", "svg"], #"history export: --format takes mermaid or json, not "svg""#),
        // A fault's count is kept in the one named; lose-acks with a count out of range is answered by the list's range.
        (["run", "payer-auth", "--bridge-fault", "lose-ack:3"], "run: --bridge-fault takes \(bridgeFaults), not \"lose-ack:3\"; did you mean \"lose-acks:3\"?"),
        (["run", "payer-auth", "--bridge-fault", "lose-evry-ack"], "run: --bridge-fault takes \(bridgeFaults), not \"lose-evry-ack\"; did you mean \"lose-every-ack\"?"),
        (["run", "payer-auth", "--bridge-fault", "lose-acks"], "run: --bridge-fault takes \(bridgeFaults), not \"lose-acks\"; did you mean \"lose-acks:N\"?"),
        (["run", "payer-auth", "--bridge-fault", "lose-acks:300"], "run: --bridge-fault takes \(bridgeFaults), not \"lose-acks:300\""),
        (["run", "payer-auth", "--bridge-fault", "gremlins"], "run: --bridge-fault takes \(bridgeFaults), not \"gremlins\""),
        (["rn"], #"unknown command or option "rn"; did you mean "run"?"#),
        (["help", "rn"], #"unknown command "rn"; did you mean "run"?"#),
        (["ls"], #"unknown command or option "ls"; see idp-tui --help"#),
    ] as [([String], String)])
    func aValueOffTheListNamesTheLikelyOne(arguments: [String], message: String) {
        #expect(problem(arguments) == message, "\(problem(arguments) ?? "no error")")
    }

    private static let bridgeFaults = "lose-acks:N, lose-every-ack, ready-never-comes, malformed-message, unknown-event, wrong-origin (N from 1 to 100)"

    /// The same on the binary's standard error: one line, exit 2; the verbs its commands read (`history`'s,
    /// `scenario`'s) and a theme's name too.
    @Test(arguments: [
        (["run", "payer-auth", "--ephemeral", "--bridge-timing", "Web"],
         #"idp-tui: run: --bridge-timing takes swift (1.5 s, 3 retries) or web (1 s, 2 retries), not "Web"; did you mean "web"?"#),
        (["run", "logout", "--ephemeral", "--theme", "monocrome"],
         #"idp-tui: run: theme monocrome: is neither a built-in theme (default, high-contrast, monochrome) nor a readable file; did you mean "monochrome"?"#),
        (["history", "shwo", "1", "--state", "/nonexistent/s.sqlite"],
         #"idp-tui: history: unknown argument "shwo"; did you mean "show"?; use show ID, export ID or prune, or see idp-tui history --help"#),
        (["scenario", "chek", "x.json"], #"idp-tui: scenario: unknown command "chek"; did you mean "check"?; use check or show"#),
        (["scenario", "lint", "x.json"], #"idp-tui: scenario: unknown command "lint"; use check or show"#),
    ] as [([String], String)])
    func aWordOffTheListIsOneLineAndExitTwo(arguments: [String], message: String) throws {
        let run = try BinaryRun.run(arguments, stdin: "{}")
        #expect(run.status == 2, "\(run.stdout)")
        #expect(run.stderr == message + "\n", "\(run.stderr)")
    }

    /// An empty word for the file (an unset shell variable) is named as that: the error was ": $: the file cannot be
    /// read", with no name in it.
    @Test func scenarioCheckOfAnEmptyNameSaysSo() throws {
        let run = try BinaryRun.run(["scenario", "check", ""])
        #expect(run.status == 2)
        #expect(run.stderr == "idp-tui: scenario check: needs a file name, not an empty one\n", "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    /// The one option that adds up: each `--bridge-fault` switches one more fault on.
    @Test func bridgeFaultsAddUp() throws {
        let parsed = try parse(["run", "payer-auth", "--bridge-fault", "lose-acks:2", "--bridge-fault=wrong-origin"])
        #expect(parsed.options.settings.payment.bridgeFaults.lostAcks == 2 && parsed.options.settings.payment.bridgeFaults.wrongOrigin)
    }

    /// docs/headless.md's synopsis names every option `run --help` lists, as the table spells it.
    @Test func theHeadlessGuidesSynopsisHasEveryOptionOfRun() throws {
        let guide = try String(contentsOf: docsFolder.appendingPathComponent("headless.md"), encoding: .utf8)
        let synopsis = try #require(guide.components(separatedBy: "```").dropFirst().first)
        let options = Command.run.usage().split(separator: "\n").filter { $0.hasPrefix("  --") }
            .map { $0.dropFirst(2).components(separatedBy: "  ")[0] }
        #expect(options.count >= 12)
        for option in options { #expect(synopsis.contains(option), "docs/headless.md's synopsis lacks \(option)") }
    }

    @Test func helpComesFromTheTableForEachCommand() throws {
        #expect(try parse(["run", "--help"]).request == .help(.run))
        #expect(try parse(["help", "history"]).request == .help(.history))
        #expect(try parse(["--help"]).request == .help(.terminal))
        let run = Command.run.help()
        for option in ["--answers FILE|-", "--prompt-timeout SECONDS", "--state FILE", "--seed N"] { #expect(run.contains(option), "\(option)") }
        #expect(!run.contains("--limit") && !Command.terminal.help().contains("--answers"))
        #expect(Command.history.help().contains("--format mermaid|json") && Command.compare.help().contains("--variant"))
    }

    /// `history show --help` lists what show takes: it listed the list's, prune's and export's options, which show
    /// then refused (exit 2). Each verb's help comes from the same table as the refusal.
    @Test func eachHistoryVerbsHelpListsItsOwnOptions() throws {
        let show = try parse(["history", "show", "--help"])
        #expect(show.request == .help(.history))
        let help = Command.history.help(words: show.words)
        #expect(help.contains("idp-tui history show ID") && !help.contains("idp-tui history prune"), "\(help)")
        for refused in ["--json", "--limit", "--keep-flows", "--keep-days", "--format"] {
            #expect(!help.contains(refused), "\(refused) in show's help")
            #expect(problem(["history", "show", "1", refused] + (refused == "--json" ? [] : ["1"])) != nil, "\(refused) accepted")
        }
        #expect(help.contains("--state FILE"))
        let prune = Command.history.help(words: ["prune"])
        #expect(prune.contains("--keep-flows N") && prune.contains("--keep-days D") && !prune.contains("--limit"))
        let export = Command.history.help(words: ["export", "3"])
        #expect(export.contains("--format mermaid|json") && !export.contains("--json "))
        let list = Command.history.help(words: [])
        for option in ["--json", "--limit N", "--keep-flows N", "--format mermaid|json"] { #expect(list.contains(option), "\(option)") }
    }

    /// A global option a command does not use is still checked: a typo in a script is an error (exit 2), not
    /// silently nothing.
    @Test func unusedGlobalOptionsAreStillChecked() throws {
        for (arguments, stdin, message) in [
            (["run", "logout", "--ephemeral", "--theme", "nope"], "{}", "idp-tui: run: theme nope: is neither a built-in theme"),
            (["scenario", "show", "--theme", "zzz"], "", "idp-tui: scenario: theme zzz:"),
            (["reset", "--state", freshStatePath(), "--scenario", "/nonexistent/scenario.json"], "", "idp-tui: reset: scenario /nonexistent/scenario.json"),
        ] {
            let run = try BinaryRun.run(arguments, stdin: stdin)
            #expect(run.status == 2, "\(arguments): \(run.stdout)")
            #expect(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
        }
        #expect(try BinaryRun.run(["run", "logout", "--ephemeral", "--theme", "monochrome"], stdin: "{}").status == 0)
    }
}

/// The benchmark refuses what it would not read: a figure measured with a misspelt option is a wrong figure.
@Suite struct BenchmarkOptionTests {
    @Test(arguments: [(["--pairs", "x"], "--pairs needs a whole number above 0"), (["--case"], "--case needs a whole number above 0"),
                      (["--pair", "5"], "unknown option --pair")])
    func aBadOptionIsOneLineAndStatusTwo(arguments: [String], message: String) throws {
        let bench = BinaryRun.executable.deletingLastPathComponent().appendingPathComponent("idp-bench")
        let run = try BinaryRun.run(arguments, executable: bench)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("idp-bench: \(message)") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}

/// A run of flows that ask nothing leaves a pipe unread; answers piped to it anyway are said to be unread, on
/// standard error, so that a CI step does not take the run for the fault's answer (it said nothing, exit 0).
@Suite struct UnreadInputTests {
    @Test func answersPipedToALogoutAreSaidToBeUnread() throws {
        let run = try BinaryRun.run(["run", "logout", "--ephemeral"], stdin: #"{"faults":{"insecureDevice":true}}"#, stdinFirst: true)
        #expect(run.status == 0, "the logout ran, without the fault")
        #expect(run.stderr.contains("idp-tui: run: standard input was not read: logout asks nothing"), "\(run.stderr)")
        let read = try BinaryRun.run(["run", "logout", "--ephemeral", "--answers", "-"], stdin: #"{"faults":{"insecureDevice":true}}"#, stdinFirst: true)
        #expect(read.results.first?["status"] as? String == "INSECURE_DEVICE", "\(read.stdout)")
        #expect(!read.stderr.contains("not read"), "\(read.stderr)")
    }

    /// Looked at, never taken: the pipe may hold the next command's answers (`{ run logout; run logout --answers -; }`).
    @Test func theUnreadAnswersAreLeftForTheNextReader() throws {
        let script = "{ \"$0\" run logout --ephemeral > /dev/null; \"$0\" run logout --answers - --ephemeral; }"
        let run = try BinaryRun.run(["-c", script, BinaryRun.executable.path], stdin: #"{"faults":{"insecureDevice":true}}"#,
                                    executable: URL(fileURLWithPath: "/bin/sh"), stdinFirst: true)
        #expect(run.results.first?["status"] as? String == "INSECURE_DEVICE", "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("standard input was not read: logout asks nothing"), "\(run.stderr)")
    }

    /// A socket on standard input (Node's `spawn` gives its child socketpairs) is looked into too, and left whole.
    @Test func answersOnASocketAreSaidToBeUnread() throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        let answer = Array(#"{"faults":{"insecureDevice":true}}"#.utf8)
        #expect(write(pair[0], answer, answer.count) == answer.count)
        let process = Process()
        process.executableURL = BinaryRun.executable
        process.arguments = ["run", "logout", "--ephemeral"]
        process.standardInput = FileHandle(fileDescriptor: pair[1], closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        var left = [UInt8](repeating: 0, count: 64)
        let count = recv(pair[1], &left, left.count, Int32(MSG_DONTWAIT))
        close(pair[0])
        close(pair[1])
        #expect(process.terminationStatus == 0)
        #expect(said.contains("standard input was not read: logout asks nothing"), "\(said)")
        #expect(count == answer.count, "the answers are still there for the next reader")
    }

    @Test func emptyAnswersPipedToALogoutSayNothing() throws {
        let run = try BinaryRun.run(["run", "logout", "logout", "--ephemeral"], stdin: "[{}, {}]\n", stdinFirst: true)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }
}
