import Foundation
import Testing

/// `idp-tui reset` at a terminal asks before it forgets anything; `--yes` does not ask (and a script, with no
/// terminal, is not asked: HeadlessTests reset without it).
@Suite struct ResetQuestionTests {
    let state = NSTemporaryDirectory() + "idp-tui-reset-\(UUID().uuidString)/state.sqlite"

    /// Runs the binary with `arguments` in a pane; `answer`, when given, is typed after the question appears.
    func run(_ arguments: [String], answer: String? = nil) throws -> (status: Int32?, screen: String) {
        let session = try TmuxSession(width: 220, arguments: arguments + ["--state", state])
        if let answer {
            #expect(session.waitFor("it cannot be undone. [y/N]"))
            session.type(answer)
            session.press("Enter")
        }
        let status = session.waitForExit()
        return (status, session.screen())
    }

    @Test func resetAsksFirstAndNoKeepsEverything() throws {
        try FileManager.default.createDirectory(atPath: (state as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: (state as NSString).deletingLastPathComponent) }
        #expect(try run(["run", "logout"]).status == 0)

        let declined = try run(["reset"], answer: "n")
        #expect(declined.status == 1, "\(declined.screen)")
        #expect(declined.screen.contains("idp-tui: reset: not confirmed; nothing was changed (--yes resets without asking)"))
        let kept = try run(["history"])
        #expect(kept.status == 0 && kept.screen.contains("logout"), "the flow is still there:\n\(kept.screen)")

        let confirmed = try run(["reset"], answer: "y")
        #expect(confirmed.status == 0, "\(confirmed.screen)")
        #expect(confirmed.screen.contains("the device, the identity provider's counters and locks, and the history are reset"))
        #expect(try run(["history"]).screen.contains("no flows yet"))

        #expect(try run(["run", "logout"]).status == 0)
        let unasked = try run(["reset", "--yes"])
        #expect(unasked.status == 0 && !unasked.screen.contains("[y/N]"), "\(unasked.screen)")
        #expect(try run(["history"]).screen.contains("no flows yet"))

        // What reset refuses is refused before any question.
        try FileManager.default.removeItem(atPath: state)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        let refused = try run(["reset"])
        #expect(refused.status == 2 && !refused.screen.contains("[y/N]"), "\(refused.screen)")
        #expect(refused.screen.contains("is a folder, not a state file; nothing was changed"), "\(refused.screen)")
    }
}
