import Foundation
import Testing

/// A scenario's `network.requestTimeoutSeconds` is how long the SDKs wait: the request-timeout fault, and a latency
/// that long, end after it (30 s by default, a CI run's biggest wait).
@Suite struct RequestTimeoutRunTests {
    func scenario(timeout: Int) throws -> String {
        let text = try String(contentsOfFile: scenarioPath("default"), encoding: .utf8)
        let from = "\"requestTimeoutSeconds\": 30"
        #expect(text.contains(from))
        return try temporaryFile(text.replacingOccurrences(of: from, with: "\"requestTimeoutSeconds\": \(timeout)"))
    }

    @Test func theRequestTimeoutFaultEndsAfterTheScenariosTimeout() throws {
        let path = try scenario(timeout: 1)
        let run = try BinaryRun.run(["run", "activate", "q2-login", "--ephemeral", "--scenario", path],
                                    stdin: #"[{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"requestTimeout":true}},"#
                                        + #"{"username":"alice","password":"wonderland","faults":{"requestTimeout":true}}]"#)
        #expect(run.status == 1, "\(run.stderr)")
        try #require(run.results.count == 2)
        let activate = run.results[0]
        #expect(activate["status"] as? String == "NOT_REACHABLE")
        let error = activate["error"] as? [String: Any] ?? [:]
        #expect((error["message"] as? String)?.contains("timed out after 1 s") == true, "\(error)")
        #expect(run.events.contains { $0["detail"] as? String == "request timeout: the IdP does not answer within 1 s" }, "\(run.stdout)")
        #expect(run.results[1]["status"] as? String == "NETWORK_UNAVAILABLE", "\(run.results[1])")
        #expect(run.events.contains { $0["detail"] as? String == "request timeout: Q2 Core does not answer within 1 s" }, "\(run.stdout)")

        // A payment's page load times out first with it, and the advice names the wait that gave up.
        let payment = try BinaryRun.run(["run", "payer-auth", "--ephemeral", "--scenario", path],
                                        stdin: #"{"card":"4000000000002701","expiry":"12/30","faults":{"addedLatencyMs":2000}}"#)
        let result = try #require(payment.results.first)
        #expect((result["error"] as? [String: Any])?["message"] as? String == "the Drops page could not be loaded: the request timed out after 1 s")
        #expect(result["advice"] as? String
            == "Each round trip takes 2 s with the added-latency fault (+2000 ms), and the request gives up after 1 s: lower the added latency, then run 3-D Secure again.",
            "\(result)")

        let shown = try BinaryRun.run(["scenario", "show", "--scenario", path])
        #expect(shown.stdout.contains("\"requestTimeoutSeconds\": 1"), "\(shown.stdout)")
        let wrong = try temporaryFile(try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"requestTimeoutSeconds\": 1", with: "\"requestTimeoutSeconds\": 0"))
        let refused = try BinaryRun.run(["scenario", "check", wrong])
        #expect(refused.status == 2 && (refused.stdout + refused.stderr).contains("$.network.requestTimeoutSeconds: must be from 1 to 600"), "\(refused.stdout)")
    }
}
