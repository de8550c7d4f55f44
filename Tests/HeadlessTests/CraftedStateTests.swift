import Foundation
import StateStore
import Testing

/// State files crafted by hand (or by another tool): idp-tui neither crashes on them nor passes what they hold to
/// the terminal as it is.
@Suite struct CraftedStateTests {
    /// A state file with one activation in it, in a folder of its own.
    private func activated() throws -> String {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation)
        #expect(run.status == 0, "\(run.stderr)")
        return state
    }

    /// `PRAGMA user_version = -1` on idp-tui's file: migrating from it indexed the migrations at -1 and trapped
    /// (exit 132, a backtrace) in every command, `reset` included. It is a damaged file of idp-tui's own.
    @Test func aNegativeSchemaVersionIsADamagedFileNotACrash() throws {
        let state = try activated()
        try StateFile.executeWithoutMigratingForTesting(path: state, "PRAGMA user_version = -1")
        for arguments in [["history"], ["run", "logout", "--answers", "-"], ["history", "prune"]] {
            let run = try BinaryRun.run(arguments + ["--state", state], stdin: "{}")
            #expect(run.status == 2, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("is damaged or not an idp-tui state file (schema version -1"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
        }
        let reset = try BinaryRun.run(["reset", "--yes", "--state", state])
        #expect(reset.status == 0, "\(reset.status) \(reset.stderr)")
        #expect(reset.stdout.contains("\(state) → \(state).unreadable-"), "\(reset.stdout)")
        #expect(!FileManager.default.fileExists(atPath: state))
    }
}
