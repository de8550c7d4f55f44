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

    @Test(arguments: [
        ("activate", Answers.alice, #"has no "activation-code""#),
        ("legacy-activate", Answers.alice, #"has no "activation-code""#),
        ("q2-login", #"{"username":"alice"}"#, #"has no "password""#),
    ])
    func aFlowAbortedForAMissingAnswerIsNotAUserCancel(flow: String, answers: String, missing: String) throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", flow, "--state", state], stdin: answers)
        #expect(run.status == 2)
        #expect(run.stderr.contains(missing), "\(run.stderr)")

        let table = try BinaryRun.run(["history", "--state", state])
        let line = try #require(table.stdout.split(separator: "\n").first { $0.contains(flow) })
        #expect(line.contains(" cancelled ") && line.contains(" ABORTED_BAD_INPUT "), "\(line)")
        #expect(!table.stdout.contains("USER_CANCEL"))

        let (summary, result, events) = try exported(state)
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
}
