import Foundation
import Testing

let docsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs")

func scenarioPath(_ name: String) -> String { docsFolder.appendingPathComponent("scenarios/\(name).json").path }

func temporaryFile(_ text: String) throws -> String {
    let path = scratchPath("idp-tui", ".json")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

@Suite struct ScenarioCommandTests {
    @Test func checkAcceptsEveryExample() throws {
        for name in ["default", "bank-qa", "faults"] {
            let run = try BinaryRun.run(["scenario", "check", scenarioPath(name)])
            #expect(run.status == 0, "\(run.stdout)")
            #expect(run.stdout.contains(": ok — scenario"))
        }
    }

    /// Standard output and error into one log (`> log 2>&1`, as CI keeps them): the problems, then their count.
    /// The count came first, as the problems waited in standard output's buffer.
    @Test func inOneLogTheCountFollowsTheProblems() throws {
        let path = try temporaryFile(#"{"scenario": 1, "name": 7, "seed": "x"}"#)
        let run = try BinaryRun.run(["-c", #""$1" scenario check "$2" 2>&1"#, "bash", BinaryRun.executable.path, path],
                                    executable: URL(fileURLWithPath: "/bin/bash"))
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(run.status == 2)
        #expect(lines.count > 2, "\(lines)")
        #expect(lines.last == "idp-tui: scenario check: \(path): \(lines.count - 1) problems", "\(lines)")
    }

    /// A file that is not JSON is checked up to its syntax error: the count says that nothing after it was (it
    /// said "1 problem", read as the whole count of a file with more).
    @Test func aSyntaxErrorsCountSaysTheCheckStoppedThere() throws {
        let path = try temporaryFile(#"{"scenario": 1, "name": 7, "seed": "x",}"#)
        let run = try BinaryRun.run(["scenario", "check", path])
        #expect(run.status == 2)
        #expect(run.stdout == "\(path):1:40: $: not valid JSON: a comma before }, which JSON does not allow (a trailing comma)\n")
        #expect(run.stderr == "idp-tui: scenario check: \(path): 1 problem (the check stops there: nothing after it was checked)\n")
    }

    @Test func checkListsEveryProblemWithLineAndColumnAndExitsTwo() throws {
        let path = try temporaryFile("""
            {
              "scenario": 1,
              "identityProvider": {"tenants": [{"id": "demo", "users": [
                {"username": "alice", "password": "hunter2"},
                {"username": "alice", "password": "x"},
                {"username": "bob", "password": 42}
              ]}]},
              "payments": {"cards": [{"number": "4000000000002502", "frictionless": "Y"}]}
            }
            """)
        let run = try BinaryRun.run(["scenario", "check", path])
        #expect(run.status == 2)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(path):5:18: $.identityProvider.tenants[0].users[1].username: the user \"alice\" is listed twice in this tenant",
            "\(path):6:37: $.identityProvider.tenants[0].users[2].password: must be a string, not a number",
            "\(path):8:37: $.payments.cards[0].number: the card number fails the Luhn check; check for a mistyped digit",
        ])
        #expect(run.stderr == "idp-tui: scenario check: \(path): 3 problems\n")
        #expect(!run.stdout.contains("hunter2"))
    }

    /// Problems are listed in the file's order, whatever order the reader finds them in (it reads the identity
    /// provider before the payments, which this file has first).
    @Test func checkListsProblemsInTheFilesOrder() throws {
        let path = try temporaryFile("""
            {
              "payments": {"cards": [{"number": "4000000000002502", "frictionless": "Y"}]},
              "scenario": 1,
              "identityProvider": {"tenants": [{"id": "demo", "users": [{"username": "bob", "password": 42}]}]}
            }
            """)
        let run = try BinaryRun.run(["scenario", "check", path])
        #expect(run.status == 2)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("\(path):2:") && lines[1].hasPrefix("\(path):4:"), "\(lines)")
    }

    /// A command that cannot go on reports the problem `scenario check` lists first: an object's unknown key is
    /// found before its values, and `run` gave it though a value before it was wrong.
    @Test func runReportsTheFirstProblemInTheFile() throws {
        let path = try temporaryFile(#"{"scenario":1,"name":5,"bogus":1,"identityProvider":{"tenants":[{"id":"demo","users":[{"username":"a","password":"b"}]}]}}"#)
        let check = try BinaryRun.run(["scenario", "check", path])
        let first = try #require(check.stdout.split(separator: "\n").first)
        #expect(first.hasPrefix("\(path):1:22: $.name: must be a string"), "\(check.stdout)")
        let run = try BinaryRun.run(["run", "logout", "--ephemeral", "--scenario", path], stdin: "{}")
        #expect(run.status == 2)
        // The same place, written the same way (FILE:LINE:COLUMN).
        #expect(run.stderr.contains("scenario \(path):1:22: $.name: must be a string"), "\(run.stderr)")
    }

    /// A file whose name holds escape sequences and a newline is named with them escaped: each problem stays one
    /// line, and nothing reaches the terminal that could clear, colour or retitle it.
    @Test func aFileNameWithControlCharactersIsEscaped() throws {
        let folder = scratchPath("idp-tui")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let bad = folder + "/bad\u{1B}[2J\n.json"
        try Data(#"{"scenario": 1, "name": "a", "identityProvider": {"tenants": [{"id": "d", "users": [{"username": "u", "password": 5}]}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: bad))
        let good = folder + "/evil\u{1B}]0;T\u{07}.json"
        try Data(#"{"scenario": 1, "name": "ok", "identityProvider": {"tenants": [{"id": "d", "users": [{"username": "u", "password": "p"}]}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: good))
        let shown = folder + "/bad\\x1B[2J\\x0A.json"
        let problems = try BinaryRun.run(["scenario", "check", bad])
        #expect(problems.status == 2)
        #expect(problems.stdout.split(separator: "\n").count == 1, "\(problems.stdout)")
        #expect(problems.stdout.hasPrefix(shown + ":1:"), "\(problems.stdout)")
        let fine = try BinaryRun.run(["scenario", "check", good])
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(!fine.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(fine.stdout)")
        #expect(fine.stdout.hasPrefix(folder + "/evil\\x1B]0;T\\x07.json: ok — scenario \"ok\""), "\(fine.stdout)")
        // So do the state commands' lines that name their file.
        let state = folder + "/s\u{1B}[2J.sqlite"
        #expect(try BinaryRun.run(["run", "logout", "--state", state]).status == 0)
        let prune = try BinaryRun.run(["history", "prune", "--keep-flows", "5", "--state", state])
        #expect(prune.status == 0, "\(prune.stderr)")
        #expect(prune.stdout.hasPrefix(folder + "/s\\x1B[2J.sqlite: "), "\(prune.stdout)")
    }

    @Test func showPrintsTheEmbeddedDefaultWithoutSecrets() throws {
        let run = try BinaryRun.run(["scenario", "show"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["name"] as? String == "demo")
        #expect(run.stdout.contains("\"password\": \"<secret>\""))
        for secret in Answers.secrets + ["1234\""] { #expect(!run.stdout.contains(secret)) }
        let file = try BinaryRun.run(["scenario", "show", "--scenario", scenarioPath("bank-qa")])
        #expect(file.stdout.contains("\"tenant\": \"retail\""))
        #expect(!file.stdout.contains("correct horse"))
    }

    @Test func runUsesTheScenariosUsersAndCards() throws {
        let scenario = scenarioPath("bank-qa")
        let carol = try BinaryRun.run(["run", "activate", "--scenario", scenario],
                                      stdin: #"{"username":"carol","password":"correct horse","activation-code":"900100"}"#)
        #expect(carol.status == 0, "\(carol.stderr)")
        #expect(carol.results.first?["tenantId"] as? String == "retail")
        let dave = try BinaryRun.run(["run", "activate", "--scenario=\(scenario)"],
                                     stdin: #"{"username":"dave","password":"battery staple","activation-code":"900200"}"#)
        #expect(dave.results.first?["status"] as? String == "ACTIVATION_CODE_EXPIRED")
        // No fault on: the code itself is past its expiry, and the advice blames no fault.
        #expect(dave.results.first?["advice"] as? String == "Ask for a new activation code: this one is past its expiry.")
        let alice = try BinaryRun.run(["run", "activate", "--scenario", scenario], stdin: Answers.aliceActivation)
        #expect(alice.results.first?["status"] as? String == "WRONG_CREDENTIALS")
        let stolen = try BinaryRun.run(["run", "payer-auth", "--scenario", scenario], stdin: #"{"card":"5555555555554444","expiry":"12/30"}"#)
        #expect((stolen.results.first?["payment"] as? [String: Any])?["transStatusReason"] as? String == "10")
        let code = try BinaryRun.run(["run", "payer-auth", "--scenario", scenario], stdin: #"{"card":"4000000000002503","expiry":"12/30","otp":"777777"}"#)
        #expect(code.results.first?["status"] as? String == "AUTHENTICATED")
    }

    @Test func aBadScenarioStopsRunAndTheUIWithOneLine() throws {
        let path = try temporaryFile(#"{"scenario": 1, "identityProvider": {"tenants": []}, "name": 3}"#)
        for arguments in [["run", "activate", "--scenario", path], ["--scenario", path]] {
            let run = try BinaryRun.run(arguments, stdin: Answers.aliceActivation)
            #expect(run.status == 2)
            #expect(run.stderr.split(separator: "\n").count == 1)
            #expect(run.stderr.contains("scenario \(path):1:"), "\(run.stderr)")
            #expect(run.stderr.contains("(and 1 more: idp-tui scenario check \(path))"))
        }
        let missing = try BinaryRun.run(["run", "activate", "--scenario", "/nonexistent.json"], stdin: "{}")
        #expect(missing.status == 2 && missing.stderr.contains("the file cannot be read (No such file or directory)"), "\(missing.stderr)")
    }

    @Test(arguments: [
        (["scenario"], "scenario: name check or show"),
        (["scenario", "check"], "scenario check: name the file to check"),
        (["scenario", "lint", "x.json"], #"scenario: unknown command "lint""#),
        (["scenario", "check", "a.json", "b.json"], #"one file at a time, not "a.json" and also "b.json""#),
        // The global --scenario names the first: the error named only the file given once.
        (["--scenario", "a.json", "scenario", "check", "b.json"], #"one file at a time, not --scenario "a.json" and also "b.json""#),
        (["scenario", "show", "--frob"], "unknown option --frob"),
    ])
    func badScenarioCommandsExitTwo(arguments: [String], message: String) throws {
        let run = try BinaryRun.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
