import Foundation
import Testing

/// A plain session's transcript, piped: read top to bottom, as a screen reader reads it.
@Suite struct PlainPipedLinesTests {
    /// A line that goes from a form (the last card's hint, once another number is typed) needs no news: the form's
    /// heading was printed again in the middle of the form.
    @Test func aLineThatGoesDoesNotReprintTheForm() throws {
        let run = try BinaryRun.run(["--plain", "--ephemeral"],
                                    stdin: "4\n4000000000002503\n12/29\n\n\n\n1234\n\n\n4\n4000009900000012\n")
        let headings = run.stdout.components(separatedBy: "Pay with card (3-D Secure) — card details").count - 1
        #expect(headings == 2, "one heading a payment, not \(headings): \(run.stdout)")
        #expect(run.stdout.contains("Card number [•••• 2503]: •••• 0012\nExpiry (MM/YY) [12/29]:"), "\(run.stdout)")
    }

    /// A line of arrow keys typed ahead of a form's first question waits for it and is refused there, said: it was
    /// taken for a cancel while the flow worked, and dropped without a word. Piped, the refusal ends the session.
    @Test func anArrowKeysLineTypedAheadIsRefusedAtItsQuestion() throws {
        let run = try BinaryRun.run(["--plain", "--ephemeral"], stdin: "1\n\u{1b}[A\nalice\n")
        #expect(run.stdout.contains("Username (? lists demo users): \n! arrow and editing keys do not move the cursor here"), "\(run.stdout)")
        #expect(run.status == 2 && run.stderr.hasPrefix("idp-tui: piped answer to Username refused"), "\(run.status) \(run.stderr)")
    }

