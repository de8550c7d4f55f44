import Foundation
import Testing

/// The terminal UI in environments a new user's machine may have: stale size variables, terminals without an
/// alternate screen, an unknown TERM.
@Suite(.serialized) struct TerminalEnvironmentTests {
    @Test func staleColumnsAndLinesDoNotOverrideTheWindowsSize() throws {
        // An exported COLUMNS=200 drew the screen for 200 columns in an 80-column window, cut at its edge.
        let session = try TmuxSession(environment: ["COLUMNS": "200", "LINES": "50"])
        let (drawn, screen) = session.waitUntil { $0.contains("What would you like to do?") && $0.contains("┐") }
        #expect(drawn, "\(screen)")
        let top = screen.split(separator: "\n").first { $0.hasPrefix("┌") }
        #expect(top?.hasSuffix("┐") == true && top?.count == 80, "\(screen)")
    }

    @Test func withoutAnAlternateScreenTheLastFrameIsClearedOnExit() throws {
        // vt100 and the Linux console have no alternate screen: the menu stayed, and the shell wrote over it.
        let session = try TmuxSession(command: [
            "sh", "-c", "TERM=vt100 \"$0\" --ephemeral; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _", TmuxSession.binary,
        ])
        #expect(session.waitFor("What would you like to do?"))
        session.press("q")
        #expect(session.waitForExit() == 0)
        let screen = session.screen()
        #expect(!screen.contains("What would you like to do?") && !screen.contains("Activate device"), "\(screen)")
    }

    @Test func anUnknownTerminalTypeNamesPlainMode() throws {
        let session = try TmuxSession(command: [
            "sh", "-c", "TERM=nosuchterm \"$0\"; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _", TmuxSession.binary,
        ])
        #expect(session.waitForExit() == 2)
        // The line wraps at the pane's edge.
        let screen = session.screen().split(separator: "\n").joined()
        #expect(screen.contains("or use idp-tui --plain (line by line) or idp-tui run"), "\(screen)")
    }
}
