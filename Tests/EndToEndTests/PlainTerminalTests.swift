import Foundation
import Testing

/// Plain mode at a terminal (`--plain` in tmux): Ctrl-D is a key there, as Esc is — it cancels the flow and the
/// session goes on; at a resting screen it quits.
@Suite(.serialized) struct PlainTerminalTests {
    private func plainSession(_ arguments: [String] = []) throws -> TmuxSession {
        try TmuxSession.plain(arguments)
    }

    /// Plain mode on a state file of its own (in a fresh folder), and the file's path; the caller removes the folder.
    private func plainSessionWithState() throws -> (TmuxSession, String) {
        let state = NSTemporaryDirectory() + "idp-tui-e2e-\(UUID().uuidString)/state.sqlite"
        let session = try TmuxSession(command: [
            "sh", "-c", "trap '' INT; \"$0\" --plain --state \"$1\"; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _",
            TmuxSession.binary, state,
        ])
        return (session, state)
    }

    /// The session's lines so far, trimmed.
    private func scrollbackLines(_ session: TmuxSession) -> [String] {
        session.scrollback().components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The menu, then Activate device's first question.
    private func startActivation(_ session: TmuxSession) {
        #expect(session.waitFor("\(PlainMenu.question) (q quits):"))
        session.type("1")
        session.press("Enter")
        #expect(session.waitFor("Username (? lists demo users):"))
    }

    /// The menu (whose question counts the faults on: "Choose 1-9 (1 fault on; q quits)"), then Pay with card's
    /// first question.
    private func startPayment(_ session: TmuxSession) {
        #expect(session.waitFor("\(PlainMenu.question) ("))
        session.type("4")
        session.press("Enter")
        #expect(session.waitFor("Card number:"))
    }

    /// Questions a line each, secrets typed unseen, Ctrl-C quits (exit 130).
    @Test func plainModeAsksLineByLineWithSecretsHidden() throws {
        let session = try plainSession()
        startActivation(session)
        for (answer, next) in [("alice", "Password (hidden; ? fills in alice's password):"), ("wonderland", "Activation code (hidden; ? fills in alice's code):"),
                               ("123456", "✓ Device activated and logged in")] {
            session.type(answer)
            session.press("Enter")
            #expect(session.waitFor(next))
        }
        let screen = session.scrollback()
        #expect(!screen.contains("wonderland") && !screen.contains("123456"), "a secret was echoed")
        #expect(!screen.contains("┌"), "no box drawing")
        session.press("C-c")
        #expect(session.waitForExit() == 130)
    }

    /// Ctrl-C in the middle of a flow says what it stopped, and the flow is in the history as cancelled: it quit with
    /// nothing said and the flow in no history (a QA tester's report).
    @Test func ctrlCInAFlowSaysWhatItStoppedAndRecordsIt() throws {
        let (session, state) = try plainSessionWithState()
        defer { try? FileManager.default.removeItem(atPath: (state as NSString).deletingLastPathComponent) }
        #expect(session.waitFor("\(PlainMenu.question) (q quits):"))
        session.type("1")
        session.press("Enter")
        #expect(session.waitFor("Username (? lists demo users):"))
        session.type("alice")
        session.press("Enter")
        #expect(session.waitFor("Password (hidden; ? fills in alice's password):"))
        session.type("wonder")
        session.press("C-c")
        #expect(session.waitFor("idp-tui: interrupted: Activate device cancelled, recorded in the history"), "\(session.scrollback())")
        #expect(session.waitForExit() == 130)
        #expect(!session.scrollback().contains("wonder"), "a secret was echoed")
        let history = Process()
        history.executableURL = URL(fileURLWithPath: TmuxSession.binary)
        history.arguments = ["history", "--state", state]
        let output = Pipe()
        history.standardOutput = output
        history.standardError = FileHandle.nullDevice
        try history.run()
        let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        history.waitUntilExit()
        #expect(listed.contains("activate") && listed.contains("cancelled"), "\(listed)")
    }

    /// Pays with a challenge card, presses Ctrl-C at its one-time code, and expects the payment recorded and exit 130.
    private func interruptAtAChallengeAndExpectItRecorded(_ session: TmuxSession) {
        startPayment(session)
        for (answer, next) in [("4000000000002503", "Expiry"), ("12/30", "Amount"), ("", "Currency"), ("", "Merchant"),
                               ("", "One-time code")] {
            session.type(answer)
            session.press("Enter")
            #expect(session.waitFor(next), "\(session.scrollback())")
        }
        session.press("C-c")
        #expect(session.waitFor("idp-tui: interrupted: Pay with card (3-D Secure) cancelled, recorded"), "\(session.scrollback())")
        #expect(session.waitForExit() == 130)
    }

    /// Ctrl-C at a payment's challenge records the payment too: its end runs on the main queue (the delegate's
    /// callback), which the wait for the record now serves (it waited 2 s and said "not recorded").
    @Test func ctrlCAtAChallengeRecordsThePayment() throws {
        let (session, state) = try plainSessionWithState()
        defer { try? FileManager.default.removeItem(atPath: (state as NSString).deletingLastPathComponent) }
        interruptAtAChallengeAndExpectItRecorded(session)
    }

    /// Ctrl-C at a challenge whose ACS is slow: the cancel's CReq (challengeCancel 01) waits 5 s for the ACS, longer
    /// than the 2 s an interrupt waits for the record; after a second the payment's awaited end is cut short, as a
    /// cancel in flight is, and the payment is recorded (it said "not recorded", and the history had no row).
    @Test func ctrlCAtAChallengeWithASlowACSRecordsThePaymentToo() throws {
        let folder = try PlainSlowCancelTests.slowACSFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = folder + "/state.sqlite"
        let session = try TmuxSession(command: [
            "sh", "-c", "trap '' INT; \"$0\" --plain --state \"$1\" --scenario \"$2\"; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _",
            TmuxSession.binary, state, folder + "/slow-acs.json",
        ])
        interruptAtAChallengeAndExpectItRecorded(session)
    }

    /// Before a prompt times out plain mode says how long is left, on a line of its own, and asks again with what was
    /// typed (it said nothing until the timeout: a screen-reader user could not see it coming).
    @Test func aPromptAboutToTimeOutSaysSo() throws {
        let session = try plainSession(["--prompt-timeout", "11"])
        startActivation(session)
        session.type("ali")
        #expect(session.waitFor("! 10 s left to answer, then the prompt times out"), "\(session.scrollback())")
        let lines = scrollbackLines(session)
        let warned = try #require(lines.firstIndex { $0.hasPrefix("! 10 s left") })
        #expect(lines.dropFirst(warned + 1).contains { $0.hasPrefix("Username (? lists demo users):") && $0.hasSuffix("ali") }, "\(lines)")
        session.type("ce")
        session.press("Enter")
        #expect(session.waitFor("Password (hidden; ? fills in alice's password):"))
        session.press("C-d")
    }

    /// Events that come while a question waits (here the prompt's own timeout) start on a line of their own: the
    /// question and what was typed keep theirs.
    @Test func eventsWhileAQuestionWaitsStartOnALineOfTheirOwn() throws {
        let session = try plainSession(["--prompt-timeout", "1"])
        startActivation(session)
        session.type("ali")
        #expect(session.waitFor("✗ Activate device failed — PROMPT_TIMEOUT"))
        let lines = scrollbackLines(session)
        let asked = try #require(lines.firstIndex { $0.hasPrefix("Username (? lists demo users):") }, "\(lines)")
        #expect(lines[asked] == "Username (? lists demo users): ali", "\(lines)")
        #expect(lines[asked + 1].hasPrefix("→ IdpSdk  provideCredentials") && lines[asked + 1].contains("PROMPT_TIMEOUT"), "\(lines)")
        session.press("C-c")
        #expect(session.waitForExit() == 130)
    }

    /// A password typed in part when its question goes (the prompt timed out) is dropped with it: it is not shown
    /// under the next question, nor taken as that question's answer.
    @Test func aSecretTypedInPartGoesWithItsQuestion() throws {
        let session = try plainSession(["--prompt-timeout", "1"])
        startActivation(session)
        session.type("alice")
        session.press("Enter")
        #expect(session.waitFor("Password (hidden; ? fills in alice's password):"))
        session.type("wonder")
        #expect(session.waitFor("✗ Activate device failed — PROMPT_TIMEOUT"))
        #expect(session.waitFor("Enter goes back (h history; q quits):"))
        let lines = scrollbackLines(session)
        #expect(!lines.contains { $0.contains("wonder") }, "\(lines)")
        #expect(lines.last { !$0.isEmpty } == "Enter goes back (h history; q quits):", "\(lines)")
        session.type("q")
        session.press("Enter")
        #expect(session.waitForExit() == 0, "q quit: nothing typed before it was left on the line")
    }

    /// The same with the password pasted together with the user name, without its Enter: it is the password
    /// question's from when that question comes, and goes with it.
    @Test func aSecretPastedAheadGoesWithItsQuestion() throws {
        let session = try plainSession(["--prompt-timeout", "1"])
        startActivation(session)
        session.paste("alice\nwonder")
        #expect(session.waitFor("Password (hidden; ? fills in alice's password):"))
        #expect(session.waitFor("Enter goes back (h history; q quits):"))
        let lines = scrollbackLines(session)
        #expect(!lines.contains { $0.contains("wonder") }, "\(lines)")
        session.type("q")
        session.press("Enter")
        #expect(session.waitForExit() == 0, "q quit: nothing pasted before it was left on the line")
    }

    /// A code pasted ahead of a question that would not show it (the demo user's number and a code, the code
    /// falling on Submit once the demo user has filled it in) stays unseen there, and is refused, not taken.
    @Test func textPastedAheadOfAQuestionThatWouldNotShowItStaysUnseen() throws {
        let session = try plainSession()
        startActivation(session)
        session.type("?")
        session.press("Enter")
        #expect(session.waitFor("Demo user (1-2 or a name; Enter for none):"))
        session.paste("1\n123456")
        #expect(session.waitFor("Submit? (Enter; Esc cancels)"))
        session.press("Enter")
        #expect(session.waitFor("! Enter submits; Esc cancels"))
        let lines = scrollbackLines(session)
        #expect(!lines.contains { $0.contains("123456") }, "\(lines)")
        #expect(lines.contains("Submit? (Enter; Esc cancels) (not an answer here)"), "\(lines)")
        session.press("C-c")
        #expect(session.waitForExit() == 130)
    }

    @Test func ctrlDAtAPromptCancelsAndTheSessionGoesOn() throws {
        let session = try plainSession()
        startActivation(session)
        session.type("alice")
        session.press("Enter")
        #expect(session.waitFor("Password (hidden; ? fills in alice's password):"))
        session.press("C-d")
        #expect(session.waitFor("⊘ Activate device cancelled"))
        // Still running: Enter goes back to the menu, where a second Ctrl-D quits.
        session.press("Enter")
        let (menu, screen) = session.waitUntil { screen in
            guard let result = screen.range(of: "⊘ Activate device cancelled"), let choose = screen.range(of: "\(PlainMenu.question) (q quits):",
                                                                                                       options: .backwards)
            else { return false }
            return choose.lowerBound > result.upperBound
        }
        #expect(menu, "\(screen)")
        session.press("C-d")
        #expect(session.waitForExit() == 0)
    }

    /// Ctrl-D at the history's question goes back to the menu, as Esc does there (it quit the session, and under
    /// --ephemeral the history with it); at the menu it quits.
    @Test func ctrlDAtTheHistoryQuestionGoesBackToTheMenu() throws {
        let session = try plainSession()
        #expect(session.waitFor("\(PlainMenu.question) (q quits):"))
        session.type("3")
        session.press("Enter")
        #expect(session.waitFor("Enter goes back (h history; q quits):"))
        session.press("Enter")
        #expect(session.waitFor("h History: past flows"))
        session.type("h")
        session.press("Enter")
        #expect(session.waitFor("Show which flow? (its ID; h lists them; Enter goes back):"))
        session.press("C-d")
        let (menu, screen) = session.waitUntil(scrollback: true) { $0.components(separatedBy: "What would you like to do?").count == 4 }
        #expect(menu, "the menu is printed again: \(screen)")
        session.press("C-d")
        #expect(session.waitForExit() == 0)
    }

    /// Ctrl-D on a hidden question with text typed does nothing, as in a shell, but says why and asks again: the
    /// text is kept (Enter submits it) and nothing of it shows.
    @Test func ctrlDOnHiddenTextSaysWhyAndShowsNothingOfIt() throws {
        let session = try plainSession()
        startActivation(session)
        session.type("alice")
        session.press("Enter")
        #expect(session.waitFor("Password (hidden; ? fills in alice's password):"))
        session.type("wonderland")
        session.press("C-d")
        let hint = "! Ctrl-D cancels only on an empty line; Ctrl-U clears, Esc cancels"
        let (asked, screen) = session.waitUntil { screen in
            guard let said = screen.range(of: hint) else { return false }
            return screen[said.upperBound...].contains("Password (hidden; ? fills in alice's password):")
        }
        #expect(asked, "\(screen)")
        session.press("Enter")
        #expect(session.waitFor("Activation code (hidden; ? fills in alice's code):"))
        session.type("12")
        session.press("C-d")
        #expect(session.waitUntil { $0.components(separatedBy: hint).count == 3 }.0)
        session.type("3456")
        session.press("Enter")
        #expect(session.waitFor("✓ Device activated and logged in"))
        let scrollback = session.scrollback()
        #expect(!scrollback.contains("wonderland") && !scrollback.contains("123456") && !scrollback.contains("12\n"),
                "a secret was shown: \(scrollback)")
        session.type("q")
        session.press("Enter")
        #expect(session.waitForExit() == 0)
    }

