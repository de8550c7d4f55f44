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
        #expect(session.waitFor("Password (hidden):"))
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

    /// "alic", "e" with a combining accent, Backspace, "e": the accented e goes whole (the accent alone went, a
    /// column of the e was erased, and "alicee" was sent under "alice").
    @Test func backspaceTakesACharacterWithItsAccent() throws {
        try activate { session in
            session.type("alic")
            session.send(bytes: "e\u{301}")
            session.press("BSpace")
            session.type("e")
            session.press("Enter")
        }
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

    /// Ctrl-W after a space with an accent on it (one character, and not a space): the word goes whole, accent
    /// and all (a scan by bytes stopped inside the accented space: the screen lost its column, the line kept the
    /// space, and what was typed next was sent with it).
    @Test func ctrlWTakesAnAccentedSpaceWhole() throws {
        try activate { session in
            session.type("ali")
            session.send(bytes: " \u{301}")
            session.press("C-w")
            session.type("alice")
            session.press("Enter")
        }
    }
}
