import Foundation
import Testing

/// Every answers error found before a flow runs names its line and column: the count of objects (at the document),
/// a field the object lacks (at the object), and what `choices` holds (at the array).
@Suite struct AnswerPositionTests {
    @Test(arguments: [
        (["activate"], "[]", "answers: 0 objects for 1 flow; give one object per flow, in order (line 1, column 1)"),
        (["activate", "login"], "\n  {}", "answers: one object for 2 flows; give an array with one object per flow, in order (line 2, column 3); objects one a line are not read one a flow: wrap them with jq -s ."),
        // Objects one a line (JSON Lines, as the output is) are told how to be given; junk after one object is not.
        (["activate", "login"], "{\"username\":\"a\"}\nxyz", "answers are not valid JSON: unexpected text after the JSON value at line 2, column 1"),
        // Objects one a line:
        (["activate", "login"], "{\"username\":\"a\"}\n{\"username\":\"b\"}\n", "answers are not valid JSON: unexpected text after the JSON value at line 2, column 1; several answers objects go in one array, one object per flow (JSON Lines: wrap them with jq -s .)"),
        (["payer-auth"], #"{"card":"4000000000002701"}"#, #"answers (payer-auth) needs "card" and "expiry" for the card form (line 1, column 1)"#),
        (["activate", "payer-auth"], #"[{}, {"expiry":"12/30"}]"#, #"answers[1] (payer-auth) needs "card" and "expiry" for the card form (line 1, column 6)"#),
        (["payer-auth"], #"{"card":"4000000000002503","expiry":"12/30"}"#,
         #"answers (payer-auth) has no "otp", which the one-time-code challenge asks for (line 1, column 1)"#),
        (["payer-auth"], #"{"card":"4000009900000038","expiry":"12/30"}"#,
         #"answers (payer-auth) has no "approve" (true or false), which the out-of-band challenge asks for (line 1, column 1)"#),
        (["payer-auth"], #"{"card":"4000009900000012","expiry":"12/30"}"#, #"(options: Amsterdam, Berlin, Lisbon) (line 1, column 1)"#),
        (["payer-auth"], #"{"card":"4000009900000012","expiry":"12/30","choices":[1,2]}"#,
         "answers.choices: the single-select challenge takes exactly one choice, not 2 (line 1, column 55)"),
        (["payer-auth"], #"{"card":"4000009900000012","expiry":"12/30","choices":[9]}"#,
         "answers.choices: the challenge's options are 1 Amsterdam, 2 Berlin, 3 Lisbon (line 1, column 55)"),
        // The amount takes a number too, and says so.
        (["payer-auth"], #"{"card":"4000000000002701","expiry":"12/30","amount":true}"#, "answers.amount must be a string or a number (line 1, column 54)"),
        (["payer-auth"], #"{"card":"4000000000002503","expiry":"12/30","otp":["1234","12\u001b34"]}"#,
         "answers.otp[1] must be a code of 1 to 16 bytes, without control characters (line 1, column 59)"),
    ] as [([String], String, String)])
    func anErrorFoundBeforeTheRunNamesItsPosition(_ flows: [String], _ stdin: String, _ message: String) throws {
        let run = try BinaryRun.run(["run"] + flows + ["--ephemeral"], stdin: stdin)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.hasSuffix(message + "\n"), "\(run.stderr)")
        #expect(run.events.isEmpty, "found before any flow starts")
    }
}