    @Test func ctrlDCancelsAFlowThatIsWorking() throws {
        // The lookup-timeout card keeps the payment working for seconds: Ctrl-D ends it at once.
        let session = try plainSession()
        startPayment(session)
        for answer in ["4000000000002354", "1230", "", "", ""] {
            if !answer.isEmpty { session.type(answer) }
            session.press("Enter")
        }
        // The payment's lookup is under way (the second "working…": the first came before the form).
        let (working, screen) = session.waitUntil(scrollback: true) { $0.components(separatedBy: "working… (Esc or Ctrl-D cancels)").count > 2 }
        #expect(working, "\(screen)")
        session.press("C-d")
        #expect(session.waitFor("⊘ Pay with card (3-D Secure) cancelled", timeout: .seconds(5)))
        session.type("q")
        session.press("Enter")
        #expect(session.waitForExit() == 0)
    }

    /// A card number shows while it is typed and is left on the terminal masked (it stayed whole in the scrollback,
    /// where a piped session's log masks it).
    @Test func aTypedCardNumberIsLeftMasked() throws {
        let session = try plainSession()
        startPayment(session)
        session.type("4000000000002503")
        #expect(session.waitFor("4000000000002503"), "it shows while typed")
        session.press("Enter")
        #expect(session.waitFor("Expiry"))
        let lines = scrollbackLines(session)
        #expect(lines.contains { $0.hasPrefix("Card number") && $0.hasSuffix("•••• 2503") }, "\(lines)")
        #expect(!session.scrollback().contains("4000000000002503"), "\(session.scrollback())")
        session.press("C-d")
        #expect(session.waitFor("⊘ Pay with card (3-D Secure) cancelled", timeout: .seconds(5)))
        session.type("q")
        session.press("Enter")
        #expect(session.waitForExit() == 0)
    }

