import Foundation
import Testing

/// `history --json` as a CI script reads it: a failed flow's line has its `error` and `failedStep`, as its result
/// line had (each failure's needed `history export N` before); a successful one has neither; keys stay in order.
@Suite struct HistoryJSONTests {
    @Test func aFailedFlowsLineHasItsErrorAndFailedStep() throws {
        let state = freshStatePath()
        let answers = #"[{"username": "alice", "password": "nope", "activation-code": "123456"}, {"card": "4000000000002503", "expiry": "12/30", "otp": "1234"}]"#
        let run = try BinaryRun.run(["run", "activate", "payer-auth", "--state", state], stdin: answers)
        #expect(run.status == 1, "\(run.stderr)")
        let listed = try BinaryRun.run(["history", "--json", "--state", state])
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(listed.stdout)")
        let failed = try #require(lines.first { $0.contains(#""flow":"activate""#) })
        #expect(failed.contains(#""error":{"code":4011,"#) && failed.contains(#""failedStep":"getAuthorizationCode","flow":"activate""#), "\(failed)")
        let keys = try #require(JSONSerialization.jsonObject(with: Data(failed.utf8)) as? [String: Any]).keys.sorted()
        #expect(keys == ["duration", "error", "failedStep", "flow", "id", "outcome", "status", "time", "user"])
        let succeeded = try #require(lines.first { $0.contains(#""flow":"payer-auth""#) })
        #expect(!succeeded.contains("error") && !succeeded.contains("failedStep"), "\(succeeded)")
        #expect(!listed.stdout.contains("nope"))
    }
}
