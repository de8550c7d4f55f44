import Foundation
import IdentityProvider
import Testing

@Suite struct RunCommandFlowTests {
    @Test func activateThenLoginSucceedsWithExitZeroAndJSONLines() throws {
        let run = try BinaryRun.run(["run", "activate", "login"], stdin: "[\(Answers.aliceActivation),\(Answers.alice)]")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.lines.count == run.stdout.split(separator: "\n").count, "every line is JSON")
        #expect(run.results.map { $0["flow"] as? String } == ["activate", "login"])
        #expect(run.results.allSatisfy { $0["outcome"] as? String == "success" && $0["status"] as? String == "OK" })
        #expect(run.results.first?["user"] as? String == "alice")
        let callbacks = run.events.filter { $0["step"] as? String == "provideCredentials" }
        #expect(callbacks.count == 6)
        #expect(callbacks.allSatisfy { $0["thread"] as? String == "IdpSdk" && $0["mainThread"] as? Bool == false })
        #expect(run.events.map { $0["sequence"] as? Int } == Array(1...run.events.count).map { $0 })
    }

    @Test func theSameSeedGivesTheSameAstClientId() throws {
        let first = try BinaryRun.run(["run", "activate", "--seed", "9"], stdin: Answers.aliceActivation)
        let second = try BinaryRun.run(["run", "activate", "--seed=9"], stdin: Answers.aliceActivation)
        let other = try BinaryRun.run(["run", "activate", "--seed", "10"], stdin: Answers.aliceActivation)
        let id = first.results.first?["astClientId"] as? String
        #expect(id != nil && id == second.results.first?["astClientId"] as? String)
        #expect(id != other.results.first?["astClientId"] as? String)
    }

    @Test func aWrongPasswordExitsOneWithTheStatusAndError() throws {
        let run = try BinaryRun.run(["run", "activate"], stdin: #"{"username":"alice","password":"nope","activation-code":"123456"}"#)
        #expect(run.status == 1)
        let result = try #require(run.results.first)
        #expect(result["outcome"] as? String == "failure")
        #expect(result["status"] as? String == "WRONG_CREDENTIALS")
        let error = try #require(result["error"] as? [String: Any])
        #expect(error["subsystem"] as? Int == 513 && error["code"] as? Int == 4011)
        #expect((result["advice"] as? String)?.isEmpty == false)
    }

    @Test func cancelExitsThreeAndSendsNoSetAuthorisationCode() throws {
        let run = try BinaryRun.run(["run", "activate"], stdin: #"{"cancel":true}"#)
        #expect(run.status == 3)
        #expect(run.results.first?["outcome"] as? String == "cancelled")
        #expect(run.results.first?["status"] as? String == "USER_CANCEL")
        #expect(!run.events.contains { $0["step"] as? String == "SetAuthorisationCode" })
    }

    @Test func everyFlowRunsAndAFailureOutranksACancel() throws {
        let cancelThenActivate = try BinaryRun.run(
            ["run", "activate", "activate"], stdin: #"[{"cancel":true},"# + Answers.aliceActivation + "]")
        #expect(cancelThenActivate.status == 3)
        #expect(cancelThenActivate.results.map { $0["outcome"] as? String } == ["cancelled", "success"])
        let failThenCancel = try BinaryRun.run(
            ["run", "login", "activate"], stdin: "[\(Answers.alice),{\"cancel\":true}]")
        #expect(failThenCancel.status == 1)
        #expect(failThenCancel.results.first?["status"] as? String == "ACTIVATION_REQUIRED")
    }

    @Test func logoutNeedsNoAnswers() throws {
        let run = try BinaryRun.run(["run", "logout"])
        #expect(run.status == 0)
        #expect(run.results.first?["outcome"] as? String == "success")
        #expect(run.results.first?["wasLoggedIn"] as? Bool == false, "nothing was logged in on a new device")
    }

    @Test func logoutSaysWhetherAUserWasLoggedIn() throws {
        let run = try BinaryRun.run(["run", "activate", "logout", "logout"], stdin: "[\(Answers.aliceActivation),{},{}]")
        #expect(run.status == 0)
        #expect(run.results.dropFirst().map { $0["wasLoggedIn"] as? Bool } == [true, false])
    }

    @Test func answersCanComeFromAFile() throws {
        let file = URL(fileURLWithPath: scratchPath("answers", ".json"))
        try Data(Answers.aliceActivation.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try BinaryRun.run(["run", "activate", "--answers", file.path])
        #expect(run.status == 0)
    }

    @Test func aForeignCertificateChainFailsWithAPinningError() throws {
        let chain = URL(fileURLWithPath: scratchPath("chain", ".pem"))
        try Data(IdentityProviderCertificates.impostorPEM.utf8).write(to: chain)
        defer { try? FileManager.default.removeItem(at: chain) }
        let run = try BinaryRun.run(["run", "activate", "--certificate-chain", chain.path], stdin: Answers.aliceActivation)
        #expect(run.status == 1)
        #expect(run.results.first?["status"] as? String == "NOT_REACHABLE")
        #expect(((run.results.first?["error"] as? [String: Any])?["message"] as? String)?.contains("pinning") == true)
        // The advice names the cause that is there: the chain given, not a fault that is off.
        #expect(run.results.first?["advice"] as? String
            == "The chain given with --certificate-chain is not the identity provider's: pin its own chain (run without --certificate-chain).")
        let fault = try BinaryRun.run(["run", "activate", "--ephemeral"],
                                      stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"pinningFails":true}}"#)
        #expect(fault.results.first?["advice"] as? String
            == "Turn the pinning fault off: the identity provider then presents its own chain, the one the app pins.")
        // A chain given that is the IdP's own is no cause: the fault alone is named.
        try Data(IdentityProviderCertificates.genuinePEM.utf8).write(to: chain)
        let own = try BinaryRun.run(["run", "activate", "--ephemeral", "--certificate-chain", chain.path],
                                    stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"pinningFails":true}}"#)
        #expect(own.results.first?["advice"] as? String
            == "Turn the pinning fault off: the identity provider then presents its own chain, the one the app pins.")
    }

    /// A prompt timeout under a second is said as given: "within 0 s" misstated the limit of `--prompt-timeout 0.2`.
    @Test func aPromptTimeoutUnderASecondIsSaidAsGiven() throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--ephemeral", "--prompt-timeout", "0.2"],
                                    stdin: #"{"card":"4000000000001000","expiry":"01/30","delay":1}"#)
        #expect(run.status == 1)
        #expect((run.results.first?["error"] as? [String: Any])?["message"] as? String == "the card form was not submitted within 0.2 s", "\(run.stdout)")
    }

    @Test func helpAndVersion() throws {
        let help = try BinaryRun.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("idp-tui run FLOW"))
        #expect(help.stdout.contains("exit status"))
        let version = try BinaryRun.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("idp-tui "))
        #expect(try BinaryRun.run(["run", "--help"]).stdout.contains("--answers"))
    }

    /// The docs are not installed with a binary: help names them as files of the source tree, says what the binary
    /// itself can tell, and `run --help` lists the answers' keys, without which `run` cannot be used.
    @Test func helpSaysWhereTheGuidesAreAndWhatTheBinaryTells() throws {
        let help = try BinaryRun.run(["--help"]).stdout
        #expect(help.contains("\nmore help: idp-tui COMMAND --help (run's lists the answers' keys); ? or F1 in the terminal UI;\n"))
        #expect(help.contains("idp-tui scenario show prints the demo scenario, a file to start from"))
        #expect(help.contains("\nguides: docs/*.md in idp-tui's source tree (terminal.md, headless.md, scenarios.md …), not installed with the binary\n"))
        for (command, guide) in [("run", "headless.md"), ("compare", "migration.md"), ("history", "state-and-history.md"),
                                 ("reset", "state-and-history.md"), ("scenario", "scenarios.md")] {
            let own = try BinaryRun.run([command, "--help"])
            #expect(own.status == 0)
            #expect(own.stdout.hasSuffix("\nguide: docs/\(guide) in idp-tui's source tree (not installed with the binary)\n"), "\(own.stdout)")
            #expect(FileManager.default.fileExists(atPath: docsFolder.appendingPathComponent(guide).path), "no docs/\(guide)")
        }
        for arguments in [["--help"], ["run", "--help"], ["history", "--help"], ["scenario", "--help"]] {
            let lines = try BinaryRun.run(arguments).stdout.split(separator: "\n")
            #expect(lines.filter { $0.contains("docs/") && !$0.contains("source tree") }.isEmpty, "\(arguments): a docs/ file named as if installed")
            #expect(lines.contains { $0.contains("--scenario FILE") && $0.hasSuffix("(idp-tui scenario show prints it)") })
        }
        let run = try BinaryRun.run(["run", "--help"]).stdout
        for line in ["answers: JSON, one object per flow (an array of them for several flows; {} for logout), with the keys:",
                     "  username password (activate, login, q2-login, legacy-activate, legacy-login)", "  autoLogin (q2-login)",
                     "  cancel faults (every flow)", "  card expiry amount currency merchant otp resend choices approve delay challengeDelay (payer-auth)"] {
            #expect(run.contains("\n\(line)\n"), "no \(line)")
        }
        // Every flow that asks for something takes keys: a family registered in the catalog without its answer
        // decoding would take none, and its flows could only be cancelled.
        let lines = run.split(separator: "\n")
        let flows = try #require(lines.first { $0.hasPrefix("flows: ") }).dropFirst("flows: ".count).components(separatedBy: ", ")
        let keyLines = lines.drop { !$0.hasPrefix("answers: ") }.dropFirst().prefix { $0.hasPrefix("  ") && !$0.hasPrefix("  e.g.") }
        for flow in flows where flow != "logout" {
            #expect(keyLines.contains { $0.contains("(\(flow),") || $0.contains(" \(flow),") || $0.contains(" \(flow))") || $0.contains("(\(flow))") },
                    "\(flow) takes no answers key")
        }
    }
}

