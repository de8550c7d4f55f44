import Foundation
import Testing

/// A key that another flow takes is bad input for this one: exit 2 before anything runs, one line naming the key
/// and the flows that take it.
@Suite struct ForeignAnswerKeyTests {
    static let card = #""card":"4000000000002503","expiry":"12/30","otp":"1234""#

    @Test(arguments: [
        (["login"], #"{"username":"alice","password":"wonderland","autoLogin":true}"#,
         #"answers (login) has "autoLogin", which only q2-login takes (line 1, column 57)"#),
        (["activate"], #"{"username":"alice","password":"wonderland","activation-code":"123456","otp":"1234"}"#,
         #"answers (activate) has "otp", which only payer-auth takes"#),
        (["legacy-login"], #"{"username":"alice","password":"wonderland","delay":1}"#,
         #"answers (legacy-login) has "delay", which only payer-auth takes"#),
        (["payer-auth"], "{\(card),\"password\":\"wonderland\"}",
         #"answers (payer-auth) has "password", which activate, login, q2-login, legacy-activate and legacy-login take"#),
        (["payer-auth"], "{\(card),\"autoLogin\":true}", #"answers (payer-auth) has "autoLogin", which only q2-login takes"#),
        (["q2-login"], #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#,
         #"answers (q2-login) has "activation-code", which activate and legacy-activate take"#),
        (["login"], #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#,
         #"answers (login) has "activation-code", which activate and legacy-activate take"#),
        // A payment's faults in another flow's answers would be switched on and bite nothing.
        (["activate"], #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"threeDS":{"acs":"slow"}}}"#,
         #"answers (activate) has "faults.threeDS", which only payer-auth takes (line 1, column 92)"#),
        (["q2-login"], #"{"username":"alice","password":"wonderland","faults":{"addedLatencyMs":5,"bridge":{"loseEveryAck":true}}}"#,
         #"answers (q2-login) has "faults.bridge", which only payer-auth takes"#),
        // So would an IdP's or the device's fault in a flow it cannot reach (it was taken and did nothing).
        (["payer-auth"], "{\(card),\"faults\":{\"serverError\":true}}",
         #"answers (payer-auth) switches on "faults.serverError", which cannot reach a payer-auth flow (those that can: networkUnavailable, addedLatencyMs, requestTimeout) (line 1, column 82)"#),
        (["logout", "q2-login"], #"[{},{"username":"alice","password":"wonderland","faults":{"clockSkewDays":40}}]"#,
         #"answers[1] (q2-login) switches on "faults.clockSkewDays", which cannot reach a q2-login flow (those that can: networkUnavailable, addedLatencyMs, requestTimeout, serverError, insecureDevice)"#),
        // A logout's Start and Restart cross no network: the IdP's and the network's faults were announced and bit nothing.
        (["activate", "logout"], "[\(Answers.aliceActivation),{\"faults\":{\"networkUnavailable\":true}}]",
         #"answers[1] (logout) switches on "faults.networkUnavailable", which cannot reach a logout flow (those that can: insecureDevice)"#),
        (["activate", "logout"], "[\(Answers.aliceActivation),{\"username\":\"alice\"}]",
         #"answers[1] (logout) has "username", which activate, login, q2-login, legacy-activate and legacy-login take"#),
    ] as [([String], String, String)])
    func aKeyOfAnotherFlowIsRefusedByName(flows: [String], answers: String, message: String) throws {
        let run = try BinaryRun.run(["run"] + flows + ["--ephemeral"], stdin: answers)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == "idp-tui: run: \(message)\n" || run.stderr.hasPrefix("idp-tui: run: \(message) ("), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "nothing ran")
        for secret in Answers.secrets { #expect(!run.stderr.contains(secret)) }
    }

    /// `--insecure-device` holds the device insecure for the whole run: an answer cannot make it sound again, and
    /// one that tried was taken and ignored.
    @Test func anAnswerCannotSwitchOffTheInsecureDeviceTheCommandLineHoldsOn() throws {
        let run = try BinaryRun.run(
            ["run", "q2-login", "--ephemeral", "--insecure-device", "rooted"],
            stdin: #"{"username":"alice","password":"wonderland","faults":{"insecureDevice":false}}"#)
        #expect(run.status == 2 && run.stdout.isEmpty, "\(run.status) \(run.stderr)")
        #expect(run.stderr == "idp-tui: run: answers.faults.insecureDevice is false, but --insecure-device holds the device insecure for the whole run (line 1, column 72)\n",
                "\(run.stderr)")
        // Switched off with no --insecure-device, or switched on, it still runs.
        let off = try BinaryRun.run(["run", "q2-login", "--ephemeral"], stdin: #"{"username":"alice","password":"wonderland","faults":{"insecureDevice":false}}"#)
        #expect(off.status == 0, "\(off.stderr)")
    }

    @Test func anUnknownKeyListsOnlyTheKeysOfItsFlow() throws {
        let run = try BinaryRun.run(["run", "activate", "logout", "--ephemeral"], stdin: "[\(Answers.aliceActivation),{\"s3cr3t-typo\":1}]")
        #expect(run.status == 2)
        #expect(run.stderr.hasSuffix("known keys: cancel, faults\n"), "\(run.stderr)")
        #expect(!run.stderr.contains("s3cr3t-typo"))
    }

    /// `cancel` and `faults` belong to every flow; `username` and `password` to the IdP's and Q2's sign-ins alike.
    @Test func sharedKeysStillRun() throws {
        let run = try BinaryRun.run(
            ["run", "q2-login", "activate", "logout", "payer-auth", "--ephemeral"],
            stdin: #"[{"username":"alice","password":"wonderland","faults":{"addedLatencyMs":1}},"#
                + #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{}},{"cancel":false,"faults":{}},"#
                + "{\(Self.card),\"cancel\":false,\"faults\":{}}]")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.results.map { $0["outcome"] as? String } == ["success", "success", "success", "success"])
    }

    /// Several flows' answers are checked a stage at a time before anything runs: what cannot happen (an auto-login
    /// with no credential to find), then the fields a form always asks for, then what a card's challenge needs. The
    /// first error said is of the earliest stage, whichever flow it is in.
    @Test(arguments: [
        (["payer-auth", "q2-login"], [String](), #"[{"card":"4000000000002503","expiry":"12/30"},{"username":"a"}]"#,
         #"idp-tui: run: answers[1] (q2-login) has no "password""#),
        (["payer-auth", "legacy-login"], [], #"[{"card":"4000000000002503"},{"username":"a"}]"#,
         #"idp-tui: run: answers[1] (legacy-login) has no "password""#),
        (["q2-login", "q2-login"], ["--launch", "push"], #"[{"username":"a"},{"autoLogin":true}]"#,
         #"idp-tui: run: answers[1] (q2-login) asks for auto-login, but shouldAllowAutoLogin() is false"#),
    ])
    func theEarliestStageOfTheCheckIsSaidFirst(_ flows: [String], _ options: [String], _ answers: String, _ error: String) throws {
        let run = try BinaryRun.run(["run"] + flows + ["--ephemeral"] + options, stdin: answers)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix(error), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "nothing ran")
    }
}
