import Foundation
import Testing

/// Plain mode on a form that asks for the username first: `?` at the password's page fills in the password of the
/// user the first page named (it was sent as the password, "?", and cost an attempt), and a name that is no demo
/// user's gets none, rather than another user's.
@Suite struct PlainUsernameFirstTests {
    static func scenario() throws -> String {
        let file = scratchPath("plain-username-first", ".json")
        try Data(#"""
            {"scenario": 1, "name": "plain-username-first", "identityProvider": {"tenants": [{"id": "demo", "usernameFirst": true,
             "users": [{"username": "alice", "password": "wonderland", "activationCode": "123456"}]}]}}
            """#.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test func questionMarkAtThePasswordPageFillsTheNamedUsersPassword() throws {
        let file = try Self.scenario()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try BinaryRun.run(["--ephemeral", "--scenario", file], stdin: "1\nalice\n?\n\n?\n\nq\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Password (hidden; ? fills in alice's password): \nFilled in demo user alice: password (not shown).\n"), "\(run.stdout)")
        #expect(run.stdout.contains("user: alice@demo") && !run.stdout.contains("4011"), "\(run.stdout)")
        #expect(!run.stdout.contains("wonderland") && !run.stdout.contains("123456"))
    }

    @Test func aNameThatIsNoDemoUsersGetsNoPassword() throws {
        let file = try Self.scenario()
        defer { try? FileManager.default.removeItem(atPath: file) }
        // Piped, the refusal ends the session: the line after it is not sent as the password (it was, and cost an
        // attempt).
        let run = try BinaryRun.run(["--ephemeral", "--scenario", file], stdin: "1\nmallory\n?\nwonderland\n\nq\n")
        #expect(run.stdout.contains("Password (hidden): ") && run.stdout.contains("the name the first page sent is no demo user's: type its password"),
                "\(run.stdout)")
        #expect(run.status == 2 && run.stderr.hasPrefix("idp-tui: piped answer to Password refused"), "\(run.stderr)")
        #expect(!run.stdout.contains("POST /authorize      IdpSdk       400"), "no password was sent: \(run.stdout)")
        #expect(!run.stdout.contains("wonderland") && !run.stderr.contains("wonderland"))
    }
}
