import Foundation
import Testing

/// A run of flows that never prompt (`logout`) reads and checks its answers as any run does: bad ones exit 2, and
/// a fault given that can reach it is switched on. Only nothing at all (empty input, or a terminal) stands for `{}`. A pipe on
/// standard input is read only with `--answers`: one its caller holds open must not make a logout wait.
@Suite struct LogoutAnswersTests {
    @Test(arguments: [
        ("garbage", "answers are not valid JSON"),
        (#"{"QQQ":1}"#, "answers has a key it does not know, before the value at line 1, column 8"),
        (#"{"username":"alice"}"#, #"answers (logout) has "username""#),
        ("[{},{}]", "answers: 2 objects for 1 flow"),
    ])
    func badAnswersForALogoutAloneExitTwo(_ stdin: String, _ message: String) throws {
        let run = try BinaryRun.run(["run", "logout", "--ephemeral", "--answers", "-"], stdin: stdin)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.results.isEmpty, "nothing ran")
    }

    /// A device that is not activated has no astClientId: a result left the MC-SDK's all-zero placeholder in it,
    /// which a script checking `.astClientId` took for an activated device. An activated one has its own.
    @Test(arguments: [("logout", "{}"), ("activate", #"{"cancel":true}"#), ("legacy-activate", #"{"cancel":true}"#)])
    func aDeviceThatIsNotActivatedHasNoAstClientId(_ flow: String, _ answers: String) throws {
        let run = try BinaryRun.run(["run", flow, "--ephemeral", "--answers", "-"], stdin: answers)
        let result = try #require(run.results.first, "\(run.stderr)")
        #expect(result["astClientId"] == nil, "\(result)")
        #expect(result["tenantId"] as? String == "demo")
        let activated = try BinaryRun.run(["run", "activate", "--ephemeral"], stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#)
        let id = try #require(activated.results.first?["astClientId"] as? String, "\(activated.stdout)")
        #expect(id.count == 26 && id != String(repeating: "0", count: 26))
    }

    /// The one fault that can reach a logout (the MC-SDK's Start finds the device rooted) is switched on and bites.
    @Test func aFaultForALogoutAloneIsSwitchedOn() throws {
        let run = try BinaryRun.run(["run", "logout", "--ephemeral", "--answers", "-"], stdin: #"{"faults":{"insecureDevice":true}}"#)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.events.first?["step"] as? String == "faults on")
        #expect(run.events.first?["detail"] as? String == "insecure device")
        #expect(run.events.contains { $0["step"] as? String == "fault injected" })
    }

    /// Once an earlier flow has started the MC-SDK, a logout sends RestartEvent alone; the restart makes the same
    /// integrity check as Start (it logged the fault on, then logged out as if the device were secure).
    @Test func anInsecureDeviceFailsTheRestartOfAStartedMCSDK() throws {
        let run = try BinaryRun.run(["run", "activate", "logout", "logout", "--ephemeral"], stdin: """
            [{"username":"alice","password":"wonderland","activation-code":"123456"},{"faults":{"insecureDevice":true}},
             {"faults":{"insecureDevice":false}}]
            """)
        #expect(run.results.map { $0["status"] as? String } == ["OK", "INSECURE_DEVICE", "OK"], "\(run.stdout)")
        let failed = try #require(run.results.dropFirst().first)
        #expect(failed["failedStep"] as? String == "Restart", "\(failed)")
        // It says the user is still logged in (it said only that the restart was refused).
        #expect(failed["advice"] as? String
            == "alice is still logged in (a refused restart keeps the session): turn the insecure-device fault off, then log out again.")
        #expect(run.events.filter { $0["step"] as? String == "fault injected" }.count == 1)
        // The refused restart left the session as it was: the next logout, on a secure device, ended it.
        #expect(run.results.last?["wasLoggedIn"] as? Bool == true, "\(run.results.last ?? [:])")
    }

    /// A logout in a later process sends StartEvent first, which the insecure device refuses: the session stays too,
    /// and the advice names what made the device insecure, the option or the fault.
    @Test func aRefusedStartSaysTheUserIsStillLoggedIn() throws {
        let state = freshStatePath()
        let activated = try BinaryRun.run(["run", "activate", "--state", state], stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#)
        #expect(activated.status == 0, "\(activated.stderr)")
        let fault = try BinaryRun.run(["run", "logout", "--state", state, "--answers", "-"], stdin: #"{"faults":{"insecureDevice":true}}"#)
        #expect(fault.results.first?["failedStep"] as? String == "Start", "\(fault.stdout)")
        #expect(fault.results.first?["advice"] as? String
            == "alice is still logged in (the MC-SDK did not start, so no RestartEvent was sent): turn the insecure-device fault off, then log out again.")
        let held = try BinaryRun.run(["run", "logout", "--state", state, "--insecure-device", "su found"])
        #expect(held.results.first?["advice"] as? String
            == "alice is still logged in (the MC-SDK did not start, so no RestartEvent was sent): --insecure-device holds for this session; run without it, then log out again.")
        let loggedOut = try BinaryRun.run(["run", "logout", "--state", state])
        #expect(loggedOut.results.first?["wasLoggedIn"] as? Bool == true, "\(loggedOut.stdout)")
    }

    @Test func noAnswersAtAllStandForAnEmptyObject() throws {
        #expect(try BinaryRun.run(["run", "logout", "logout", "--ephemeral"], stdin: "").status == 0)
        #expect(try BinaryRun.run(["run", "logout", "--ephemeral"], stdin: " \n").status == 0)
        let file = URL(fileURLWithPath: scratchPath("empty-answers", ".json"))
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try BinaryRun.run(["run", "logout", "--ephemeral", "--answers", file.path]).status == 0)
    }

    @Test func aPipeHeldOpenDoesNotMakeALogoutWait() throws {
        let process = Process()
        process.executableURL = BinaryRun.executable
        process.arguments = ["run", "logout", "--ephemeral"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        // The write end stays open until the logout has ended (or the wait gives up).
        let finished = ended.wait(timeout: .now() + 20) == .success
        try input.fileHandleForWriting.close()
        // SIGKILL: the test runner may hand its children SIGTERM blocked.
        if !finished { kill(process.processIdentifier, SIGKILL) }
        #expect(finished, "run logout waited for the end of a pipe held open")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func answersRedirectedFromAFileAreRead() throws {
        let file = URL(fileURLWithPath: scratchPath("logout-answers", ".json"))
        try Data("garbage".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try BinaryRun.run(["-c", "exec \"$0\" run logout --ephemeral < \"$1\"", BinaryRun.executable.path, file.path],
                                    executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("answers are not valid JSON"), "\(run.stderr)")
    }
}

/// A flow's `faults on` lists the faults on that can bite it (docs/faults.md): a payment not the IdP's, a login not
/// the bridge's.
@Suite struct FaultsOnTests {
    /// The faults are the scenario's, on for every flow (an answer may not switch on one that cannot reach its flow).
    private func faultsOn(_ flow: String, _ answers: String) throws -> [String] {
        let scenario = try temporaryFile(#"""
            {"scenario": 1, "name": "every-fault", "identityProvider": {"tenants": [{"id": "demo", "users": [
              {"username": "alice", "password": "wonderland", "activationCode": "123456"}]}]},
             "faults": {"serverError": true, "pinningFails": true, "insecureDevice": true, "addedLatencyMs": 5,
                        "bridge": {"loseAcks": 1}}}
            """#)
        let run = try BinaryRun.run(["run", flow, "--ephemeral", "--scenario", scenario], stdin: answers)
        return run.events.filter { $0["step"] as? String == "faults on" }.compactMap { $0["detail"] as? String }
    }

    @Test func eachFlowListsTheFaultsThatCanBiteIt() throws {
        #expect(try faultsOn("payer-auth", #"{"card":"4000000000002701","expiry":"12/30"}"#)
            == ["added latency +5 ms, the first bridge ack lost"])
        #expect(try faultsOn("activate", #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#)
            == ["added latency +5 ms, server error, certificate pinning fails, insecure device"])
        #expect(try faultsOn("q2-login", #"{"username":"alice","password":"wonderland"}"#)
            == ["added latency +5 ms, server error, insecure device"])
    }
}
