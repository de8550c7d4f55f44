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
        #expect(session.waitFor("cancelling… the SDK is ending the flow; Esc ends it at once"), "\(session.scrollback())")
        session.press("Escape")
        #expect(session.waitFor("⊘ Pay with card (3-D Secure) cancelled"), "\(session.scrollback())")
        #expect(session.waitFor("challengeCancel: 01"), "\(session.scrollback())")
        #expect(session.scrollback().contains("and the flow ended before its answer reached the app"), "\(session.scrollback())")
        session.press("C-c")
        #expect(session.waitForExit() == 130)
    }
}

/// What is typed at the menu stays when its question is asked again with other words (the count of faults on, a
/// runtime error that bit and switched itself off): it was dropped, as text typed at a question that went away.
@Suite(.serialized) struct PlainMenuTypedTests {
    @Test func textTypedAtTheMenuOutlivesAChangeOfItsFaultsCount() throws {
        let folder = NSTemporaryDirectory() + "idp-tui-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A scenario of its faults alone (the rest is the demo's): a second a round trip, and a runtime error that
        // bites the next SetAuthorisationCode.
        try #"{"scenario": 1, "faults": {"addedLatencyMs": 1000, "runtimeError": true}}"#
            .write(toFile: folder + "/faults.json", atomically: true, encoding: .utf8)
        let session = try TmuxSession.plain(["--scenario", folder + "/faults.json"])
        #expect(session.waitFor("\(PlainMenu.question) (2 faults on; q quits):"))
        // KSSIDP's activation, cancelled while its call is in flight: it goes on, to its SetAuthorisationCode.
        session.send(bytes: "6\ralice\rwonderland\r123456\r")
        #expect(session.waitFor("KssIdpWrapper.activate"))
        session.press("Escape")
        #expect(session.waitFor("Enter goes back (h history; q quits):"))
        session.press("Enter")
        #expect(session.waitFor("\(PlainMenu.question) (2 faults on; q quits):"))
        session.type("5")
        // The runtime error bites the wrapper's SetAuthorisationCode and switches itself off: the menu is asked again
        // with one fault on, the 5 still there.
        let (kept, screen) = session.waitForLastLine("\(PlainMenu.question) (1 fault on; q quits):", endingWith: " 5")
        #expect(kept, "\(screen)")
    }
}
