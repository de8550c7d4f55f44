import LocaleText
import Foundation
import Testing

extension TmuxSession {
    /// `idp-tui --plain --ephemeral` at a terminal, with `arguments`; its exit status is printed when it ends.
    static func plain(_ arguments: [String] = []) throws -> TmuxSession {
        try TmuxSession(command: [
            "sh", "-c", "trap '' INT; \"$0\" --plain --ephemeral \"$@\"; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _",
            TmuxSession.binary,
        ] + arguments)
    }
}

/// Plain mode's typing at a terminal, as a screen-reader user's pass found it: what is typed ahead answers the
/// question it was typed for, shows under that one only, and a card number typed in part shows again when an
/// event breaks its line.
@Suite(.serialized) struct PlainTypingAheadTests {
    private func start(_ session: TmuxSession, _ item: String, _ question: String) {
        // "Choose 1-9 (1 fault on; q quits):" with a fault on.
        #expect(session.waitFor("\(PlainMenu.question) ("))
        session.type(item)
        session.press("Enter")
        #expect(session.waitFor(question))
    }

    /// Activate device, its form filled with demo user alice (`?`, then 1): at `Submit?`.
    private func fillDemoUser(_ session: TmuxSession) {
        start(session, "1", "Username (? lists demo users):")
        session.type("?")
        session.press("Enter")
        #expect(session.waitFor("Demo user (1-2 or a name; Enter for none):"))
        session.type("1")
        session.press("Enter")
        #expect(session.waitFor("Submit? (Enter; Esc cancels)"))
    }

    /// An empty password typed ahead is refused, and the text typed after it answers the question asked again (it
    /// was dropped, and the next Enter sent an empty password). The same refusal is said each time, though the
    /// screen does not change. (Piped, the first refusal ends the session: `PlainPipedLinesTests`.)
    @Test func textTypedAfterARefusedLineAnswersTheQuestionAskedAgain() throws {
        let session = try TmuxSession.plain()
        start(session, "1", "Username (? lists demo users):")
        session.send(bytes: "alice\r\r\rwonderland")
        #expect(session.waitUntil(scrollback: true) { $0.components(separatedBy: "! Fill in Password.").count == 3 }.0, "\(session.scrollback())")
        session.press("Enter")
        #expect(session.waitFor("Activation code (hidden"), "\(session.scrollback())")
        #expect(session.scrollback().components(separatedBy: "! Fill in Password.").count == 3, "refused twice, said each time")
        #expect(!session.scrollback().contains("wonderland"), "a secret was echoed")
    }

    /// CR LF (a paste from Windows, a telnet client's Enter) ends one line: it answered the next question empty.
    @Test func crLFEndsOneLine() throws {
        let session = try TmuxSession.plain()
        start(session, "1", "Username (? lists demo users):")
        session.send(bytes: "alice\r\nwonderland\r\n")
        #expect(session.waitFor("Activation code (hidden"), "\(session.scrollback())")
        #expect(!session.scrollback().contains("! Fill in"), "\(session.scrollback())")
    }

    /// A user name, password and code pasted with tabs between answer three questions, as Tab moves to the next
    /// field in the terminal UI: the password was joined to the name, shown in clear and sent as the user name (and,
    /// once Tab answered only shown questions, the code was joined to the password). At a choice a tab is dropped.
    @Test func aTabAfterTextAnswersTheQuestion() throws {
        let session = try TmuxSession.plain()
        #expect(session.waitFor("\(PlainMenu.question) ("))
        session.send(bytes: "1\t\r")
        #expect(session.waitFor("Username (? lists demo users):"))
        session.send(bytes: "alice\twonderland\t123456\r")
        #expect(session.waitFor("✓ Device activated"), "\(session.scrollback())")
        #expect(!session.scrollback().contains("wonderland") && !session.scrollback().contains("123456"), "\(session.scrollback())")
        #expect(!session.scrollback().contains("! "), "\(session.scrollback())")
    }

