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

    /// A byte that is not UTF-8 (a Latin-1 terminal's é) is dropped and said on the status line: the field held "Jos"
    /// for "José", with nothing said, and the name went to the IdP so.
    @Test func aByteThatIsNotUTF8IsSaidToBeDropped() throws {
        let session = try TmuxSession(arguments: ["--ephemeral"])
        #expect(session.waitFor("What would you like to do?"))
        session.press("Enter")
        #expect(session.waitFor("Username"))
        session.type("Jos")
        _ = try session.tmux(["send-keys", "-t", session.target, "-H", "e9"], capture: false)
        let (said, screen) = session.waitUntil { $0.contains("dropped input that is not UTF-8") }
        #expect(said, "\(screen)")
        #expect(screen.contains("Jos"), "\(screen)")
    }

    /// Ctrl-L draws the screen again: what another program wrote to the terminal stayed until a resize.
    @Test func controlLRepairsWhatAnotherProgramWrote() throws {
        let session = try TmuxSession()
        #expect(session.waitFor("What would you like to do?"))
        let terminal = session.format("#{pane_tty}")
        let stray = "STRAY-OUTPUT-FROM-A-BACKGROUND-JOB"
        let handle = try #require(FileHandle(forWritingAtPath: terminal), "\(terminal)")
        handle.write(Data("\u{1b}[3;3H\(stray)".utf8))
        try handle.close()
        #expect(session.waitFor(stray))
        session.press("C-l")
        let (repaired, screen) = session.waitUntil { !$0.contains(stray) && $0.contains("What would you like to do?") }
        #expect(repaired, "\(screen)")
        session.press("q")
    }

    /// Starting and quitting leave the terminal's palette as the user set it (pywal, base16-shell): ncurses sent
    /// xterm's "reset the palette" (OSC 104) as the program started, and nothing put it back.
    @Test func thePaletteIsNeverReset() throws {
        let typescript = NSTemporaryDirectory() + "idp-tui-palette-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: typescript) }
        let session = try TmuxSession(command: [
            "sh", "-c", "TERM=xterm-256color script -qfc \"$0 --ephemeral\" \"$1\"; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _",
            TmuxSession.binary, typescript,
        ])
        #expect(session.waitFor("What would you like to do?"))
        session.press("q")
        #expect(session.waitForExit() == 0)
        let written = try String(decoding: Data(contentsOf: URL(fileURLWithPath: typescript)), as: UTF8.self)
        #expect(written.contains("What would you like to do?") && written.contains("\u{1b}[?1049l"))
        #expect(!written.contains("\u{1b}]104"), "\(written.debugDescription)")
    }

    /// The binary under `TERM=term`, in the wrapper that prints its exit status.
    private func launched(term: String) throws -> TmuxSession {
        try TmuxSession(command: [
            "sh", "-c", "TERM=\(term) \"$0\" --ephemeral; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _", TmuxSession.binary,
        ])
    }

    @Test func withoutAnAlternateScreenTheLastFrameIsClearedOnExit() throws {
        // vt100 and the Linux console have no alternate screen: the menu stayed, and the shell wrote over it.
        let session = try launched(term: "vt100")
        #expect(session.waitFor("What would you like to do?"))
        session.press("q")
        #expect(session.waitForExit() == 0)
        let screen = session.screen()
        #expect(!screen.contains("What would you like to do?") && !screen.contains("Activate device"), "\(screen)")
    }

    /// Nor is it kept in tmux's scrollback, nor is a frame that Ctrl-L repaints: curses' clear put the screen there
    /// (tmux's scroll-on-clear), a card number typed included.
    @Test func withoutAnAlternateScreenTheLastFrameIsNotLeftInTheScrollback() throws {
        let session = try launched(term: "vt100")
        #expect(session.waitFor("What would you like to do?"))
        session.type("4")
        session.press("Enter")
        #expect(session.waitFor("Card number"))
        session.type("4000000000002503")
        #expect(session.waitFor("4000 0000 0000 2503"))
        // Ctrl-L repaints the whole screen, line by line too (curses' clear put the frame in the scrollback).
        session.press("C-l")
        session.press("C-c")
        #expect(session.waitForExit() == 130)
        let everything = session.scrollback()
        #expect(!everything.contains("2503") && !everything.contains("Card number"), "\(everything)")
    }

    /// Inside tmux with another terminal's TERM (TERM=xterm-256color, a common tmux.conf setting) the borders are
    /// lines: the VT100 line set, which tmux resets on the SGR 0 that xterm's sgr sends after it, drew "qqqq".
    @Test func insideTmuxWithXtermsTERMTheBordersAreLines() throws {
        let session = try launched(term: "xterm-256color")
        #expect(session.waitFor("What would you like to do?"))
        let screen = session.screen()
        #expect(screen.contains("┌─ What would you like to do? ─") && !screen.contains("qqq"), "\(screen)")
        session.press("q")
        #expect(session.waitForExit() == 0)
    }

    /// A terminal without colours gets monochrome, whose focus is reverse video: the default theme's (bold, once
    /// its colours were gone) made the selected history row look like every failure row.
    @Test func aTerminalWithoutColoursShowsTheSelectedHistoryRowInReverseVideo() throws {
        let folder = NSTemporaryDirectory() + "idp-tui-mono-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = folder + "/state.sqlite"
        for password in ["nope", "wonderland"] {
            _ = try TmuxSession.runBinary(["run", "q2-login", "--state", state], stdin: #"{"username":"alice","password":""# + password + #""}"#)
        }
        // Without NO_COLOR (swift test sets it), which would choose monochrome by itself.
        let session = try TmuxSession(command: [
            "sh", "-c", "unset NO_COLOR; TERM=vt100 \"$0\" --state \"$1\"; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _", TmuxSession.binary, state,
        ])
        #expect(session.waitFor("What would you like to do?"))
        session.press("h")
        #expect(session.waitFor("INVALID_CREDENTIALS"))
        // The newest (the success) is selected; the failure below it is not.
        let screen = try session.tmux(["capture-pane", "-p", "-e"])
        let selected = try #require(screen.split(separator: "\n").first { $0.contains(" success ") })
        let other = try #require(screen.split(separator: "\n").first { $0.contains(" failure ") })
        // tmux writes a cell's attributes as one SGR: reverse (7) among them.
        let reverse = #"\x{1b}\[([0-9]+;)*7(;[0-9]+)*m"#
        #expect(selected.range(of: reverse, options: .regularExpression) != nil, "\(selected.debugDescription)")
        #expect(other.range(of: reverse, options: .regularExpression) == nil, "\(other.debugDescription)")
        session.press("q")
    }

    /// A theme the user named keeps its attributes on a terminal without colours: monochrome is only the default's
    /// stand-in.
    @Test func aNamedThemeKeepsItsAttributesWithoutColours() throws {
        let folder = NSTemporaryDirectory() + "idp-tui-theme-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "menu.focused = underline cyan\n".write(toFile: folder + "/mine.theme", atomically: true, encoding: .utf8)
        let session = try TmuxSession(command: [
            "sh", "-c", "unset NO_COLOR; TERM=vt100 \"$0\" --ephemeral --theme \"$1\"; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _",
            TmuxSession.binary, folder + "/mine.theme",
        ])
        #expect(session.waitFor("What would you like to do?"))
        let screen = try session.tmux(["capture-pane", "-p", "-e"])
        let focused = try #require(screen.split(separator: "\n").first { $0.contains("1 Activate device") })
        #expect(focused.range(of: #"\x{1b}\[([0-9]+;)*4(;[0-9]+)*m"#, options: .regularExpression) != nil, "\(focused.debugDescription)")
        #expect(focused.range(of: #"\x{1b}\[([0-9]+;)*7(;[0-9]+)*m"#, options: .regularExpression) == nil, "\(focused.debugDescription)")
        session.press("q")
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

/// `compare` at a terminal lays its two columns out in the terminal's width: at 80 columns the right column,
/// laid out for 100, wrapped into the left ("legacy-activate: failure WRO" / "NG_CREDENTIALS").
@Suite(.serialized) struct CompareWidthTests {
    @Test func compareFitsAnEightyColumnTerminal() throws {
        let session = try TmuxSession(width: 80, height: 200, arguments: ["compare", "--ephemeral"])
        #expect(session.waitFor(TmuxSession.exitMarker + "0]"))
        let lines = session.screen().split(separator: "\n", omittingEmptySubsequences: false)
        // Each side's status on the row of its flow: the right column starts within the 80 columns, and no row
        // continues the last one's word.
        let header = try #require(lines.first { $0.contains("IdpSdk") && $0.contains("KSSIDP") })
        #expect(header.distance(from: header.startIndex, to: try #require(header.range(of: "KSSIDP")).lowerBound) < 44, "\(header)")
        #expect(lines.contains { $0.contains("activate: failure WRONG_CREDENTIALS") }, "\(lines.joined(separator: "\n"))")
        #expect(!lines.contains { $0.hasPrefix("NG_CREDENTIALS") || $0.hasPrefix("ET /authorize") }, "\(lines.joined(separator: "\n"))")
    }
}