    /// Esc on a card number typed in part erases it before the cancel: none of it stays on the terminal.
    @Test func aCardNumberTypedInPartIsErasedByEsc() throws {
        let session = try plainSession()
        startPayment(session)
        session.type("4000000000")
        #expect(session.waitFor("4000000000"), "it shows while typed")
        session.press("Escape")
        #expect(session.waitFor("⊘ Pay with card (3-D Secure) cancelled", timeout: .seconds(5)))
        #expect(!session.scrollback().contains("4000000000"), "\(session.scrollback())")
        session.type("q")
        session.press("Enter")
        #expect(session.waitForExit() == 0)
    }

    /// A user name, password and activation code pasted at once at the user name question: plain mode edits and echoes lines
    /// itself, so the lines pasted ahead are not shown, and each secret answers its own hidden question.
    @Test func answersPastedAheadShowNoSecret() throws {
        let session = try plainSession()
        startActivation(session)
        session.paste("alice\nwonderland\n123456\n")
        #expect(session.waitFor("✓ Device activated and logged in"))
        let scrollback = session.scrollback()
        #expect(scrollback.contains("Username (? lists demo users): alice"))
        #expect(!scrollback.contains("wonderland") && !scrollback.contains("123456"), "a secret was shown: \(scrollback)")
        session.type("q")
        session.press("Enter")
        #expect(session.waitForExit() == 0)
    }