    /// Text typed ahead shows under the question it answers: `12/29` typed after an empty line showed under the
    /// expiry the empty line answered, so the transcript said 12/29 was refused.
    @Test func typedAheadTextShowsUnderItsOwnQuestion() throws {
        let session = try TmuxSession.plain()
        start(session, "4", "Card number:")
        session.send(bytes: "4000000000002503\r\r12/29")
        #expect(session.waitFor("! Expiry (MM/YY): write it as MM/YY"))
        session.press("Enter")
        #expect(session.waitFor("Amount [49.99]:"))
        let lines = session.scrollback().components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let refusal = try #require(lines.firstIndex { $0.hasPrefix("! Expiry (MM/YY): write it as MM/YY") })
        #expect(lines[refusal - 1] == "Expiry (MM/YY):", "\(lines[refusal - 1])")
        #expect(lines[refusal + 1] == "Expiry (MM/YY): 12/29", "\(lines[refusal + 1])")
    }

    /// A card number typed in part shows again under its question when an event breaks the line, and so does what
    /// is typed next (it was typed blind after the first event).
    @Test func aCardNumberTypedInPartShowsAgainAfterAnEvent() throws {
        let session = try TmuxSession.plain(["--bridge-fault", "lose-acks:3"])
        start(session, "4", "Card number:")
        let asked = { (text: String) in text.components(separatedBy: "Card number:").count - 1 }
        let before = asked(session.scrollback())
        session.type("4000")
        // An event printed after it: the question is asked again under the event, with the digits shown again.
        let (askedAgain, screen) = session.waitUntil(scrollback: true) { text in
            asked(text) > before && text.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) == "Card number: 4000"
        }
        #expect(askedAgain, "not asked again with the digits: \(screen)")
        session.type("0000")
        #expect(session.waitFor("Card number: 40000000"), "\(session.scrollback())")
    }

    /// A line a question does not take ends as `(not an answer here)` at a terminal too: the `n` typed at Submit
    /// stayed on the screen as if it were taken.
    @Test func aLineAQuestionDoesNotTakeIsNotLeftShowing() throws {
        let session = try TmuxSession.plain()
        fillDemoUser(session)
        session.type("n")
        session.press("Enter")
        #expect(session.waitFor("! Enter submits; Esc cancels"))
        #expect(session.scrollback().contains("Submit? (Enter; Esc cancels) (not an answer here)"), "\(session.scrollback())")
    }

    /// A LF joins only a CR of the same read: Ctrl-J at a result after a flow ended with Enter goes back (the Enter
    /// marked the next LF to be thrown away, however much later it came).
    @Test func ctrlJLongAfterAnEnterIsAnEnter() throws {
        let session = try TmuxSession.plain()
        fillDemoUser(session)
        session.press("Enter")
        #expect(session.waitFor("Activation code (hidden"))
        session.type("123456")
        session.press("Enter")
        #expect(session.waitFor("Enter goes back (h history; q quits):"))
        session.press("C-j")
        let (back, screen) = session.waitUntil(scrollback: true) { $0.components(separatedBy: "\(PlainMenu.question) (q quits):").count == 3 }
        #expect(back, "\(screen)")
    }

    /// What was typed at a password that timed out goes with it, and the result's question echoes as any does (it
    /// was opened as a hidden one: nothing typed showed, and Enter wrote "(not an answer here)").
    @Test func textTypedAtATimedOutSecretDoesNotHideTheNextQuestion() throws {
        let session = try TmuxSession.plain(["--prompt-timeout", "5"])
        start(session, "1", "Username (? lists demo users):")
        session.type("alice")
        session.press("Enter")
        #expect(session.waitFor("Password (hidden; ? fills in alice's password):"))
        session.type("xyzzy")
        #expect(session.waitFor("Enter goes back (h history; q quits):"))
        session.type("q")
        #expect(session.waitFor("Enter goes back (h history; q quits): q"), "\(session.scrollback())")
        #expect(!session.scrollback().contains("xyzzy"))
    }

    /// What was typed at a question of text that timed out goes with it too: `ali` at the user name went on to the
    /// result's question, unseen, where Enter was refused ("(not an answer here)"), and a `q` left there quit.
    @Test func textTypedAtATimedOutQuestionGoesWithIt() throws {
        let session = try TmuxSession.plain(["--prompt-timeout", "5"])
        start(session, "1", "Username (? lists demo users):")
        session.type("ali")
        #expect(session.waitFor("Enter goes back (h history; q quits):"))
        session.press("Enter")
        let (back, screen) = session.waitUntil(scrollback: true) { $0.components(separatedBy: "\(PlainMenu.question) (q quits):").count == 3 }
        #expect(back, "Enter goes back: \(screen)")
        #expect(!screen.contains("(not an answer here)"), "\(screen)")
    }

    /// A card number typed before its question shows when the question comes, as typed there, and stays through a
    /// line that breaks it (the prompt's warning): it stayed unseen, and the warning dropped it.
    @Test func aCardNumberTypedAheadShowsAndOutlivesAWarning() throws {
        let session = try TmuxSession.plain(["--prompt-timeout", "12"])
        #expect(session.waitFor("\(PlainMenu.question) ("))
        session.send(bytes: "4\r4000 0000 0000 2503")
        #expect(session.waitFor("Card number: 4000 0000 0000 2503"), "\(session.scrollback())")
        #expect(session.waitFor("10 s left"))
        let (again, screen) = session.waitForLastLine("Card number:", endingWith: "4000 0000 0000 2503")
        #expect(again, "\(screen)")
        session.press("Enter")
        #expect(session.waitFor("Card number: •••• 2503\n"), "\(session.scrollback())")
        #expect(session.waitFor("Expiry"))
    }

    /// Esc and Enter in one write (a script's `sendline("\x1b")`) cancel, as a line holding Esc does piped: read as
    /// Alt-Enter, they did nothing and said nothing.
    @Test func escAndEnterInOneWriteCancel() throws {
        let session = try TmuxSession.plain()
        start(session, "1", "Username (? lists demo users):")
        session.send(bytes: "\u{1b}\r")
        #expect(session.waitFor("⊘ Activate device cancelled"), "\(session.scrollback())")
    }

    /// A choice typed in part shows again when a line breaks it (the prompt's warning), and what follows shows too.
    @Test func aChoiceTypedInPartShowsAgainAfterAWarning() throws {
        let session = try TmuxSession.plain(["--prompt-timeout", "12"])
        start(session, "4", "Card number:")
        session.send(bytes: "4000009900000020\r12/29\r\r\r\r")
        #expect(session.waitFor("Choose all that apply"))
        session.type("1, ")
        #expect(session.waitFor("10 s left"))
        session.type("3")
        let (shown, screen) = session.waitForLastLine("Choose all that apply", endingWith: "1, 3")
        #expect(shown, "\(screen)")
    }

    /// A number the menu takes (`01`) is shown as it takes it, not overwritten with "(not an answer here)".
    @Test func aNumberWithALeadingZeroIsShownAsTaken() throws {
        let session = try TmuxSession.plain()
        #expect(session.waitFor("\(PlainMenu.question) (q quits):"))
        session.type("01")
        session.press("Enter")
        #expect(session.waitFor("Username (? lists demo users):"))
        #expect(session.scrollback().contains("\(PlainMenu.question) (q quits): 1\n"), "\(session.scrollback())")
    }

    /// Wide characters are erased by the columns they take: `日本` left `日` before "(not an answer here)".
    @Test func wideCharactersAreErasedWhole() throws {
        let session = try TmuxSession.plain()
        #expect(session.waitFor("\(PlainMenu.question) (q quits):"))
        session.type("日本")
        session.press("Enter")
        #expect(session.waitFor("! choose a number from 1 to \(PlainMenu.count), f (faults), h (history), ? (help) or q"))
        #expect(session.scrollback().contains("\(PlainMenu.question) (q quits): (not an answer here)\n"), "\(session.scrollback())")
    }
}