    /// Piped, an answer a field refuses ends the session (exit 2, one line on standard error naming the field), and
    /// the flow is cancelled and recorded: asked again, the field took the next line, meant for the next question,
    /// so a password landed as the user name, printed under it and kept in the history.
    @Test func aRefusedFieldEndsAPipedSessionBeforeTheNextLineIsTaken() throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["--plain", "--state", state], stdin: "1\n\nZq7secretPW\n123456\n\nq\n")
        #expect(run.status == 2, "\(run.stdout)")
        #expect(run.stdout.hasSuffix("Username (? lists demo users): \n! Fill in Username.\n"), "\(run.stdout)")
        #expect(run.stderr == "idp-tui: piped answer to Username refused (Fill in Username.): the session stops at it, so that no later "
                + "line answers the wrong question; Activate device aborted, recorded in the history\n", "\(run.stderr)")
        // Aborted for bad input, as `run` aborts a flow its answers cannot answer: not the user's cancel.
        let history = try BinaryRun.run(["--state", state, "history"])
        #expect(history.stdout.contains("activate  none  cancelled  ABORTED_BAD_INPUT"), "\(history.stdout)")
        for output in [run.stdout, run.stderr, history.stdout] { #expect(!output.contains("Zq7") && !output.contains("123456")) }
        // A card's field too: the expiry refused, the next line (the amount) is not taken for it.
        let payment = try BinaryRun.run(["--plain", "--ephemeral"], stdin: "4\n4000000000002701\n13/29\n12/29\n\n\n\nq\n")
        #expect(payment.status == 2 && payment.stderr.hasPrefix("idp-tui: piped answer to Expiry refused"), "\(payment.stderr)")
        #expect(payment.stdout.hasSuffix("Expiry (MM/YY): 13/29\n! Expiry (MM/YY): the month must be 01 to 12.\n"), "\(payment.stdout)")
    }

    /// A piped line refused at a user name (a control character, too long) may be anything pasted: it is not shown
    /// under its question, nor its length. A lone CR ends a line, as LF and CR LF do, and a tab after text, as Tab
    /// answers at a terminal: a name and password separated by a tab were one line, refused and shown whole.
    @Test func aRefusedLineIsNotShownAndALoneCROrATabEndsALine() throws {
        let controlled = try BinaryRun.run(["--plain", "--ephemeral"], stdin: "1\nzed\u{01}Zq7secretPW\n")
        #expect(controlled.stdout.contains("Username (? lists demo users): (not shown: it has control characters)\n! Username:"), "\(controlled.stdout)")
        let long = try BinaryRun.run(["--plain", "--ephemeral"], stdin: "1\n" + String(repeating: "z", count: 280) + " Zq7secretPW\n")
        #expect(long.stdout.contains("Username (? lists demo users): (not shown: too long)\n! Username:"), "\(long.stdout)")
        for run in [controlled, long] { #expect(!run.stdout.contains("Zq7") && !run.stderr.contains("Zq7")) }
        for input in ["1\ralice\rwonderland\r123456\r\rq\r", "1\nalice\twonderland\t\r\n123456\nq\n"] {
            let run = try BinaryRun.run(["--plain", "--ephemeral"], stdin: input)
            #expect(run.stdout.contains("✓ Device activated and logged in"), "\(input.debugDescription): \(run.stdout)")
            #expect(!run.stdout.contains("wonderland") && !run.stdout.contains("123456") && !run.stdout.contains("! "), "\(run.stdout)")
        }
    }

    /// Input with no line end (`/dev/zero`, a stream of letters) is refused once it passes the longest line, wherever
    /// it lands, at the menu too: the session waited on its question for ever, at full CPU, saying nothing. (`timeout`
    /// only keeps a regression from hanging the tests.)
    @Test(arguments: [("exec timeout 120 \"$0\" --plain --ephemeral < /dev/zero", "Choose 1-9", ""),
                      ("(printf '1\\n'; yes z | tr -d '\\n') | timeout 120 \"$0\" --plain --ephemeral", "Username", "; Activate device aborted")])
    func inputWithNoLineEndIsRefused(script: String, question: String, flow: String) throws {
        let run = try BinaryRun.run(["-c", script, BinaryRun.executable.path], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 2, "\(run.status) \(run.stderr)")
        #expect(run.stderr == "idp-tui: piped line longer than 4096 bytes at \(question): the session stops at it\(flow)\n", "\(run.stderr)")
        #expect(run.stdout.hasSuffix(": (not shown: too long)\n"), "\(run.stdout.suffix(200))")
    }

    /// A piped line that is not UTF-8 is refused, not read with U+FFFD in it: a password with a stray byte was sent to
    /// the IdP, refused, and cost one of the attempts before the account locks; a user name kept it in the history.
    @Test func aLineThatIsNotUTF8IsRefused() throws {
        let run = try BinaryRun.run(["-c", "printf '1\\nalice\\nwonder\\377land\\n123456\\n' | \"$0\" --plain --ephemeral", BinaryRun.executable.path],
                                    executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 2, "\(run.status) \(run.stderr)")
        #expect(run.stderr == "idp-tui: piped line that is not UTF-8 at Password: the session stops at it; Activate device aborted\n", "\(run.stderr)")
        #expect(run.stdout.hasSuffix("): (not shown: not UTF-8)\n") && !run.stdout.contains("POST /authorize"), "\(run.stdout)")
        #expect(!run.stdout.contains("wonder") && !run.stderr.contains("wonder"))
    }

    /// Once the ACS will send no more codes, the code's question stops offering resend, and `resend` is refused
    /// with why (the question still said `"resend" for a new one` under "0 resends left").
    @Test func noResendIsOfferedOnceNoneIsLeft() throws {
        let run = try BinaryRun.run(["--plain", "--ephemeral"],
                                    stdin: "4\n4000000000002503\n12/29\n\n\n\nresend\nresend\nresend\nresend\n1234\n\nq\n")
        #expect(run.stdout.hasSuffix("0 resends left · a new code was sent\nOne-time code (hidden): \n! type the one-time code: no more codes can be sent\n"),
                "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "\"resend\" for a new one").count - 1 == 3, "\(run.stdout)")
        // Piped, the refusal ends the session.
        #expect(run.status == 2 && run.stderr.hasPrefix("idp-tui: piped answer to One-time code refused"), "\(run.stderr)")
    }

    /// An Alt key (Esc and a letter), a title-setting OSC or a DCS string in a piped line are refused as the arrow
    /// keys are: each cancelled the flow, and the answers after it fell onto other questions. Refused, it ends the
    /// piped session (exit 2; a cancel's is 3), the next line not taken.
    @Test(arguments: ["al\u{1b}xice", "\u{1b}]0;title\u{07}", "\u{1b}Pq#0\u{1b}\\", "\u{1b}]0;no end", "al\u{1b}éice", "al\u{1b}\u{7f}",
                      "al\u{1b}[", "\u{1b}O"])
    func otherEscapeSequencesAreRefusedNotACancel(_ line: String) throws {
        let run = try BinaryRun.run(["--plain", "--ephemeral"], stdin: "1\n\(line)\nalice\n")
        #expect(run.stdout.contains("\n! arrow and editing keys do not move the cursor here"), "\(run.stdout)")
        #expect(run.status == 2 && run.stderr.hasPrefix("idp-tui: piped answer to Username refused"), "\(run.status) \(run.stderr)")
        #expect(!run.stdout.contains("cancelled") && !run.stdout.contains("Username (? lists demo users): alice"), "\(run.stdout)")
    }

    /// An Esc alone on its line, or with another Esc, still cancels.
    @Test(arguments: ["\u{1b}", "\u{1b}\u{1b}", "al\u{1b}"])
    func aLoneEscStillCancels(_ line: String) throws {
        let run = try BinaryRun.run(["--plain", "--ephemeral"], stdin: "1\n\(line)\n")
        #expect(run.stdout.contains("cancelled"), "\(run.stdout)")
    }
}
