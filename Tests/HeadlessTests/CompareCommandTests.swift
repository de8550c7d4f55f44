import Foundation
import Testing

@Suite struct CompareCommandTests {
    @Test func theGuidesOrchestrationAgreesWithKSSIDP() throws {
        let run = try BinaryRun.run(["compare"])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("✓ 1. activation, then login"))
        #expect(run.stdout.contains("✓ 4. a cancel at the credentials"))
        #expect(run.stdout.contains("The two orchestrations agree in every case"))
    }

    /// A scenario of its own users is checked as its first user with an activation code (carol in bank-qa), so
    /// that its cases activate and log in; one with none to activate is bad input, not an agreement on nothing.
    @Test func aScenarioIsCheckedAsItsOwnUser() throws {
        let bank = try BinaryRun.run(["compare", "--json", "--scenario", docsFolder.appendingPathComponent("scenarios/bank-qa.json").path])
        #expect(bank.status == 0, "\(bank.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(bank.stdout.utf8)) as? [String: Any])
        let steps = try #require((report["cases"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])
        let login = try #require(steps.last?["new"] as? [String: Any])
        #expect(login["outcome"] as? String == "success", "\(login)")
        #expect((login["deviceAfter"] as? String)?.contains("carol") == true, "\(login)")
        // Each side's sequence, where the app is asked for credentials among the events and requests.
        #expect((login["sequence"] as? [String])?.contains("provideCredentials") == true, "\(login)")
        // Carol's password and code, and the wrong ones made from them, appear nowhere.
        let text = try BinaryRun.run(["compare", "--scenario", docsFolder.appendingPathComponent("scenarios/bank-qa.json").path])
        for secret in ["correct horse", "correct hors1", "900100", "900101"] {
            #expect(!(bank.stdout + bank.stderr + text.stdout + text.stderr).contains(secret), "\(secret)")
        }

        let file = scratchPath("no-codes", ".json")
        try #"{"scenario":1,"name":"no-codes","identityProvider":{"tenants":[{"id":"demo","users":[{"username":"zed","password":"pw-zed-123"}]}]}}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        for json in [[], ["--json"]] {
            let none = try BinaryRun.run(["compare", "--scenario", file] + json)
            #expect(none.status == 2)
            #expect(none.stdout.isEmpty)
            #expect(none.stderr == "idp-tui: compare: the scenario's app tenant \"demo\" has no user with an activation code that is still valid, so no case could activate a device\n")
            
        }
    }

    @Test func aDeliberatelyDifferentOrchestrationFailsTheCheck() throws {
        let run = try BinaryRun.run(["compare", "--variant", "enrollment-client-for-login"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("✗ differs: idp-tui status: INVALID_STATE ≠ OK"))
        #expect(run.stdout.contains("differences found."))
    }

    /// The migration guide's code as written sends SetAuthorisationCode with the empty code its getAuthorizationCode
    /// returns when the IdpSdk gives none: the MC-SDK refuses it, and each failure and the cancel read differently
    /// from KSSIDP's. The default orchestration, whose heading says so, guards that step.
    @Test func theGuidesCodeAsWrittenDiffersOnEveryFailure() throws {
        let run = try BinaryRun.run(["compare", "--variant", "guide-as-written"])
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stdout.contains("✓ 1. activation, then login"), "\(run.stdout)")
        for failing in ["✗ 2. a wrong password", "✗ 3. a wrong activation code", "✗ 4. a cancel at the credentials", "✗ 5. login before activation"] {
            #expect(run.stdout.contains(failing), "\(failing)")
        }
        #expect(run.stdout.contains("✗ differs: idp-tui status: FAILED ≠ WRONG_CREDENTIALS"), "\(run.stdout)")
        #expect(run.stdout.contains("✗ differs: SetAuthorisationCode: FAILED ≠ not sent"), "\(run.stdout)")
        #expect(run.stdout.contains("the authorisation code is empty"), "\(run.stdout)")
        let guarded = try BinaryRun.run(["compare"])
        let heading = guarded.stdout.split(separator: "\n\n").first.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(heading == "Migration parity: IdpSdk orchestration (guide: the guide's steps, SetAuthorisationCode sent only with a code) against the KSSIDP wrapper",
                "\(guarded.stdout)")
    }

    /// A scenario with faults on is checked all the same, and the check says so: two failures the faults made agree,
    /// and read as a ✓.
    @Test func aScenarioWithFaultsIsSaid() throws {
        let path = docsFolder.appendingPathComponent("scenarios/faults.json").path
        let caveat = "the scenario switches faults on (added latency +800 ms, server error): they reach the two orchestrations at different steps, so a case may agree or differ because of them, not the migration"
        // In the report itself (a report kept in a file says it), and on stderr beside JSON.
        let faults = try BinaryRun.run(["compare", "--scenario", path])
        #expect(faults.stderr.isEmpty, "\(faults.stderr)")
        let text = faults.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.hasSuffix("Note: " + caveat + "."), "\(faults.stdout)")
        let json = try BinaryRun.run(["compare", "--json", "--scenario", path])
        #expect(json.stderr == "idp-tui: compare: \(caveat)\n")
        let clean = try BinaryRun.run(["compare", "--scenario", docsFolder.appendingPathComponent("scenarios/bank-qa.json").path])
        #expect(clean.stderr.isEmpty, "\(clean.stderr)")
    }

    @Test func jsonHasBothSidesOfEveryStep() throws {
        let run = try BinaryRun.run(["compare", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let cases = try #require(report["cases"] as? [[String: Any]])
        #expect(cases.count == 5)
        let step = try #require((cases[0]["steps"] as? [[String: Any]])?.first)
        #expect((step["new"] as? [String: Any])?["flow"] as? String == "activate")
        #expect((step["legacy"] as? [String: Any])?["flow"] as? String == "legacy-activate")
        #expect((step["differences"] as? [Any])?.isEmpty == true)
        #expect(report["agrees"] as? Bool == true && report["differenceCount"] as? Int == 0)
        #expect(cases.allSatisfy { $0["agrees"] as? Bool == true })
    }

    /// A script reads the verdict at the top, as the exit status gives it, without walking every step.
    @Test func jsonCarriesTheVerdictOfADifferingOrchestration() throws {
        let run = try BinaryRun.run(["compare", "--json", "--variant", "enrollment-client-for-login"])
        #expect(run.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["agrees"] as? Bool == false)
        let count = try #require(report["differenceCount"] as? Int)
        let cases = try #require(report["cases"] as? [[String: Any]])
        let listed = cases.flatMap { ($0["steps"] as? [[String: Any]]) ?? [] }.reduce(0) { $0 + (($1["differences"] as? [Any])?.count ?? 0) }
        #expect(count > 0 && count == listed)
        #expect(cases.contains { $0["agrees"] as? Bool == false })
    }

    @Test func legacyFlowsRunHeadless() throws {
        let run = try BinaryRun.run(["run", "legacy-activate", "legacy-login", "--ephemeral"], stdin: "[\(Answers.aliceActivation),\(Answers.alice)]")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.results.map { $0["flow"] as? String } == ["legacy-activate", "legacy-login"])
        #expect(run.events.contains { $0["from"] as? String == "KSSIDP" && $0["step"] as? String == "SetAuthorisationCode" })
        for secret in Answers.secrets { #expect(!run.stdout.contains(secret)) }
        let wrong = try BinaryRun.run(["run", "legacy-activate", "--ephemeral"], stdin: #"{"username":"alice","password":"nope","activation-code":"123456"}"#)
        #expect(wrong.status == 1 && wrong.results.first?["status"] as? String == "WRONG_CREDENTIALS")
    }

    @Test func badCompareArgumentsExitTwo() throws {
        let run = try BinaryRun.run(["compare", "--variant", "sloppy"])
        #expect(run.status == 2 && run.stderr.contains("--variant takes guide or guide-as-written or enrollment-client-for-login"))
    }
}