@Suite struct RunCommandBadInputTests {
    static let cases: [(arguments: [String], stdin: String, message: String)] = [
        (["run", "activat"], "{}", #"unknown flow "activat""#),
        (["run"], "", "name at least one flow"),
        (["run", "activate", "--frobnicate"], "{}", "unknown option --frobnicate"),
        (["run", "activate", "--seed", "minus-one"], "{}", "--seed takes a whole number"),
        // Digits alone: Swift's parsing took "+1" as 1 and "-0" as 0, where "-1" was refused.
        (["run", "activate", "--seed", "+1"], "{}", #"--seed takes a whole number from 0 to 18446744073709551615, not "+1""#),
        (["run", "activate", "--seed", "-0"], "{}", #"--seed takes a whole number from 0 to 18446744073709551615, not "-0""#),
        (["run", "activate", "--seed"], "{}", "--seed needs a value"),
        (["run", "activate", "--prompt-timeout", "0"], "{}", "--prompt-timeout takes a number of seconds"),
        // Decimal only: Double read "0x10" as 16 and "inf" as infinity.
        (["run", "activate", "--prompt-timeout", "0x10"], "{}", "--prompt-timeout takes seconds written with digits and at most one point (such as 300 or 0.5), not \"0x10\""),
        (["run", "activate", "--prompt-timeout", "1e3"], "{}", "--prompt-timeout takes seconds written with digits and at most one point (such as 300 or 0.5), not \"1e3\""),
        (["run", "activate", "--prompt-timeout", "1.2.3"], "{}", "--prompt-timeout takes seconds written with digits and at most one point"),
        (["run", "activate", "--prompt-timeout", "0.0001"], "{}", "--prompt-timeout takes a number of seconds from 0.001 to 86400"),
        (["run", "payer-auth"], #"{"card":"4000000000002503","expiry":"12/30","otp":"1234","resend":1.5}"#, "answers.resend must be a whole number, not a fraction"),
        (["run", "payer-auth"], #"{"card":"4000000000002503","expiry":"12/30","otp":"1234","resend":1e0}"#,
         "answers.resend must be written as a whole number, without a decimal point or an exponent (from 0 to 10)"),
        (["run", "activate", "--auth-mode", "face"], "{}", "--auth-mode takes no, biometric, password or pin"),
        (["run", "activate", "--answers", "/nonexistent/answers.json"], "", "the answers file /nonexistent/answers.json cannot be read (No such file or directory)"),
        (["run", "activate", "--certificate-chain", "/etc/hostname"], "{}", "certificate chain file /etc/hostname is unusable"),
        (["run", "activate"], "{\"username\": \"alice\",, }", "answers are not valid JSON: expected a key in double quotes at line 1, column 22"),
        (["run", "activate"], "", "answers: the input is empty"),
        (["run", "activate"], " \n\t", "answers: the input is empty"),
        (["run", "activate"], "\u{FEFF}\n", "answers: the input is empty"),
        (["run", "activate", "--state", ""], "{}", "--state needs a value, not an empty one"),
        (["run", "activate"], "42", "answers must be a JSON object"),
        (["run", "activate", "login"], Answers.aliceActivation, "one object for 2 flows"),
        (["run", "activate"], "[{},{}]", "2 objects for 1 flow"),
        (["run", "activate", "login"], "[{}, 7]", "answers[1] must be an object"),
        (["run", "activate"], #"{"pasword":"s3cr3t-typo"}"#, "answers has a key it does not know, before the value at line 1, column 12"),
        (["run", "activate"], #"{"wonderland-typed-as-a-key":"x"}"#, "known keys: username, password"),
        // A key close to a known one is answered with the known key's name (never the key given).
        (["run", "activate"], #"{"pasword":"s3cr3t-typo"}"#, #"column 12; did you mean "password"?; known keys: username"#),
        (["run", "activate"], #"{"activation_code":"1"}"#, #"did you mean "activation-code"?"#),
        (["run", "activate"], #"{"wonderland":"x"}"#, "column 15; known keys: username, password"),
        // Found by fuzzing (Fuzz/corpus/answers/unknown-fault-key.json): a key the faults object does not know was named.
        (["run", "activate"], #"{"faults":{"s3cr3t-typo":true}}"#, "answers.faults: has a key it does not know, before this value; known keys: networkUnavailable,"),
        (["run", "payer-auth"], #"{"card":"4000000000002503","expiry":"12/30","faults":{"bridge":{"s3cr3t-typo":1}}}"#,
         "answers.faults.bridge: has a key it does not know, before this value; known keys: loseAcks,"),
        (["run", "activate"], #"{"faults":{"addedLatencyMs":1e9}}"#, "answers.faults.addedLatencyMs: must be from 0 to 60000 (line 1, column 29)"),
        (["run", "activate"], #"{"username":"alice","username":"bob"}"#, "answers are not valid JSON: a key appears twice in one object (the second time here) at line 1, column 21"),
        (["run", "activate"], #"{"password":123456}"#, "answers.password must be a string (line 1, column 13)"),
        (["run", "activate"], #"{"cancel":"yes"}"#, "answers.cancel must be true or false"),
        (["run", "activate"], #"{"cancel":1}"#, "answers.cancel must be true or false"),
        (["run", "activate"], "{\"password\":\"" + String(repeating: "w", count: 300) + "\"}", "answers.password is longer than 256 bytes"),
        (["run", "activate"], #"{"password":"wonder\nland"}"#, "answers.password contains a control character"),
        // C1 controls too (U+0085 NEL, U+009B CSI), as a scenario's strings refuse them: a terminal acts on them.
        (["run", "activate"], #"{"username":"al\u0085ice","password":"wonderland","activation-code":"123456"}"#, "answers.username contains a control character (line 1, column 13)"),
        (["run", "payer-auth"], #"{"card":"4000000000002701","expiry":"12/30","merchant":"Shop\u009b2J"}"#, "answers.merchant contains a control character"),
        // Secrets too, C1 included, as a scenario's secrets refuse them (below).
        (["run", "activate"], #"{"username":"alice","password":"wonder\u007fland"}"#, "answers.password contains a control character (line 1, column 32)"),
        (["run", "activate"], #"{"username":"alice","password":"wonder\u0085land"}"#, "answers.password contains a control character (line 1, column 32)"),
        (["run", "payer-auth"], #"{"card":"4000000000002503","expiry":"12/30","otp":["12\u009b3"]}"#, "answers.otp[0] must be a code of 1 to 16 bytes, without control characters"),
        (["run", "activate"], #"{"username":"alice","password":"wonderland"}"#, #"has no "activation-code""#),
        (["frobnicate"], "", #"unknown command or option "frobnicate"; see idp-tui --help"#),
        // A command misspelt is named (flows and keys were; commands were not).
        (["histroy"], "", #"unknown command or option "histroy"; did you mean "history"?"#),
        // `history list` is the list, which is the command alone.
        (["history", "list", "--state", "/nonexistent/s.sqlite"], "", "history: the list is idp-tui history itself, with no verb"),
    ]

    @Test(arguments: 0..<cases.count)
    func badInputIsOneLineOnStderrAndExitTwo(_ index: Int) throws {
        let (arguments, stdin, message) = Self.cases[index]
        let run = try BinaryRun.run(arguments, stdin: stdin)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix("idp-tui: "))
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        for secret in Answers.secrets { #expect(!run.stderr.contains(secret)) }
    }

    /// A secret no front end can give (C1: the terminal's fields drop it, plain mode and the answers refuse it) is
    /// refused in the scenario, where `scenario check` finds it: the scenario took it and the answers did not, so
    /// the user could never sign in.
    @Test func aScenarioSecretWithAC1CharacterIsRefused() throws {
        let scenario = try temporaryFile(#"{"scenario": 1, "identityProvider": {"tenants": [{"id": "demo", "users": [{"username": "carol", "password": "Pw\u0085CarolX"}]}]}}"#)
        let check = try BinaryRun.run(["scenario", "check", scenario])
        #expect(check.status == 2)
        #expect(check.stdout.contains("$.identityProvider.tenants[0].users[0].password: must be at most 256 bytes, without control characters"), "\(check.stdout)")
        #expect(!check.stdout.contains("CarolX"))
        let run = try BinaryRun.run(["run", "q2-login", "--ephemeral", "--scenario", scenario], stdin: #"{"username": "carol", "password": "x"}"#)
        #expect(run.status == 2 && run.stderr.contains("without control characters"), "\(run.stderr)")
    }

    @Test func oversizedAnswersAreRefused() throws {
        let run = try BinaryRun.run(["run", "activate"], stdin: String(repeating: " ", count: (1 << 20) + 10))
        #expect(run.status == 2)
        #expect(run.stderr.contains("run: standard input (the answers) is larger than 1 MiB"))
    }
}

@Suite struct TerminalCommandLineTests {
    @Test func aBadThemeFileNamesTheFileLineAndColumnAndExitsTwo() throws {
        let file = URL(fileURLWithPath: scratchPath("bad", ".theme"))
        try "# mine\ntitle = bold\nfield.focussed = reverse\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try BinaryRun.run(["--theme", file.path])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("idp-tui: theme \(file.path):3:1: unknown key; did you mean \"field.focused\"?; keys: "))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func anUnknownThemeNameIsAnError() throws {
        let run = try BinaryRun.run(["--theme", "solarized"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("neither a built-in theme (default, high-contrast, monochrome) nor a readable file"))
    }

    @Test func withoutATerminalTheUISpeaksPlainLines() throws {
        let run = try BinaryRun.run([], stdin: "q\n")
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("idp-tui (plain)"))
    }

    @Test func runOnlyOptionsAreRefusedForTheUI() throws {
        let answers = try BinaryRun.run(["--answers", "x.json"])
        #expect(answers.status == 2)
        #expect(answers.stderr.contains("unknown option --answers"))
        let flow = try BinaryRun.run(["activate"])
        #expect(flow.status == 2)
        #expect(flow.stderr.contains("unknown command or option \"activate\""))
    }
}

@Suite struct RunCommandSecretTests {
    /// Everything a full set of runs prints, successes, failures, cancels and usage errors alike.
    @Test func noSecretReachesStdoutOrStderr() throws {
        let runs = try [
            BinaryRun.run(["run", "activate", "logout", "login"], stdin: "[\(Answers.aliceActivation),{},\(Answers.alice)]"),
            BinaryRun.run(["run", "activate", "login", "login"], stdin: "[\(Answers.aliceActivation),"
                          + #"{"username":"bob","password":"builder"},{"username":"alice","password":"654321"}]"#),
            BinaryRun.run(["run", "activate"], stdin: #"{"username":"bob","password":"builder","activation-code":"654321"}"#),
            BinaryRun.run(["run", "activate"], stdin: #"{"username":"bob","password":"builder","cancel":true}"#),
            BinaryRun.run(["run", "activate", "--hash-pin"], stdin: Answers.aliceActivation),
            BinaryRun.run(["run", "activate"], stdin: #"{"username":"alice","password":"wonderland"}"#),
            BinaryRun.run(["run", "activate"], stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456","pin":"s3cr3t-typo"}"#),
        ]
        #expect(runs.map(\.status) == [0, 1, 0, 3, 1, 2, 2])
        for run in runs {
            for secret in Answers.secrets {
                #expect(!run.stdout.contains(secret), "\(secret) on stdout")
                #expect(!run.stderr.contains(secret), "\(secret) on stderr")
            }
        }
    }
}
