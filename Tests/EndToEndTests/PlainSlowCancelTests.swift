import Foundation
import Testing

/// Plain mode at a terminal while a cancel waits on a slow server.
@Suite(.serialized) struct PlainSlowCancelTests {
    /// A fresh folder holding `slow-acs.json`: the demo scenario with its ACS answering 5 s late. The caller removes it.
    static func slowACSFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "idp-tui-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/scenarios/default.json")
        let scenario = try String(contentsOf: demo, encoding: .utf8).replacingOccurrences(of: #""acs": null"#, with: #""acs": "slow""#)
        #expect(scenario.contains(#""acs": "slow""#))
        try scenario.write(toFile: folder + "/slow-acs.json", atomically: true, encoding: .utf8)
        return folder
    }

    /// Esc at a challenge whose ACS is slow: the cancel's CReq waits 5 s for the ACS. A second on, plain mode says the
    /// cancel is still being carried out and that Esc again ends it at once (it printed nothing until the result), and
    /// Esc again does: the result is the cardholder's cancel on the challenge screen, challengeCancel 01.
    @Test func aSlowCancelIsSaidAndEscAgainEndsIt() throws {
        let folder = try Self.slowACSFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = try TmuxSession.plain(["--scenario", folder + "/slow-acs.json"])
        #expect(session.waitFor("\(PlainMenu.question) ("))
        session.type("4")
        session.press("Enter")
        #expect(session.waitFor("Card number:"))
        for (answer, next) in [("4000000000002503", "Expiry"), ("12/30", "Amount"), ("", "Currency"), ("", "Merchant"),
                               ("", "One-time code")] {
            session.type(answer)
            session.press("Enter")
            #expect(session.waitFor(next), "\(session.scrollback())")
        }
        session.press("Escape")
        #expect(session.waitFor("cancelling… the SDK is ending the flow; a line with Esc ends it at once"), "\(session.scrollback())")
        session.press("Escape")
        #expect(session.waitFor("⊘ Pay with card (3-D Secure) cancelled"), "\(session.scrollback())")
        #expect(session.waitFor("challengeCancel: 01"), "\(session.scrollback())")
        #expect(session.scrollback().contains("and the flow ended before its answer reached the app"), "\(session.scrollback())")
        session.press("C-c")
        #expect(session.waitForExit() == 130)
    }
}
