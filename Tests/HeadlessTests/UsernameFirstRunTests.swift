import Foundation
import Testing

/// A scenario whose tenant's form asks for the username first, run headless: each flow answers one field per page
/// from the same answers object, and a secret never shows in the output.
@Suite struct UsernameFirstRunTests {
    @Test func activationAndLoginAnswerAPageForEachField() throws {
        let file = scratchPath("username-first", ".json")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(#"""
            {"scenario": 1, "name": "username-first", "identityProvider": {"tenants": [{"id": "demo", "usernameFirst": true,
             "users": [{"username": "alice", "password": "Zq7-wonderland", "activationCode": "918273"}]}]}}
            """#.utf8).write(to: URL(fileURLWithPath: file))
        let answers = #"[{"username": "alice", "password": "Zq7-wonderland", "activation-code": "918273"}, {}, {"username": "alice", "password": "Zq7-wonderland"}]"#
        let run = try BinaryRun.run(["run", "activate", "logout", "login", "--ephemeral", "--scenario", file], stdin: answers)
        #expect(run.status == 0, "\(run.stderr)")
        let asked = run.events.filter { $0["step"] as? String == "provideCredentials" && $0["from"] as? String == "IdpSdk" }
            .compactMap { $0["detail"] as? String }
        #expect(asked == ["inputFieldIds=username (page 1 of 3)", "inputFieldIds=password (page 2 of 3)",
                          "inputFieldIds=activation-code (page 3 of 3)", "inputFieldIds=username (page 1 of 2)",
                          "inputFieldIds=password (page 2 of 2)"], "\(asked)")
        #expect(!run.stdout.contains("Zq7-wonderland") && !run.stdout.contains("918273") && !run.stderr.contains("Zq7-wonderland"))
    }
}
