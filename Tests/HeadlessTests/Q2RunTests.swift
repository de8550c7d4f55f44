import Foundation
import Testing

@Suite struct Q2RunTests {
    @Test func aQ2LoginThenAnAutoLoginWithTheSavedCredential() throws {
        let run = try BinaryRun.run(["run", "q2-login", "q2-login", "--ephemeral"], stdin: #"[{"username":"alice","password":"wonderland"},{"autoLogin":true}]"#)
        #expect(run.status == 0, "\(run.stderr)")
        let q2 = run.results.compactMap { $0["q2"] as? [String: Any] }
        #expect(q2.map { $0["autoLogin"] as? Bool } == [false, true])
        #expect(run.events.contains { $0["step"] as? String == "POST /mobilews/logonUser" && $0["to"] as? String == "Q2 Core" })
        #expect(run.events.contains { $0["step"] as? String == "completePlatformAuthentication(with:)" })
        #expect(!run.stdout.contains("wonderland"))
    }

    @Test func aPushLaunchGatesTheAutoLogin() throws {
        let run = try BinaryRun.run(["run", "q2-login", "q2-login", "--ephemeral", "--launch", "push"],
                                    stdin: #"[{"username":"alice","password":"wonderland"},{"autoLogin":true}]"#)
        #expect(run.status == 2)
        #expect(run.stderr.contains("shouldAllowAutoLogin() is false (--launch push)"))
        let typed = try BinaryRun.run(["run", "q2-login", "q2-login", "--ephemeral", "--launch", "push"],
                                      stdin: #"[{"username":"alice","password":"wonderland"},{"autoLogin":true,"username":"alice","password":"wonderland"}]"#)
        #expect(typed.status == 0)
        #expect((typed.results.last?["q2"] as? [String: Any])?["autoLogin"] as? Bool == false)
        #expect(typed.events.contains { $0["status"] as? String == "no auto-login" })
        // Logged as the screen shows, before any answer: a sign-in cancelled there has it too (it had none).
        let cancelled = try BinaryRun.run(["run", "q2-login", "q2-login", "--ephemeral", "--launch", "push"],
                                          stdin: #"[{"username":"alice","password":"wonderland"},{"cancel":true}]"#)
        #expect(cancelled.status == 3, "\(cancelled.stderr)")
        let second = cancelled.events.filter { $0["flowId"] as? Int == 2 }
        let gate = try #require(second.firstIndex { $0["status"] as? String == "no auto-login" }, "\(second)")
        let answer = try #require(second.firstIndex { $0["from"] as? String == "App" && $0["step"] as? String == "sign-in screen" })
        #expect(gate < answer)
        // A cancelled sign-in's result has its q2 object, as every other Q2 result: the launch, no user yet.
        let q2 = try #require(cancelled.results.last?["q2"] as? [String: Any], "\(cancelled.stdout)")
        #expect(q2["launch"] as? String == "push")
        #expect(q2["username"] == nil && q2["autoLogin"] as? Bool == false)
    }

    @Test(arguments: [
        ([String](), #"{"username":"alice","password":"nope"}"#, "INVALID_CREDENTIALS", 1001),
        (["--insecure-device", "Frida detected"], #"{"username":"alice","password":"wonderland"}"#, "INSECURE", nil),
        (["--scenario", scenarioPath("faults")], #"{"username":"alice","password":"wonderland"}"#, "GENERIC_ERROR", 9000),
    ] as [([String], String, String, Int?)])
    func failuresHaveTheirStatusAndHydraCode(options: [String], answers: String, status: String, hydra: Int?) throws {
        let run = try BinaryRun.run(["run", "q2-login", "--ephemeral"] + options, stdin: answers)
        #expect(run.status == 1)
        #expect(run.results.first?["status"] as? String == status)
        let error = run.results.first?["error"] as? [String: Any]
        #expect(error?["code"] as? Int == hydra)
        // Subsystems are the IdpSdk's (513, 510 …): Core's HTTP status is q2.statusCode, not the error's subsystem.
        #expect(error?["subsystem"] == nil, "\(String(describing: error))")
        #expect(!run.stdout.contains("wonderland") && !run.stdout.contains("\"nope\""))
        // The log shows the case as the app's catch matches it, its associated values too.
        let shape = switch status {
        case "INVALID_CREDENTIALS": "invalidCredentials(error: …, statusCode: 401, hydraCode: 1001): "
        case "INSECURE": #"insecure(reason: "Frida detected"): "#
        default: "genericError(error: …, statusCode: 500, hydraCode: 9000): "
        }
        let failure = run.events.last { $0["step"] as? String == "authenticate(using:)" && $0["to"] as? String == "App" }
        #expect((failure?["detail"] as? String)?.hasPrefix("MobileCoreLoginFailure." + shape) == true, "\(String(describing: failure))")
    }

    /// The answers pasted as the reason (a password among them) are refused, never printed: taken, they went into
    /// every event that named the reason, and into the history.
    @Test func answersPastedAsTheInsecureDevicesReasonAreRefused() throws {
        let pasted = try BinaryRun.run(["run", "q2-login", "--ephemeral", "--insecure-device", #"{"password":"hunter2XY"}"#],
                                       stdin: #"{"username":"alice","password":"wonderland"}"#)
        #expect(pasted.status == 2)
        #expect(pasted.stderr == "idp-tui: run: --insecure-device takes a reason in words (rooted, jailbroken), not JSON; answers go on standard input or in --answers FILE\n",
                "\(pasted.stderr)")
        #expect(!(pasted.stdout + pasted.stderr).contains("hunter2XY"))
    }

    /// The advice says what can end the denial: the option holds for the session, the fault can be switched off.
    @Test func anInsecureDevicesAdviceSaysWhatEndsIt() throws {
        let held = try BinaryRun.run(["run", "q2-login", "--ephemeral", "--insecure-device", "rooted"],
                                     stdin: #"{"username":"alice","password":"wonderland"}"#)
        #expect(held.results.first?["advice"] as? String
            == "The security module blocks logins on this device: --insecure-device holds for this session; run without it.")
        // It bites as the switch does, logged as a fault injected (a script counting the faults that bit counted none).
        let injected = held.events.filter { $0["step"] as? String == "fault injected" }
        #expect(injected.count == 1 && (injected.first?["detail"] as? String)?.hasPrefix("insecure device: the security module") == true,
                "\(held.stdout)")
        // On the party it hit, the security module asked allowLogin(): not to the App, which never hears of it.
        #expect(injected.first?["to"] as? String == "SecurityModule", "\(held.stdout)")
        let fault = try BinaryRun.run(["run", "q2-login", "--ephemeral"],
                                      stdin: #"{"username":"alice","password":"wonderland","faults":{"insecureDevice":true}}"#)
        #expect(fault.results.first?["status"] as? String == "INSECURE")
        #expect(fault.results.first?["advice"] as? String
            == "The security module blocks logins on this device: use a secure device (or turn the insecure-device fault off).")
    }

    /// `--insecure-device` is the rooted device for the MC-SDK too: an activation fails at StartEvent (it ran as on
    /// a sound device, while the faults panel showed the switch on).
    @Test func anInsecureDeviceOptionStopsTheMasterControllerToo() throws {
        let run = try BinaryRun.run(["run", "activate", "--ephemeral", "--insecure-device", "rooted"],
                                    stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#)
        #expect(run.status == 1)
        #expect(run.results.first?["status"] as? String == "INSECURE_DEVICE")
        // The advice names the option, which holds the fault on: not the fault's switch, which it cannot turn off.
        #expect(run.results.first?["advice"] as? String
            == "The MC-SDK does not run on a rooted or jailbroken device: --insecure-device holds for this session; run without it.")
        #expect(run.events.contains { $0["step"] as? String == "faults on" && ($0["detail"] as? String)?.contains("insecure device") == true })
        // It holds for the session: an answer that switches the fault off is refused (it was taken and ignored).
        let held = try BinaryRun.run(["run", "activate", "--ephemeral", "--insecure-device", "rooted"],
                                     stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"insecureDevice":false}}"#)
        #expect(held.status == 2 && held.results.isEmpty, "\(held.stderr)")
        #expect(held.stderr.contains("--insecure-device holds the device insecure for the whole run"), "\(held.stderr)")
        // The fault switched on without the option: its switch alone is named (it said "(or run without
        // --insecure-device)" to a run without it).
        let fault = try BinaryRun.run(["run", "activate", "--ephemeral"],
                                      stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"insecureDevice":true}}"#)
        #expect(fault.results.first?["advice"] as? String
            == "The MC-SDK does not run on a rooted or jailbroken device: turn the insecure-device fault off.")
    }

    @Test func theNetworkFaultIsNetworkUnavailable() throws {
        let run = try BinaryRun.run(["run", "q2-login", "--ephemeral"], stdin: #"{"username":"alice","password":"wonderland","faults":{"networkUnavailable":true}}"#)
        #expect(run.results.first?["status"] as? String == "NETWORK_UNAVAILABLE")
        #expect((run.results.first?["q2"] as? [String: Any])?["failure"] as? String == "networkUnavailable")
    }

    /// docs/q2.md: "userId or password missing" is Core's 400 / 1010, whichever of the two is empty.
    @Test(arguments: [#"{"username":"","password":"wonderland"}"#, #"{"username":"alice","password":""}"#])
    func anEmptyCredentialIsCoresGenericError(answers: String) throws {
        let run = try BinaryRun.run(["run", "q2-login", "--ephemeral"], stdin: answers)
        #expect(run.status == 1)
        let result = try #require(run.results.first)
        #expect(result["status"] as? String == "GENERIC_ERROR")
        #expect(result["failedStep"] as? String == "authenticate(using:)")
        #expect(result["advice"] as? String == "Give both a user id and a password: Core refuses an empty one.")
        let q2 = result["q2"] as? [String: Any]
        #expect(q2?["failure"] as? String == "genericError")
        #expect(q2?["statusCode"] as? Int == 400 && q2?["hydraCode"] as? Int == 1010)
        #expect(run.events.contains { $0["step"] as? String == "POST /mobilews/logonUser" && $0["to"] as? String == "Q2 Core" })
        #expect(!run.stdout.contains("wonderland"))
        // The log says which is empty: an empty password was "a password".
        let empty = answers.contains(#""password":"""#)
        let sent = run.events.first { $0["step"] as? String == "POST /mobilews/logonUser" && $0["to"] as? String == "Q2 Core" }
        #expect((sent?["detail"] as? String)?.hasSuffix(empty ? "+ an empty password" : "+ a password") == true, "\(String(describing: sent))")
        let typed = run.events.first { $0["step"] as? String == "sign-in screen" && $0["status"] as? String == "answered" }
        #expect(typed?["detail"] as? String == (empty ? "username alice, empty password" : "empty username, password"), "\(String(describing: typed))")
    }

    @Test func aMissingPasswordNamesTheSignInScreen() throws {
        let run = try BinaryRun.run(["run", "q2-login", "--ephemeral"], stdin: #"{"username":"alice"}"#)
        #expect(run.status == 2)
        #expect(run.stderr.contains("which the Q2 sign-in screen asks for") && !run.stderr.contains("identity provider"), "\(run.stderr)")
    }

    @Test func badLaunchOptionsExitTwo() throws {
        let run = try BinaryRun.run(["run", "q2-login", "--launch", "widget"], stdin: "{}")
        #expect(run.status == 2 && run.stderr.contains("--launch takes normal, deep-link or push"))
    }
}
