import Foundation
import Testing

@Suite struct HistoryCommandTests {
    /// A state file with an activation, a failed login, a logout and a payment in it.
    func populated() throws -> String {
        let state = freshStatePath()
        _ = try BinaryRun.run(["run", "activate", "login", "logout", "--state", state],
                              stdin: "[\(Answers.aliceActivation),{\"username\":\"alice\",\"password\":\"s3cr3t-typo\"},{}]")
        _ = try BinaryRun.run(["run", "payer-auth", "--state", state], stdin: #"{"card":"4000000000002503","expiry":"12/30","otp":["9876","1234"]}"#)
        return state
    }

    /// A result line names the flow's history id, which `history show` takes: `flowId` counts this process's
    /// flows only (both payments below are its flow 1).
    @Test func aResultNamesItsHistoryID() throws {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        let payment = try BinaryRun.run(["run", "payer-auth", "--state", state], stdin: #"{"card":"4000000000002701","expiry":"12/30"}"#)
        let result = try #require(payment.lines.last { $0["type"] as? String == "result" })
        #expect(result["flowId"] as? Int == 1)
        let id = try #require(result["historyId"] as? Int)
        #expect(id == 2)
        let show = try BinaryRun.run(["history", "show", String(id), "--state", state])
        #expect(show.stdout.hasPrefix("flow 2: payer-auth"), "\(show.stdout)")
    }

    /// A JSON export's events are `run`'s, field for field but the line's type and the flow's id and kind (the
    /// record's own): `mainThread` was left out, and a diff of the two failed on every line.
    @Test func aJSONExportsEventsAreRunsEvents() throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "payer-auth", "--state", state], stdin: #"{"card":"4000000000002701","expiry":"12/30"}"#)
        #expect(run.status == 0)
        let export = try BinaryRun.run(["history", "export", "1", "--format", "json", "--state", state])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let exported = try #require(document["events"] as? [[String: Any]])
        #expect(exported.count == run.events.count && !exported.isEmpty)
        for (mine, printed) in zip(exported, run.events) {
            let printedKeys = Set(printed.keys).subtracting(["type", "flowId", "flow"])
            #expect(Set(mine.keys) == printedKeys, "\(mine.keys.sorted()) against \(printedKeys.sorted())")
            #expect(mine["mainThread"] as? Bool == printed["mainThread"] as? Bool)
        }
        #expect(exported.contains { $0["mainThread"] as? Bool == true }, "a payment's delegate callbacks are on main")
    }