/// Plain mode wraps its lines to the terminal's width at spaces, as dialog does: at 40 columns the terminal broke
/// words in two (`sdkState=ACTIVATION_REQUI` / `RED`), and a screen reader read the halves.
@Suite(.serialized) struct PlainWrappingTests {
    @Test func linesWrapAtSpacesToTheTerminalsWidth() throws {
        let session = try TmuxSession(width: 40, height: 30, command: [
            "sh", "-c", "trap '' INT; \"$0\" --plain --ephemeral; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _", TmuxSession.binary,
        ])
        #expect(session.waitFor("\(PlainMenu.question)"))
        session.type("1")
        session.press("Enter")
        #expect(session.waitFor("Username"))
        let rows = session.scrollback().components(separatedBy: "\n")
        #expect(rows.contains { $0.contains("sdkState=ACTIVATION_REQUIRED,") }, "a word whole on a row: \(rows)")
        // The working line's words whole too, its second part indented under the first.
        #expect(rows.contains { $0.hasPrefix("  ") && $0.contains("cancels)") }, "\(rows)")
        // A question wider than the terminal is wrapped too, its last line left open for the answer.
        for answer in ["alice", "wonderland"] {
            session.type(answer)
            session.press("Enter")
        }
        #expect(session.waitFor("code):"))
        let asked = session.scrollback().components(separatedBy: "\n")
        #expect(asked.contains { $0.split(separator: " ").contains("alice's") }, "\(asked)")
        session.type("123456")
        session.press("Enter")
        #expect(session.waitFor("Device activated"))
        session.press("C-c")
        #expect(session.waitForExit() == 130)
    }

