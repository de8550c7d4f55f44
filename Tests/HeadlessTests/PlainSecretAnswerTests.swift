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
}
