import Foundation
import Testing

/// `choices` names each option once: the same option twice (by number or by its text) is bad input, found before
/// the payment starts, whatever challenge the card meets. `[3,3]` passed a single-select challenge as one choice, and `[1,1,3]`
/// a multi-select one.
@Suite struct RepeatedChoiceTests {
    @Test(arguments: [
        (#"{"card":"4000009900000012","expiry":"12/30","choices":[3,3]}"#,
         "idp-tui: run: answers.choices[1] picks the same option as choices[0]; give each option once (line 1, column 58)"),
        (#"{"card":"4000009900000020","expiry":"12/30","choices":[1,1,3]}"#,
         "idp-tui: run: answers.choices[1] picks the same option as choices[0]; give each option once (line 1, column 58)"),
        (#"{"card":"4000009900000020","expiry":"12/30","choices":[1,3,"bookshop"]}"#,
         "idp-tui: run: answers.choices[2] picks the same option as choices[0]; give each option once (line 1, column 60)"),
        // Written twice is refused whatever the card's challenge: a text challenge's card passed [3,3] in silence.
        (#"{"card":"4000000000002503","expiry":"12/30","otp":"1234","choices":[3,3]}"#,
         "idp-tui: run: answers.choices[1] picks the same option as choices[0]; give each option once (line 1, column 71)"),
        (#"{"card":"4000000000002503","expiry":"12/30","otp":"1234","choices":["Bookshop","bookshop"]}"#,
         "idp-tui: run: answers.choices[1] picks the same option as choices[0]; give each option once (line 1, column 80)"),
    ])
    func theSameOptionTwiceExitsTwo(_ stdin: String, _ message: String) throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--ephemeral"], stdin: stdin)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == message + "\n", "\(run.stderr)")
        #expect(run.events.isEmpty, "found before the payment starts")
    }

    @Test func differentOptionsStillPass() throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--ephemeral"], stdin: #"{"card":"4000009900000020","expiry":"12/30","choices":[1,3]}"#)
        #expect(run.status == 0, "\(run.stderr)")
    }
}
