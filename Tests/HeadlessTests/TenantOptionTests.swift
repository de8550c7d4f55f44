import Foundation
import Testing

/// `--tenant` configures the app for another tenant of the scenario than its `app.tenant`: bank-qa's hashed-PIN
/// tenant was reachable only by editing the file, and its user's activation said only that hashing was wrong.
@Suite struct TenantOptionTests {
    static let bankQA = docsFolder.appendingPathComponent("scenarios/bank-qa.json").path
    static let erin = #"{"username":"erin","password":"2468","activation-code":"900300"}"#

    @Test func theAppUsesTheTenantNamed() throws {
        let app = try BinaryRun.run(["run", "activate", "--scenario", Self.bankQA, "--ephemeral", "--hash-pin"], stdin: Self.erin)
        #expect(app.status == 1)
        let message = (app.results.first?["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.hasSuffix(#"and tenant "retail" expects it as typed"#), "the error names the app's tenant: \(message)")
        let business = try BinaryRun.run(["--tenant", "business", "run", "activate", "--scenario", Self.bankQA, "--ephemeral", "--hash-pin"],
                                         stdin: Self.erin)
        #expect(business.status == 0, "\(business.stderr)")
        #expect(business.results.first?["tenantId"] as? String == "business")
        let shown = try BinaryRun.run(["scenario", "show", Self.bankQA, "--tenant=business"])
        #expect(shown.stdout.contains(#""tenant": "business""#), "\(shown.stdout)")
    }

    @Test func aTenantTheScenarioLacksIsBadInput() throws {
        let run = try BinaryRun.run(["run", "activate", "--scenario", Self.bankQA, "--ephemeral", "--tenant", "wholesale"], stdin: Self.erin)
        #expect(run.status == 2)
        #expect(run.stderr == #"idp-tui: run: --tenant "wholesale" is no tenant of scenario "bank-qa"; its tenants: "retail", "business""# + "\n")
        #expect(run.stdout.isEmpty)
        // The terminal UI (plain here) on the embedded scenario checks it too: it ran on the demo tenant.
        let plain = try BinaryRun.run(["--ephemeral", "--plain", "--tenant", "wholesale"])
        #expect(plain.status == 2)
        #expect(plain.stderr.contains(#"--tenant "wholesale" is no tenant of scenario "demo"; its tenants: "demo""#), "\(plain.stderr)")
    }
}
