import Foundation
import Testing

/// A flow that asks nothing leaves its answers unused: a script that gave a wrong password or `cancel` to a login
/// that OfflineLogin completed got a success and nothing said (a QA tester's report). A note on stderr names the
/// keys, never their values, and why; the exit status is the flows'.
@Suite struct UnusedAnswersTests {
    static let activation = #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#

    @Test(arguments: [
        (#"{"username":"bob","password":"s3cr3t-typo"}"#, #"idp-tui: run: answers[2] (login): "password", "username" not used: OfflineLogin logged the device's user in without asking"#),
        (#"{"cancel":true}"#, #"idp-tui: run: answers[2] (login): "cancel" not used: OfflineLogin logged the device's user in without asking"#),
        (#"{"username":"alice","password":"s3cr3t-typo","cancel":true}"#,
         #"idp-tui: run: answers[2] (login): "cancel", "password", "username" not used: OfflineLogin"#),
    ])
    func answersAnOfflineLoginNeverAskedForAreNoted(_ login: String, _ note: String) throws {
        let run = try BinaryRun.run(["run", "activate", "logout", "login", "--ephemeral", "--auth-mode", "password"],
                                    stdin: "[\(Self.activation),{},\(login)]")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.results.last?["offline"] as? Bool == true)
        #expect(run.stderr.hasPrefix(note), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(!run.stderr.contains("s3cr3t-typo") && !run.stdout.contains("s3cr3t-typo"))
    }

    /// Keys a successful flow's forms never asked for are noted too, by name: `new-password` and
    /// `current-password` for a login the IdP never asked to change its password passed with nothing said.
    @Test func keysNoFormAskedForAreNoted() throws {
        let run = try BinaryRun.run(["run", "activate", "login", "--ephemeral"],
                                    stdin: #"[\#(Self.activation),{"username":"alice","password":"wonderland","new-password":"N3w-pw-leak","current-password":"Cur-pw-leak"}]"#)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == #"idp-tui: run: answers[1] (login): "current-password", "new-password" not used: no form of the flow asked for them"# + "\n")
        #expect(!(run.stderr + run.stdout).contains("pw-leak"))
    }

    /// Answers the flow used, and a logout's `cancel` (documented to change nothing), say nothing.
    @Test func usedAnswersAndALogoutsCancelAreNotNoted() throws {
        let run = try BinaryRun.run(["run", "activate", "logout", "login", "--ephemeral"],
                                    stdin: #"[\#(Self.activation),{"cancel":true},{"username":"alice","password":"wonderland"}]"#)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.results.last?["offline"] == nil)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    /// A payment's answers for a challenge it never met: a code for a frictionless card, an approval for a code
    /// challenge (accepted in silence). Keys only: the code never shows.
    @Test(arguments: [
        (#"{"card":"4000000000002701","expiry":"12/30","otp":"97531","challengeDelay":2}"#,
         #"idp-tui: run: answers (payer-auth): "otp", "challengeDelay" not used: its card meets no challenge"#),
        (#"{"card":"4000000000002503","expiry":"12/30","otp":"1234","approve":true,"choices":["x"]}"#,
         #"idp-tui: run: answers (payer-auth): "choices", "approve" not used: its card's challenge is text (one-time code)"#),
        (#"{"card":"4000000000002701","expiry":"12/30","cancel":"challenge"}"#,
         #"idp-tui: run: answers (payer-auth): "cancel" not used: its card meets no challenge"#),
    ])
    func paymentAnswersForAChallengeItNeverMetAreNoted(_ answers: String, _ note: String) throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--ephemeral"], stdin: answers)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == note + "\n", "\(run.stderr)")
        #expect(!run.stderr.contains("97531"))
    }

    /// Every payment answer used: nothing said; nor of the code a card's own challenge asks for, when a fault ended
    /// the payment before it (the answers' check asks for it whatever the faults).
    @Test func aChallengePaymentThatUsedItsCodeSaysNothing() throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--ephemeral"], stdin: #"{"card":"4000000000002503","expiry":"12/30","otp":"1234","challengeDelay":1}"#)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        let faulted = try BinaryRun.run(["run", "payer-auth", "--ephemeral"],
                                        stdin: #"{"card":"4000000000002503","expiry":"12/30","otp":"1234","faults":{"threeDS":{"acs":"malformed"}}}"#)
        #expect(faulted.status == 1, "\(faulted.stderr)")
        #expect(faulted.stderr.isEmpty, "\(faulted.stderr)")
    }

    /// An expired card is answered N at lookup, challenge card or not: its code is noted as unused.
    @Test func anExpiredChallengeCardsCodeIsNoted() throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--ephemeral"], stdin: #"{"card":"4000000000002503","expiry":"01/20","otp":"1234"}"#)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr == #"idp-tui: run: answers (payer-auth): "otp" not used: its card meets no challenge"# + "\n", "\(run.stderr)")
    }

    /// A payment that ended before its card form (the page never ready, no network) still says which answers were
    /// for a challenge its card never has.
    @Test(arguments: [["--bridge-fault", "ready-never-comes"], ["--bridge-fault", "wrong-origin"]])
    func aPaymentEndedBeforeItsCardFormStillNotesItsUnusedAnswers(_ fault: [String]) throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--ephemeral"] + fault, stdin: #"{"card":"4000000000002701","expiry":"12/30","otp":"97531"}"#)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr == #"idp-tui: run: answers (payer-auth): "otp" not used: its card meets no challenge"# + "\n", "\(run.stderr)")
    }
}