    /// `history show` says what the result said: the error (an abort for bad input names what was missing) and the
    /// next step, under the header (docs/headless.md: the history records "aborted for bad input: …").
    @Test func aTranscriptShowsTheErrorAndTheNextStep() throws {
        let state = freshStatePath()
        _ = try BinaryRun.run(["run", "activate", "--state", state], stdin: #"{"username":"alice","password":"nope","activation-code":"1"}"#)
        _ = try BinaryRun.run(["run", "activate", "--state", state], stdin: #"{"username":"alice"}"#)
        let wrong = try BinaryRun.run(["history", "show", "1", "--state", state]).stdout.split(separator: "\n").map(String.init)
        #expect(wrong.count > 3 && wrong[1].hasPrefix("error 513/4011: wrong username or password"), "\(wrong.prefix(3))")
        #expect(wrong.count > 3 && wrong[2].hasPrefix("next: Check the user name and password"), "\(wrong.prefix(3))")
        #expect(!wrong.joined().contains("nope"))
        // An error with a code and no subsystem (Q2's hydra code) keeps its code, as the result screen does.
        _ = try BinaryRun.run(["run", "q2-login", "--state", state], stdin: #"{"username":"alice","password":"nope"}"#)
        let q2 = try BinaryRun.run(["history", "show", "3", "--state", state]).stdout.split(separator: "\n").map(String.init)
        #expect(q2.count > 1 && q2[1].hasPrefix("error 1001: "), "\(q2.prefix(3))")
        // A cancelled flow's text is labelled as what it is, a cancel (it read "error …: aborted", "error: cancelled").
        let aborted = try BinaryRun.run(["history", "show", "2", "--state", state]).stdout
        #expect(aborted.contains("\nerror 1000/1: aborted for bad input: answers (activate) has no \"password\", which the identity provider asks for on page 1 of 2"), "\(aborted.prefix(400))")
        _ = try BinaryRun.run(["run", "q2-login", "--state", state], stdin: #"{"cancel":true}"#)
        let cancelled = try BinaryRun.run(["history", "show", "4", "--state", state]).stdout.split(separator: "\n").map(String.init)
        #expect(cancelled.count > 1 && cancelled[1] == "cancel: cancelled at the sign-in screen; no credential was sent", "\(cancelled.prefix(3))")
    }

    /// The columns line up as a terminal shows them: a user name of wide characters (two columns each) or with a
    /// combining accent, and, under the C locale, "—" spelled "--" (each row went askew by what it held).
    @Test func theTableLinesUpWhateverTheNamesAndTheLocale() throws {
        let state = freshStatePath()
        for name in ["日本語ユーザー", "e\u{301}mile", "José"] {
            _ = try BinaryRun.run(["run", "q2-login", "--state", state], stdin: #"{"username":""# + name + #"","password":"nope"}"#)
        }
        _ = try BinaryRun.run(["run", "payer-auth", "--state", state], stdin: #"{"card":"4000000000002701","expiry":"12/30"}"#)
        /// Columns a terminal gives `text`: two for the CJK and full-width ranges, none for a combining mark.
        func columns(_ text: Substring) -> Int {
            text.unicodeScalars.reduce(0) { sum, scalar in
                switch scalar.value {
                case 0x300...0x36F: sum
                case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60: sum + 2
                default: sum + 1
                }
            }
        }
        for environment in [[:], ["LC_ALL": "C"]] {
            let table = try BinaryRun.run(["history", "--state", state], environment: environment).stdout
            let lines = table.split(separator: "\n")
            #expect(lines.count == 5, "\(table)")
            // Where OUTCOME's column starts, in terminal columns, on every line.
            let starts = Set(lines.compactMap { line -> Int? in
                guard let found = line.range(of: #"(OUTCOME|success|failure)"#, options: .regularExpression) else { return nil }
                return columns(line[..<found.lowerBound])
            })
            #expect(starts.count == 1, "\(environment): \(table)")
        }
    }

    @Test func aQ2LoginIsListedWithItsUser() throws {
        let state = freshStatePath()
        _ = try BinaryRun.run(["run", "q2-login", "--state", state], stdin: #"{"username":"alice","password":"wonderland"}"#)
        let table = try BinaryRun.run(["history", "--state", state])
        let line = try #require(table.stdout.split(separator: "\n").first { $0.contains("q2-login") })
        #expect(line.contains(" alice "), "\(line)")
    }

    @Test func theListIsNewestFirstAsATableOrJSONLines() throws {
        let state = try populated()
        let table = try BinaryRun.run(["history", "--state", state])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ID  TIME") == true)
        #expect(lines.count == 5)
        #expect(lines[1].contains("payer-auth") && lines[1].contains("AUTHENTICATED"))
        #expect(lines[3].contains("login") && lines[3].contains("failure") && lines[3].contains("WRONG_CREDENTIALS"))
        let json = try BinaryRun.run(["history", "--json", "--limit", "2", "--state", state])
        let objects = json.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == 2)
        #expect(objects.map { $0["flow"] as? String } == ["payer-auth", "logout"])
        #expect(objects.first?["id"] as? Int == 4)
        #expect(objects.allSatisfy { $0["time"] is String && $0["duration"] is Int && $0["outcome"] is String })
    }

    /// A login that fails as another user than the device's is listed under the user who signed in: the history
    /// said bob (the device's user) for alice's failed login, and a QA reader concluded bob was locked.
    @Test func aFailedLoginIsListedUnderTheUserWhoSignedIn() throws {
        let state = freshStatePath()
        let answers = #"[{"username":"bob","password":"builder","activation-code":"654321"},{"username":"alice","password":"nope"}]"#
        let run = try BinaryRun.run(["run", "activate", "login", "--state", state], stdin: answers)
        #expect(run.results.map { $0["outcome"] as? String } == ["success", "failure"], "\(run.stdout)")
        let json = try BinaryRun.run(["history", "--json", "--state", state])
        let users = json.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["user"] as? String
        }
        #expect(users == ["alice", "bob"], "\(json.stdout)")
    }

    /// The KSSIDP flows too: a legacy activation with a wrong password was listed with no user ("—"), where the
    /// IdpSdk's names the user who signed in.
    @Test func aFailedLegacyFlowIsListedUnderTheUserWhoSignedIn() throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "legacy-activate", "--state", state],
                                    stdin: #"{"username":"bob","password":"nope","activation-code":"654321"}"#)
        #expect(run.results.first?["outcome"] as? String == "failure", "\(run.stdout)")
        let json = try BinaryRun.run(["history", "--json", "--state", state])
        let users = json.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["user"] as? String
        }
        #expect(users == ["bob"], "\(json.stdout)")
    }

    @Test func exportAsMermaidHasTheParticipantsAndEveryMessage() throws {
        let state = try populated()
        let login = try BinaryRun.run(["history", "export", "1", "--format", "mermaid", "--state", state])
        #expect(login.status == 0)
        let lines = login.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "sequenceDiagram")
        #expect(lines.contains("    participant App as App"))
        #expect(lines.contains("    participant IdpSdk as IdpSdk"))
        #expect(lines.contains("    participant MCSDK as MC-SDK"))
        #expect(lines.contains("    participant IdP as IdP"))
        #expect(lines.contains { $0.hasPrefix("    App->>MCSDK: Start") })
        #expect(lines.contains { $0.hasPrefix("    IdpSdk->>App: provideCredentials") })
        #expect(lines.contains { $0.hasPrefix("    MCSDK->>IdP: POST /token") })
        #expect(lines.contains { $0.hasPrefix("    IdP-->>MCSDK: POST /token · 200") })
        #expect(!login.stdout.contains(";") || login.stdout.contains("#59;"))

        let payment = try BinaryRun.run(["history", "export", "4", "--format=mermaid", "--state", state])
        for participant in ["App as App", "SafepayDrops as SafepayDrops", "Drops as Drops", "DS as DS", "ACS as ACS"] {
            #expect(payment.stdout.contains("    participant \(participant)"))
        }
        #expect(payment.stdout.contains("    Drops->>ACS: CReq"))
        #expect(payment.stdout.contains("    ACS->>DS: RReq · Y"))
        #expect(payment.stdout.contains("    ACS-->>Drops: CRes"))
        #expect(payment.stdout.contains("    SafepayDrops-->>App: onPayerAuthenticationSuccess · Y"))
        // A long message is whole, in lines broken at spaces (the 3DS Method's collection URL and the activation's
        // trace parent were cut with "…", under a comment saying so).
        #expect(payment.stdout.contains("    Drops->>ACS: 3DS Method · device data collection to<br/>https://centinelapistag.cardinalcommerce.com/V1/Cruise/Collect#59;<br/>threeDSCompInd Y"),
                "\(payment.stdout)")
        #expect(!payment.stdout.contains("%%") && !login.stdout.contains("%%"), "no comment: nothing is cut")
    }

    /// `<` and `>` in a message are Mermaid's HTML: a merchant named `<br>Shop` broke its line in the diagram.
    @Test func exportAsMermaidWritesAnglesAsEntityCodes() throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "payer-auth", "--state", state],
                                    stdin: #"{"card":"4000000000002701","expiry":"12/30","merchant":"<br>Shop; #1 %%{init}%%"}"#)
        #expect(run.status == 0, "\(run.stderr)")
        let export = try BinaryRun.run(["history", "export", "1", "--format", "mermaid", "--state", state])
        #expect(export.stdout.contains("#60;br#62;Shop#59; #35;1"), "\(export.stdout)")
        // `%%{…}%%` anywhere in the text is a Mermaid directive: written as entity codes, it is text.
        #expect(export.stdout.contains("#37;#37;{init}#37;#37;") && !export.stdout.contains("%%{"), "\(export.stdout)")
        // Mermaid's own line breaks aside: those the export puts between a long message's lines.
        let messages = export.stdout.replacingOccurrences(of: "<br/>", with: " ").split(separator: "\n")
            .compactMap { line in line.firstRange(of: ": ").map { line[$0.upperBound...] } }
        #expect(!messages.contains { $0.contains("<") || $0.contains(">") }, "\(export.stdout)")
    }

    @Test func exportAsJSONHoldsTheResultAndTheEvents() throws {
        let state = try populated()
        let run = try BinaryRun.run(["history", "export", "2", "--format", "json", "--state", state])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["flow"] as? String == "login")
        #expect((object["result"] as? [String: Any])?["status"] as? String == "WRONG_CREDENTIALS")
        let events = try #require(object["events"] as? [[String: Any]])
        #expect(events.first?["step"] as? String == "Start")
        #expect(events.map { $0["sequence"] as? Int } == Array(1...events.count).map { $0 })
    }

    @Test func noHistoryOutputHoldsASecret() throws {
        let state = try populated()
        var outputs = [try BinaryRun.run(["history", "--state", state]), try BinaryRun.run(["history", "--json", "--state", state])]
        for id in 1...4 {
            for arguments in [["show", "\(id)"], ["export", "\(id)", "--format", "json"], ["export", "\(id)", "--format", "mermaid"]] {
                outputs.append(try BinaryRun.run(["history"] + arguments + ["--state", state]))
            }
        }
        #expect(outputs.allSatisfy { $0.status == 0 })
        for output in outputs {
            for secret in Answers.secrets + ["9876", "1234\"", "4000000000002503"] {
                #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret), "\(secret)")
            }
        }
    }

    @Test(arguments: [
        (["history", "export", "1"], "history export: choose --format mermaid or --format json"),
        (["history", "export", "1", "--format", "svg"], #"--format takes mermaid or json, not "svg""#),
        // Every error of a verb starts with it, as the parser's do (these started "history: ").
        (["history", "export", "99", "--format", "json"], "idp-tui: history export: there is no flow 99 in"),
        (["history", "show", "99"], "idp-tui: history show: there is no flow 99 in"),
        // Ids are never given twice: one above the last given is not there yet.
        (["history", "show", "99"], ": the newest is "),
        // A whole number from 1, as the message asked; too large for any id (it was told to be a whole number).
        (["history", "show", "99999999999999999999999"], "history show: the id given is larger than any flow's"),
        (["history", "show"], "history show: give the id of a flow"),
        // It said "give the id of a flow", as if none had been given.
        (["history", "show", "x"], "history show: the id given is not a flow's id, a whole number from 1"),
        (["history", "export", "1.5", "--format", "json"], "history export: the id given is not a flow's id"),
        // A negative id was taken for an option ("unknown option -1").
        (["history", "show", "-1"], "history show: the id given is not a flow's id, a whole number from 1"),
        (["history", "--limit", "0"], "--limit takes a whole number"),
        (["history", "--frob"], "history: unknown option --frob"),
        (["history", "show", "1", "--format", "json"], "history show: --format is for history export"),
        // Accepted and ignored, --format gave the list as a text table to a script that asked for JSON.
        (["history", "--format", "json"], "history: --format is for history export (idp-tui history export ID --format mermaid|json); the list as JSON: idp-tui history --json"),
        (["history", "--format=mermaid"], "history: --format is for history export"),
        (["history", "prune", "--format", "json"], "history prune: --format is for history export"),
        (["reset", "now"], #"reset: unknown argument "now""#),
    ])
    func badHistoryCommandsExitTwo(arguments: [String], message: String) throws {
        let state = try populated()
        let run = try BinaryRun.run(arguments + ["--state", state])
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test func ephemeralHistoryIsRefusedNamingTheVerb() throws {
        for (arguments, prefix) in [(["history", "prune"], "idp-tui: history prune: "), (["history", "show", "1"], "idp-tui: history show: "),
                                    (["history"], "idp-tui: history: ")] {
            let run = try BinaryRun.run(arguments + ["--ephemeral"])
            #expect(run.status == 2)
            #expect(run.stderr.hasPrefix(prefix + "--ephemeral keeps nothing between runs"), "\(run.stderr)")
        }
    }

    /// A path named with --state that is not there is more likely mistyped: the error says to check it, not to
    /// name the file with --state, which the user did.
    @Test func historyOfAFileThatDoesNotExistSaysSo() throws {
        let run = try BinaryRun.run(["history", "--state", freshStatePath()])
        #expect(run.status == 2)
        #expect(run.stderr.contains("does not exist; check the path given with --state"), "\(run.stderr)")
        #expect(!run.stderr.contains("name the file with --state"))
    }

    /// A flow the history's policy removed is said to be no longer kept, and the policy named.
    @Test func aPrunedFlowIsSaidToBeNoLongerKept() throws {
        let state = try populated()
        let prune = try BinaryRun.run(["history", "prune", "--keep-flows", "1", "--state", state])
        #expect(prune.status == 0, "\(prune.stderr)")
        let run = try BinaryRun.run(["history", "show", "1", "--state", state])
        #expect(run.status == 2)
        #expect(run.stderr.contains("history show: flow 1 is no longer in \(state): removed by a reset or by the history's policy, which keeps the newest 1 flow (idp-tui history prune sets it)"),
                "\(run.stderr)")
        // After a reset, none is: an id past the last given says the file holds none, and one given says a reset
        // removed it (the policy, which keeps 1 flow, cannot have: the file holds none).
        #expect(try BinaryRun.run(["reset", "--yes", "--state", state]).status == 0)
        let after = try BinaryRun.run(["history", "show", "99", "--state", state])
        #expect(after.stderr.contains("there is no flow 99 in \(state): it holds none"), "\(after.stderr)")
        let reset = try BinaryRun.run(["history", "show", "2", "--state", state])
        #expect(reset.stderr.contains("history show: flow 2 is no longer in \(state): a reset removed it"), "\(reset.stderr)")
    }

    @Test func aNewUsersHistoryIsEmptyNotAnError() throws {
        // The default file (BinaryRun gives each run a fresh XDG_STATE_HOME) does not exist before the first flow.
        let folder = scratchPath("idp-tui-new")
        let text = try BinaryRun.run(["history"], environment: ["XDG_STATE_HOME": folder])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "no flows yet\n")
        let json = try BinaryRun.run(["history", "--json"], environment: ["XDG_STATE_HOME": folder])
        #expect(json.status == 0 && json.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder), "listing made no file")
    }

    @Test func aNewUserHasNothingToPruneAndAPolicyGivenIsKept() throws {
        let folder = scratchPath("idp-tui-new")
        let environment = ["XDG_STATE_HOME": folder]
        let state = folder + "/idp-tui/state.sqlite"
        let prune = try BinaryRun.run(["history", "prune"], environment: environment)
        #expect(prune.status == 0, "\(prune.stderr)")
        #expect(prune.stdout == "no flows yet: nothing to prune (\(state) does not exist yet)\n")
        #expect(prune.stderr.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder), "pruning nothing made no file")

        // A policy is a setting: it is kept (in a new file), and the runs that follow keep to it.
        let set = try BinaryRun.run(["history", "prune", "--keep-flows", "2"], environment: environment)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "\(state): a new state file, to keep the newest 2 flows from now on; no flows yet\n")
        #expect(try BinaryRun.run(["run", "logout", "logout", "logout"], stdin: "[{},{},{}]", environment: environment).status == 0)
        let history = try BinaryRun.run(["history", "--json"], environment: environment)
        #expect(history.lines.compactMap { $0["id"] as? Int } == [3, 2], "\(history.stdout)")
    }

    @Test(arguments: [["history", "prune"], ["history", "prune", "--keep-days", "30"]])
    func pruningAStateFileThatDoesNotExistIsAnError(arguments: [String]) throws {
        // A --state that names no file is more likely a typo than a new user: nothing is made.
        let state = freshStatePath()
        let run = try BinaryRun.run(arguments + ["--state", state])
        #expect(run.status == 2)
        #expect(run.stderr == "idp-tui: history prune: \(state) does not exist; check the path given with --state (idp-tui run makes the file at its first flow)\n")
        #expect(!FileManager.default.fileExists(atPath: state))
    }
}

