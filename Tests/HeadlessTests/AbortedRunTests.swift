import Foundation
import Testing

/// A flow the runner aborts because its answers cannot answer a prompt: exit 2, and the history (and, for a
/// payment, the ACS) hears an abort for bad input, not the user's cancel.
@Suite struct AbortedRunTests {
    /// The one flow of a state file, as `history export 1 --format json` gives it.
    func exported(_ state: String, id: Int = 1) throws -> (summary: [String: Any], result: [String: Any], events: [[String: Any]]) {
        let run = try BinaryRun.run(["history", "export", "\(id)", "--format", "json", "--state", state])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return (object, object["result"] as? [String: Any] ?? [:], object["events"] as? [[String: Any]] ?? [])
    }

    /// The `challengeCancel` of every CReq that carried one.
    func challengeCancels(_ events: [[String: Any]]) -> [String] {
        events.filter { $0["step"] as? String == "CReq" }.compactMap { event in
            guard let text = event["message"] as? String,
                let message = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            else { return nil }
            return message["challengeCancel"] as? String
        }
    }

    @Test(arguments: [
        (["activate"], Answers.alice, #"has no "activation-code""#),
        // Auto-login with no credential saved, after a q2-login that could have saved one: what that flow does
        // decides it, so it is found when asked.
        (["q2-login", "q2-login"], #"[{"username":"alice","password":"not-hers"},{"autoLogin":true}]"#,
         "asks for auto-login, but no credential is saved yet"),
    ])
    func aFlowAbortedForAMissingAnswerIsNotAUserCancel(flows: [String], answers: String, missing: String) throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run"] + flows + ["--state", state], stdin: answers)
        #expect(run.status == 2)
        #expect(run.stderr.contains(missing), "\(run.stderr)")
        // Every flow that ran ends with its result line, the aborted one too, as the history has it.
        #expect(run.results.count == flows.count, "\(run.stdout)")
        #expect(run.results.last?["outcome"] as? String == "cancelled" && run.results.last?["status"] as? String == "ABORTED_BAD_INPUT",
                "\(run.stdout)")

