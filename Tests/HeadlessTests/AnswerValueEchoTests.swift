import Foundation
import Testing

/// An error about the answers names the place and its line and column, never the text that was there: a value
/// (a currency is as much a value as a password) or a password written without its quotes or with a bad escape.
@Suite struct AnswerValueEchoTests {
    /// A currency idp-tui knows to have other decimals is named (from its own list, never the text as typed) with
    /// why it is refused; PKR, Safepay's market's, is taken.
    @Test func aCurrencyWithOtherDecimalsSaysSoAndRupeesAreTaken() throws {
        let yen = try BinaryRun.run(["run", "payer-auth", "--ephemeral"], stdin: #"{"card":"4000000000002701","expiry":"12/30","currency":"jpy"}"#)
        #expect(yen.status == 2)
        #expect(yen.stderr.hasPrefix("idp-tui: run: answers.currency: JPY has no decimals; idp-tui's amounts have two"), "\(yen.stderr)")
        let rupees = try BinaryRun.run(["run", "payer-auth", "--ephemeral"],
                                       stdin: #"{"card":"4000000000002701","expiry":"12/30","currency":"PKR","amount":"1500.00"}"#)
        #expect(rupees.status == 0, "\(rupees.stderr)")
        #expect((rupees.results.first?["payment"] as? [String: Any])?["amount"] as? String == "PKR 1500.00", "\(rupees.stdout)")
    }

    @Test(arguments: [
        (["payer-auth"], #"{"card":"4000000000002503","expiry":"12/30","currency":"qqleak"}"#,
         "idp-tui: run: answers.currency: give a three-letter ISO 4217 code such as EUR or USD (line 1, column 56)", "qqleak"),
        (["payer-auth"], #"{"card":"4000000000002503","expiry":"12/30","currency":"qqq"}"#,
         "idp-tui: run: answers.currency: not a currency taken here; try EUR, USD, GBP or PKR (docs/payer-authentication.md lists all 36) (line 1, column 56)", "QQQ"),
        (["activate"], #"{"username":"carol","password":LeakPw0006}"#,
         "idp-tui: run: answers are not valid JSON: unquoted text where a value should be (a string goes in double quotes) at line 1, column 32",
         "L"),
        (["login"], #"{"username":"alice","password":"x\qLeak"}"#,
         #"idp-tui: run: answers are not valid JSON: an unknown escape in a string (after a backslash JSON takes " \ / b f n r t or u) at line 1, column 36"#,
         #"\q"#),
        (["login"], #"{"username":"alice","password":12345678901234567890e999}"#,
         "idp-tui: run: answers: a number beyond what a double holds (about 1.8e308) at line 1, column 32", "1234567890"),
    ] as [([String], String, String, String)])
    func theErrorNamesThePlaceNotTheText(_ flows: [String], _ stdin: String, _ message: String, _ leak: String) throws {
        let run = try BinaryRun.run(["run"] + flows + ["--ephemeral"], stdin: stdin)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == message + "\n", "\(run.stderr)")
        #expect(!run.stderr.contains(leak))
    }
}