    /// A plain session whose answers (`printf`'s format) are piped in while its output is a 40-column pane: the rows
    /// it left, once it ended.
    private func pipedAt40Columns(_ answers: String) throws -> [String] {
        let session = try TmuxSession(width: 40, height: 30, command: [
            "sh", "-c", "printf '\(answers)' | \"$0\" --plain --ephemeral; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _",
            TmuxSession.binary,
        ])
        #expect(session.waitFor(TmuxSession.exitMarker))
        return session.scrollback().components(separatedBy: "\n")
    }

    /// The KSSIDP comparison is laid out for a narrow terminal's width, not at 78 and then wrapped again (its
    /// continuation lines came out indented twice, an error code alone on a line); a wrapped line's rest is two
    /// more in than its start, once.
    @Test func theComparisonIsLaidOutForTheTerminalsWidth() throws {
        let rows = try pipedAt40Columns("\(PlainMenu.comparison)\\n\\nq\\n")
        #expect(rows.contains { $0.hasPrefix("      SetAuthorisationCode not sent") }, "\(rows)")
        #expect(!rows.contains { $0.hasPrefix("        SetAuthorisationCode not sent") }, "wrapped twice: \(rows)")
    }

    /// What is written after a question goes on from where the question ends: `(not an answer here)` after
    /// `Choose 1-9 (q quits): ` was wrapped as if it started a line, and the terminal broke `here)` in two.
    @Test func whatFollowsAQuestionWrapsFromWhereTheQuestionEnds() throws {
        let rows = try pipedAt40Columns("hello\\n9\\nq\\n")
        for word in ["(not", "answer", "here)"] {
            #expect(rows.contains { $0.split(separator: " ").contains(Substring(word)) }, "\(word) whole on a row: \(rows)")
        }
        #expect(rows.allSatisfy { CharacterWidth.of($0.trimmingCharacters(in: .whitespaces)) <= 40 })
    }
}