@Suite struct AnswerFaultsAndOfflineTests {
    @Test func faultsInAnAnswerHoldForThatFlowOnly() throws {
        let answers = "[{\"username\":\"alice\",\"password\":\"wonderland\",\"activation-code\":\"123456\",\"faults\":{\"serverError\":true}},\(Answers.aliceActivation)]"
        let run = try BinaryRun.run(["run", "activate", "activate", "--ephemeral"], stdin: answers)
        #expect(run.results.map { $0["status"] as? String } == ["FAILED", "OK"])
        #expect(run.events.contains { $0["step"] as? String == "fault injected" && ($0["detail"] as? String)?.hasPrefix("server error") == true })
    }

    @Test func aScenarioFaultIsOnForEveryFlow() throws {
        let run = try BinaryRun.run(["run", "activate", "--scenario", scenarioPath("faults"), "--ephemeral"], stdin: Answers.aliceActivation)
        #expect(run.results.first?["status"] as? String == "FAILED")
        #expect((run.results.first?["error"] as? [String: Any])?["code"] as? Int == 5000)
        #expect(run.events.first?["step"] as? String == "faults on")
        #expect(run.events.first?["detail"] as? String == "added latency +800 ms, server error")
    }

    /// An answer's faults are set over the scenario's for that flow: `false` (or 0) switches one off, and the
    /// next flow has the scenario's again. `false` used to be accepted and ignored (the two were OR-ed).
    @Test func anAnswerSwitchesAScenarioFaultOffForItsFlow() throws {
        let answers = #"[{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"serverError":false,"addedLatencyMs":0}},{"username":"alice","password":"wonderland"}]"#
        let run = try BinaryRun.run(["run", "activate", "login", "--scenario", scenarioPath("faults"), "--ephemeral"], stdin: answers)
        #expect(run.results.map { $0["status"] as? String } == ["OK", "FAILED"], "\(run.stderr)")
        let faultsOn = run.events.filter { $0["step"] as? String == "faults on" }.map { $0["detail"] as? String }
        #expect(faultsOn == ["added latency +800 ms, server error"], "only the login has the scenario's faults: \(faultsOn)")
    }

    @Test func afterALogoutTheNextRunLogsInOffline() throws {
        let state = freshStatePath()
        _ = try BinaryRun.run(["run", "activate", "logout", "--state", state, "--auth-mode", "biometric"], stdin: "[\(Answers.aliceActivation),{}]")
        // No credentials in the answers: the offline login needs none.
        let login = try BinaryRun.run(["run", "login", "--state", state, "--auth-mode", "biometric"], stdin: "{}")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.results.first?["offline"] as? Bool == true)
        #expect(!login.events.contains { $0["step"] as? String == "provideCredentials" })
    }

    @Test func badFaultsInAnswersAreUsageErrors() throws {
        let run = try BinaryRun.run(["run", "activate", "--ephemeral"], stdin: #"{"faults":{"addedLatencyMs":-5}}"#)
        #expect(run.status == 2)
        #expect(run.stderr.contains("answers.faults.addedLatencyMs: must be from 0 to 60000"))
    }
}