    /// `?` at the user name fills in a demo user chosen by number, and at the (hidden) activation code that
    /// user's code: the device is activated, and nothing on the terminal shows its password or activation code.
    @Test func aQuestionMarkFillsInADemoUserUnseen() throws {
        let session = try plainSession()
        startActivation(session)
        for (answer, next) in [("?", "Demo user (1-2 or a name; Enter for none):"), ("1", "Submit? (Enter; Esc cancels)"),
                               ("", "Activation code (hidden; ? fills in alice's code):")] {
            if !answer.isEmpty { session.type(answer) }
            session.press("Enter")
            #expect(session.waitFor(next))
        }
        session.type("?")
        session.press("Enter")
        #expect(session.waitFor("Filled in demo user alice: activation code (not shown)."))
        session.press("Enter")
        #expect(session.waitFor("✓ Device activated and logged in"))
        let scrollback = session.scrollback()
        for secret in ["wonderland", "123456", "builder", "654321"] { #expect(!scrollback.contains(secret), "\(secret) was shown") }
        session.type("q")
        session.press("Enter")
        #expect(session.waitForExit() == 0)
    }

    /// Backspace edits the line; arrow keys are dropped whole rather than typed or taken as Esc.
    @Test func backspaceEditsAndArrowKeysAreDropped() throws {
        let session = try plainSession()
        startActivation(session)
        session.type("alx")
        session.press("BSpace")
        session.press("Left")
        session.press("Right")
        session.type("ice")
        #expect(session.waitFor("Username (? lists demo users): alice"))
        session.press("Enter")
        #expect(session.waitFor("Password (hidden; ? fills in alice's password):"))
        #expect(!session.screen().contains("[D"), "an arrow key was typed")
        session.press("Escape")
        #expect(session.waitFor("⊘ Activate device cancelled"))
    }
}