        let table = try BinaryRun.run(["history", "--state", state])
        #expect(table.stdout.split(separator: "\n").contains { $0.contains(" cancelled ") && $0.contains(" ABORTED_BAD_INPUT ") },
                "\(table.stdout)")
        #expect(!table.stdout.contains("USER_CANCEL"))

        let (summary, result, events) = try exported(state, id: flows.count)
        #expect(summary["status"] as? String == "ABORTED_BAD_INPUT")
        #expect(result["status"] as? String == "ABORTED_BAD_INPUT")
        let message = (result["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.hasPrefix("aborted for bad input: ") && message.contains(missing), "\(message)")
        #expect(events.contains { $0["status"] as? String == "ABORTED_BAD_INPUT" })
        #expect(!events.contains { $0["status"] as? String == "USER_CANCEL" })
        for output in [run.stdout, run.stderr, table.stdout] {
            for secret in Answers.secrets { #expect(!output.contains(secret), "\(secret) was printed") }
        }
    }

    /// The Q2 sign-in screen and a KSSIDP app ask for fixed fields, so answers that lack one are refused before
    /// anything runs, a later flow's too: exit 2 then means that nothing ran and the state file is as it was (the
    /// first flow of `legacy-activate legacy-login` activated the device, then the run stopped at the second).
    @Test(arguments: [
        (["legacy-activate"], Answers.alice, #"answers (legacy-activate) has no "activation-code", which the KSSIDP app collects before it calls the wrapper (line 1, column 1)"#),
        (["legacy-activate", "legacy-login"], "[\(Answers.aliceActivation),\n{\"username\":\"alice\"}]",
         #"answers[1] (legacy-login) has no "password", which the KSSIDP app collects before it calls the wrapper (line 2, column 1)"#),
        (["q2-login", "q2-login"], "[\(Answers.alice),{\"password\":\"wonderland\"}]", #"answers[1] (q2-login) has no "username", which the Q2 sign-in screen asks for (line 1, column 47)"#),
        // An auto-login with nothing else that cannot happen whatever comes before it: no q2-login before it to save
        // a credential, or a launch whose shouldAllowAutoLogin() is false. Both stopped the run at its prompt.
        (["logout", "q2-login"], #"[{},{"autoLogin":true}]"#,
         #"answers[1] (q2-login) asks for auto-login, but no credential is saved yet (a successful q2-login earlier in the run saves one); give "username" and "password" too (line 1, column 5)"#),
        (["q2-login", "q2-login", "--launch", "push"], "[\(Answers.alice),{\"autoLogin\":true}]",
         #"answers[1] (q2-login) asks for auto-login, but shouldAllowAutoLogin() is false (--launch push); give "username" and "password" too (line 1, column 47)"#),
        // With one of the two given, the sign-in screen's other field is missing.
        (["logout", "q2-login"], #"[{},{"autoLogin":true,"username":"alice"}]"#,
         #"answers[1] (q2-login) has no "password", which the Q2 sign-in screen asks for (line 1, column 5)"#),
    ])
    func answersAFixedFormCannotUseAreRefusedBeforeAnyFlowRuns(flows: [String], answers: String, message: String) throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run"] + flows + ["--state", state], stdin: answers)
        #expect(run.status == 2)
        #expect(run.stderr == "idp-tui: run: \(message)\n", "\(run.stderr)")
        #expect(run.stdout.isEmpty, "no flow ran")
        let history = try BinaryRun.run(["history", "--json", "--state", state])
        #expect(history.status == 0 && history.stdout.isEmpty, "\(history.stdout)")
    }

    /// An insecure device fails StartEvent before a KSSIDP app asks for anything: its answers need no fields.
    @Test func anInsecureDevicesLegacyLoginNeedsNoCredentials() throws {
        let run = try BinaryRun.run(["run", "legacy-login", "--ephemeral"], stdin: #"{"faults":{"insecureDevice":true}}"#)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.results.first?["status"] as? String == "INSECURE_DEVICE")
    }

    @Test func aPaymentAbortedForTooFewCodesSendsTheACSATransactionError() throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "payer-auth", "--state", state],
                                    stdin: #"{"card":"4000 0000 0000 2503","expiry":"12/30","otp":["W7q9x"]}"#)
        #expect(run.status == 2)
        #expect(run.stderr.contains("answers.otp has 1 code, but the challenge asked for another"), "\(run.stderr)")
        // The CReqs as the run printed them, and as the history kept them: 06, never the cardholder's 01.
        #expect(challengeCancels(run.events) == ["06"])
        let (summary, result, events) = try exported(state)
        #expect(challengeCancels(events) == ["06"])
        #expect(summary["outcome"] as? String == "cancelled")
        #expect(summary["status"] as? String == "ABORTED_BAD_INPUT")
        let payment = result["payment"] as? [String: Any] ?? [:]
        #expect(payment["challengeCancel"] as? String == "06")
        #expect(payment["transStatus"] as? String == "U")
        #expect(result["failedStep"] as? String == "challenge screen")
        #expect(!events.contains { $0["status"] as? String == "USER_CANCEL" })
        for output in [run.stdout, run.stderr] { #expect(!output.contains("W7q9x") && !output.contains("4000000000002503")) }
    }

    @Test func theCardholdersOwnCancelIsStillChallengeCancel01AndAUserCancel() throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "payer-auth", "activate", "--state", state],
                                    stdin: #"[{"card":"4000 0000 0000 2503","expiry":"12/30","cancel":"challenge"},{"cancel":true}]"#)
        #expect(run.status == 3)
        #expect(challengeCancels(run.events) == ["01"])
        let history = try BinaryRun.run(["history", "--json", "--state", state])
        let statuses = history.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["status"] as? String
        }
        #expect(statuses == ["USER_CANCEL", "USER_CANCEL"])
    }
}
