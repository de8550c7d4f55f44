import Foundation
import Testing

/// Plain mode's line editing at a terminal keeps what is sent the same as what shows: Backspace takes a character
/// as the terminal draws it, and bytes that are not UTF-8 never join the line.
@Suite(.serialized) struct PlainLineEditingTests {
    /// Activate device with `username` typed by `typeUsername`: the device is activated only if the line sent was
    /// alice, whatever the screen showed.
    private func activate(_ typeUsername: (TmuxSession) -> Void) throws {
        let session = try TmuxSession.plain()
        #expect(session.waitFor("Choose 1-"))
        session.type("1")
        session.press("Enter")
        #expect(session.waitFor("Username (? lists demo users):"))
        typeUsername(session)
        #expect(session.waitFor("Username (? lists demo users): alice\n"))
        #expect(session.waitFor("Password (hidden; ? fills in alice's password):"))
        session.type("wonderland")
        session.press("Enter")
        #expect(session.waitFor("Activation code (hidden"))
        session.type("123456")
        session.press("Enter")
        #expect(session.waitFor("✓ Device activated"), "\(session.screen())")
        session.type("q")
        session.press("Enter")
        #expect(session.waitForExit() == 0)
    }

    /// A byte that is not UTF-8, and a character cut short, are dropped (they showed as blanks and were sent as
    /// U+FFFD).
    @Test func bytesThatAreNotUTF8AreDropped() throws {
        try activate { session in
            session.type("ali")
            _ = try? session.tmux(["send-keys", "-t", session.target, "-H", "ff", "c3"], capture: false)
            session.type("ce")
            session.press("Enter")
        }
    }

    /// Backspace and Ctrl-W take characters as the terminal draws them:
    /// - "alic", "e" with a combining accent, Backspace, "e": the accented e goes whole (the accent alone went, a
    ///   column of the e was erased, and "alicee" was sent under "alice");
    /// - "ali", a space with an accent on it (one character, and not a space), Ctrl-W, "alice": the word goes whole
    ///   (a scan by bytes stopped inside the accented space: the screen lost its column, the line kept the space).
    /// - Backspace and Ctrl-W on an empty line do nothing.
    @Test(arguments: [("alic", "e\u{301}", "BSpace", "e"), ("ali", " \u{301}", "C-w", "alice"), ("", "", "BSpace", "alice"),
                      ("", "", "C-w", "alice")])
    func editingKeysTakeCharactersAsTheyAreDrawn(before: String, accented: String, key: String, after: String) throws {
        try activate { session in
            session.type(before)
            if !accented.isEmpty { session.send(bytes: accented) }
            session.press(key)
            session.type(after)
            session.press("Enter")
        }
    }

    /// An OSC or a DCS string typed at a terminal (a title report, a paste that carries one) is dropped whole, to its
    /// BEL or ST, as the terminal UI's decoder drops it: its text after "Esc ]" was typed into the answer.
    @Test(arguments: ["\u{1b}]0;title\u{07}", "\u{1b}]2;x\u{1b}\\", "\u{1b}Pq#0\u{1b}\\"])
    func oscAndDCSStringsAreDroppedWhole(_ sequence: String) throws {
        try activate { session in
            session.type("al")
            session.send(bytes: sequence)
            session.type("ice")
            session.press("Enter")
        }
    }

    /// An X10 mouse report (Esc [ M and three bytes) is dropped whole: its three bytes were typed into the answer
    /// (" !!"; a DEL among them erased a character). Other sequences around it are dropped too.
    @Test(arguments: ["\u{1b}[M !!", "\u{1b}[M#\u{7f}!", "\u{1b}[25;5~\u{1b}[<0;3;4M\u{1b}[I\u{1b}[M !!"])
    func anX10MouseReportIsDroppedWhole(_ sequence: String) throws {
        try activate { session in
            session.type("al")
            session.send(bytes: sequence)
            session.type("ice")
            session.press("Enter")
        }
    }
}
