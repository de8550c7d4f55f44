import Foundation
import Testing

/// Plain mode's hidden answers, which a screen reader's user cannot hear back: a one-time code that is not digits,
/// and `?` at a password or code asked on the page that asks for the user name (session 51's tester).
@Suite struct PlainSecretAnswerTests {
    /// The card form answered for 2503 (a one-time code), then `answers` at the code.
    private func payWith2503(_ answers: String) throws -> BinaryRun {
        try BinaryRun.run(["--ephemeral"], stdin: "4\n4000000000002503\n12/30\n\n\n\n" + answers)
    }

    /// `resend` in any case asks for a new code: `Resend` was sent as the code and cost an attempt.
    @Test func resendIsTakenInAnyCase() throws {
        let run = try payWith2503("Resend\n1234\n\nq\n")
        #expect(run.stdout.contains("3 attempts left · 2 resends left"), "\(run.stdout)")
        #expect(!run.stdout.contains("wrong code"), "\(run.stdout)")
        #expect(run.stdout.contains("✓ Payment authenticated after a challenge"), "\(run.stdout)")
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// A code holding more than digits is not sent: plain mode says so (the terminal UI's hint says it before
    /// Enter), and the same answer again sends it; a code of digits after it is sent at once. It was sent silently,
    /// and cost an attempt.
    @Test func aCodeOfMoreThanDigitsIsSaidAndSentOnlyWhenGivenAgain() throws {
        let run = try payWith2503("abc\n12x4\n12x4\n1234\n\nq\n")
        let warning = "! what was typed holds more than digits (it is hidden) and was not sent: type the code, or the same again to send it as it is"
        #expect(run.stdout.components(separatedBy: warning).count == 3, "abc and the first 12x4: \(run.stdout)")
        // Only the second 12x4 reached the ACS: one attempt spent, not three.
        #expect(run.stdout.contains("wrong code; 2 attempts left"), "\(run.stdout)")
        #expect(!run.stdout.contains("1 attempt left") && !run.stdout.contains("0 attempts left"), "\(run.stdout)")
        #expect(run.stdout.contains("✓ Payment authenticated after a challenge"), "\(run.stdout)")
        #expect(!run.stdout.contains("12x4") && !run.stdout.contains("abc\n"), "a hidden answer was printed: \(run.stdout)")
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// `?` at the password asked under the user name fills in that user's password, as page 2's `?` fills in its
    /// code and F4 fills the user typed: it was sent as the password, and cost an attempt.
    @Test func aQuestionMarkAtThePasswordFillsInTheTypedUsers() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "1\nalice\n?\n\n123456\n\nq\n")
        #expect(run.stdout.contains("Password (hidden; ? fills in alice's password): \nFilled in demo user alice: password (not shown).\nSubmit?"),
                "\(run.stdout)")
        #expect(run.stdout.contains("✓ Device activated and logged in") && !run.stdout.contains("WRONG_CREDENTIALS"), "\(run.stdout)")
        #expect(!run.stdout.contains("wonderland") && !run.stdout.contains("123456"))
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// At KSSIDP's activation code, on the user name's page, `?` fills in the code of the user typed: it listed every
    /// user, and the one picked (alice, the first) replaced bob, who was typed.
    @Test func aQuestionMarkAtACodeOnTheUserNamesPageKeepsTheUserTyped() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "6\nbob\nbuilder\n?\n\n\nq\n")
        #expect(run.stdout.contains("Activation code (hidden; ? fills in bob's code): \nFilled in demo user bob: activation code (not shown).\nSubmit?"),
                "\(run.stdout)")
        #expect(!run.stdout.contains("Demo users of tenant"), "\(run.stdout)")
        #expect(run.stdout.contains("(device: logged in as bob; "), "\(run.stdout)")
        #expect(!run.stdout.contains("builder") && !run.stdout.contains("654321"))
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// A name that is no demo user's gets no secret from `?`, and `?` is not sent as the password: refused (piped,
    /// the refusal ends the session), and the question says nothing of `?`.
    @Test func aQuestionMarkAfterANameThatIsNoDemoUsersIsRefused() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "1\nmallory\n?\nwonderland\n\nq\n")
        #expect(run.stdout.contains("Password (hidden): \n! the user name typed is no demo user's: ? fills in only a demo user's password; type it"),
                "\(run.stdout)")
        #expect(run.status == 2 && run.stderr.hasPrefix("idp-tui: piped answer to Password refused"), "\(run.stderr)")
        #expect(!run.stdout.contains("POST /authorize"), "no password was sent: \(run.stdout)")
    }
}
