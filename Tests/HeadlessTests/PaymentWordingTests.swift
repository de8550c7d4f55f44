import Foundation
import Testing

/// What a payment's result and log say, read as a user reads them: each fact once, and the same story in every
/// front end.
@Suite struct PaymentWordingTests {
    /// An A (attempts processing) is no authentication: the headline said "authenticated" over a row saying "not
    /// authenticated".
    @Test func anAttemptIsNotCalledAuthenticated() throws {
        let run = try BinaryRun.run(["--ephemeral", "--plain"], stdin: "4\n4000000000002719\n12/30\n\n\n\n\nq\n")
        #expect(run.stdout.contains("\n✓ Payment attempted without a challenge: a proof of attempt, not authenticated\n"), "\(run.stdout)")
        #expect(!run.stdout.contains("Payment authenticated"), "\(run.stdout)")
    }

    /// The lookup's Enrolled U and its Erro say what happened: "what happened" said both again above them.
    @Test func anUnavailableLookupSaysEachFactOnce() throws {
        let run = try BinaryRun.run(["--ephemeral", "--plain"], stdin: "4\n4000000000002990\n12/30\n\n\n\n\nq\n")
        // The result, after the log's lines (which carry the page's and the callback's messages whole).
        // Not "✗ … failed" where the merchant may authorise: not authenticated, which the rows say why.
        let result = try #require(run.stdout.components(separatedBy: "\n⚠ Pay with card (3-D Secure) not authenticated — AUTHENTICATION_UNAVAILABLE\n").dropFirst().last)
        #expect(result.contains("  Enrolled: U authentication unavailable at lookup · ECI 07\n"), "\(result)")
        #expect(result.components(separatedBy: "authentication unavailable at lookup").count == 2, "\(result)")
        #expect(!result.contains("what happened"), "\(result)")
    }

    /// Headless decides an out-of-band challenge on the other device first and then continues, as the terminal UI and
    /// plain mode do: its log had the app's answer ("approved on the other device") before the decision itself.
    @Test func headlessDecidesOnTheOtherDeviceThenContinues() throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--ephemeral"], stdin: #"{"card":"4000009900000038","expiry":"12/30","approve":true}"#)
        #expect(run.status == 0, "\(run.stderr)")
        let steps = run.events.compactMap { event -> String? in
            switch event["step"] as? String {
            case "out-of-band": "\(event["from"] ?? "") \(event["detail"] ?? "") on \(event["thread"] ?? "")"
            case "challenge screen" where event["from"] as? String == "App": "App \(event["detail"] ?? "")"
            default: nil
            }
        }
        #expect(steps == ["other device approved on other device", "App continue after the other device"], "\(steps)")
    }
}
