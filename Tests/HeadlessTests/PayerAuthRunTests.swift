import Foundation
import Testing

@Suite struct PayerAuthRunTests {
    func payment(_ result: [String: Any]?) -> [String: Any] { result?["payment"] as? [String: Any] ?? [:] }

    @Test func anAmountMayBeAJSONNumber() throws {
        let run = try BinaryRun.run(["run", "payer-auth"], stdin: #"{"card":"4000000000002701","expiry":"12/30","amount":12.5}"#)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(payment(run.results.first)["amount"] as? String == "EUR 12.50")
    }

    /// Some JSON writers put 100 as 1e2, 49.99 as 4.999e1 or 12.5 as 12.500 (a decimal type that keeps its scale):
    /// the same numbers. (12.500 was refused for its three decimals while 0.001e3 was taken.)
    @Test(arguments: [("1e2", "EUR 100.00"), ("4.999E1", "EUR 49.99"), ("1.5e+1", "EUR 15.00"), ("12.500", "EUR 12.50"),
                      ("7.0", "EUR 7.00")])
    func anAmountWithAnExponentIsTheNumberItWrites(written: String, shown: String) throws {
        let run = try BinaryRun.run(["run", "payer-auth"], stdin: #"{"card":"4000000000002701","expiry":"12/30","amount":"# + written + "}")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(payment(run.results.first)["amount"] as? String == shown)
    }

    /// A number with a third decimal that is not zero is still refused: the amount is in cents.
    @Test func anAmountWithThreeDecimalsIsRefused() throws {
        let run = try BinaryRun.run(["run", "payer-auth"], stdin: #"{"card":"4000000000002701","expiry":"12/30","amount":12.505}"#)
        #expect(run.status == 2)
        #expect(run.stderr.contains("answers.amount: write it as a number with at most two decimals"), "\(run.stderr)")
    }

    @Test func aChallengePaymentSucceedsAndTheCodesNeverShow() throws {
        let run = try BinaryRun.run(["run", "payer-auth"],
                                    stdin: #"{"card":"4000 0000 0000 2503","expiry":"12/30","amount":"12.50","currency":"usd","otp":["9876","1234"]}"#)
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(run.results.first)
        #expect(result["flow"] as? String == "payer-auth")
        #expect(result["outcome"] as? String == "success")
        #expect(result["status"] as? String == "AUTHENTICATED")
        let payment = payment(result)
        #expect(payment["callback"] as? String == "onPayerAuthenticationSuccess")
        #expect(payment["transStatus"] as? String == "Y")
        #expect(payment["eci"] as? String == "05")
        #expect(payment["amount"] as? String == "USD 12.50")
        #expect(payment["card"] as? String == "•••• 2503")
        let steps = run.events.compactMap { $0["step"] as? String }
        for step in ["configure", "safepay-property-update", "safepay-inframe__ack", "3DS Method", "AReq", "ARes", "CReq", "CRes", "RReq",
                     "onPayerAuthenticationRequired", "onPayerAuthenticationSuccess"] {
            #expect(steps.contains(step), "no \(step) event")
        }
        // The ACS sends its final CRes once its RReq has been answered (EMV 3DS 2.2's challenge flow): the last
        // CRes came before the RReq.
        let (rreq, rres, lastCRes) = (steps.firstIndex(of: "RReq"), steps.firstIndex(of: "RRes"), steps.lastIndex(of: "CRes"))
        #expect(rreq != nil && rres != nil && lastCRes != nil && rreq! < rres! && rres! < lastCRes!, "\(steps)")
        // As a number of its own: the AReq's purchaseDate is the wall clock's, and 20261201234512 (23:45:12 on
        // the 1st) holds 1234 without any code having been printed.
        for text in ["9876", "1234", "4000000000002503", "4000 0000 0000 2503"] {
            let printed = "(?<![0-9])\(text)(?![0-9])"
            #expect(run.stdout.range(of: printed, options: .regularExpression) == nil && !run.stderr.contains(text), "\(text) was printed")
        }
    }

    @Test(arguments: [
        ("4000000000002701", "FRICTIONLESS", "Y", "05", Int32(0)), ("5200000000002482", "FRICTIONLESS", "A", "01", 0),
        ("340000000002708", "FRICTIONLESS", "Y", "05", 0), ("4000000000002313", "AUTHENTICATION_UNAVAILABLE", "U", "07", 1),
        ("5200000000002185", "AUTHENTICATION_FAILED", "R", "00", 1),
    ])
    func withoutAChallengeTheResultCarriesStatusAndECI(card: String, status: String, trans: String, eci: String, exit: Int32) throws {
        let run = try BinaryRun.run(["run", "payer-auth"], stdin: #"{"card":"\#(card)","expiry":"01/31"}"#)
        #expect(run.status == exit)
        #expect(run.results.first?["status"] as? String == status)
        #expect(payment(run.results.first)["transStatus"] as? String == trans)
        #expect(payment(run.results.first)["eci"] as? String == eci)
    }

    @Test func wrongCodesUntilTheLimitExitOne() throws {
        let run = try BinaryRun.run(["run", "payer-auth"], stdin: #"{"card":"4000000000002503","expiry":"12/30","otp":"0000"}"#)
        #expect(run.status == 1)
        #expect(run.results.first?["status"] as? String == "AUTHENTICATION_FAILED")
        #expect(payment(run.results.first)["transStatusReason"] as? String == "19")
        // The first CReq fetches the first screen; three wrong codes follow.
        #expect(run.events.filter { $0["step"] as? String == "CReq" }.count == 4)
        #expect(payment(run.results.first)["nextAction"] as? String == "do-not-authorise")
        #expect(payment(run.results.first)["interactionCounter"] as? Int == 3)
    }

    @Test func resendsUpToTheLimitThenTheCode() throws {
        let run = try BinaryRun.run(["run", "payer-auth"], stdin: #"{"card":"4000000000002503","expiry":"12/30","resend":4,"otp":"1234"}"#)
        #expect(run.status == 0)
        #expect(run.events.contains { ($0["detail"] as? String)?.contains("no more codes can be sent") == true })
    }

    @Test func cancelOnTheChallengeExitsThreeWithChallengeCancel01() throws {
        let run = try BinaryRun.run(["run", "payer-auth"], stdin: #"{"card":"4000000000002503","expiry":"12/30","cancel":"challenge"}"#)
        #expect(run.status == 3)
        #expect(run.results.first?["outcome"] as? String == "cancelled")
        #expect(payment(run.results.first)["challengeCancel"] as? String == "01")
        // It ends in N: the advice does not offer to authorise without liability shift, which an N rules out.
        #expect(run.results.first?["advice"] as? String == "Run 3-D Secure again, or ask for another payment method.")
    }

    @Test func cancelAtTheCardFormSendsNoAReq() throws {
        let run = try BinaryRun.run(["run", "payer-auth"], stdin: #"{"cancel":true}"#)
        #expect(run.status == 3)
        #expect(!run.events.contains { $0["step"] as? String == "AReq" })
    }

    @Test(arguments: [
        (#""card":"4000009900000012","choices":["lisbon"]"#, "Y", Int32(0)),
        (#""card":"4000009900000012","choices":[1]"#, "N", 1),
        (#""card":"4000009900000020","choices":[1,3]"#, "Y", 0),
        (#""card":"4000009900000038","approve":true"#, "Y", 0),
        (#""card":"4000009900000038","approve":false"#, "N", 1),
        (#""card":"4000009900000046""#, "U", 1),
    ])
    func everyChallengeTypeCanBeAnswered(answers: String, trans: String, exit: Int32) throws {
        let run = try BinaryRun.run(["run", "payer-auth"], stdin: "{\(answers),\"expiry\":\"12/30\"}")
        #expect(run.status == exit, "\(run.stderr)")
        #expect(payment(run.results.first)["transStatus"] as? String == trans)
    }

    @Test func aPaymentFollowsALoginInOneRun() throws {
        let run = try BinaryRun.run(["run", "activate", "payer-auth"],
                                    stdin: "[\(Answers.aliceActivation),{\"card\":\"4000000000002701\",\"expiry\":\"12/30\"}]")
        #expect(run.status == 0)
        #expect(run.results.map { $0["flow"] as? String } == ["activate", "payer-auth"])
    }

    @Test func aLostAckIsResentAndThePaymentGoesOn() throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--bridge-fault", "lose-acks:1", "--bridge-timing", "web"],
                                    stdin: #"{"card":"4000000000002701","expiry":"12/30","delay":1.5}"#)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events.contains { ($0["detail"] as? String)?.hasPrefix("resent (attempt 2): messageId ") == true })
        #expect(run.results.first?["status"] as? String == "FRICTIONLESS")
    }

    /// The cardholder takes the card form's `delay`, and a challenge screen's `challengeDelay`, before a cancel too:
    /// both were cancelled at once, and the resend the delay was given for never showed.
    @Test func aCancelWaitsTheCardholdersDelay() throws {
        let form = try BinaryRun.run(["run", "payer-auth", "--ephemeral", "--bridge-fault", "lose-acks:1", "--bridge-timing", "web"],
                                     stdin: #"{"card":"4000000000002701","expiry":"12/30","cancel":true,"delay":2}"#)
        #expect(form.status == 3, "\(form.stderr)")
        #expect(form.events.contains { ($0["detail"] as? String)?.hasPrefix("resent (attempt 2): messageId ") == true }, "\(form.stdout)")
        #expect(form.results.first?["failedStep"] as? String == "card form")
        // The challenge's cancel: the screen's event says how long the cardholder took over it.
        let challenge = try BinaryRun.run(["run", "payer-auth", "--ephemeral"],
                                          stdin: #"{"card":"4000000000002503","expiry":"12/30","cancel":"challenge","challengeDelay":1}"#)
        #expect(challenge.status == 3, "\(challenge.stderr)")
        let cancelled = try #require(challenge.events.first { $0["step"] as? String == "challenge screen" && $0["status"] as? String == "USER_CANCEL" })
        #expect((cancelled["duration"] as? Int ?? 0) >= 1_000_000, "\(cancelled)")
    }

    /// The retries run out in silence, as Safepay's React Native host's do: the payment goes on to the card's outcome.
    @Test func whenEveryAckIsLostTheRetriesRunOutAndThePaymentGoesOn() throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--bridge-fault=lose-every-ack", "--bridge-timing=web"],
                                    stdin: #"{"card":"4000000000002701","expiry":"12/30","delay":10}"#)
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(run.results.first)
        #expect(result["status"] as? String == "FRICTIONLESS")
        let gaveUp = try #require(run.events.first { $0["step"] as? String == "gave up" })
        #expect((gaveUp["detail"] as? String)?.contains("no ack after 3 attempts") == true, "\(gaveUp)")
        #expect(run.events.contains { $0["step"] as? String == "AReq" })
    }

    @Test func aMalformedMessageAndAnUnknownEventAreLoggedAndIgnored() throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--bridge-fault", "malformed-message", "--bridge-fault", "unknown-event"],
                                    stdin: #"{"card":"4000000000002701","expiry":"12/30"}"#)
        #expect(run.status == 0)
        #expect(run.events.filter { $0["step"] as? String == "rejected" }.count == 2)
    }

    /// docs/faults.md: a script counts the faults that bit by the `fault injected` steps alone; the bridge's
    /// faults bit with no such step (only `rejected` or `resent` lines), so a count found none.
    @Test func everyBridgeFaultThatBitesIsAFaultInjectedStep() throws {
        let run = try BinaryRun.run(["run", "payer-auth", "--ephemeral", "--bridge-fault", "malformed-message", "--bridge-fault",
                                     "unknown-event", "--bridge-fault", "lose-acks:1", "--bridge-timing", "web"],
                                    stdin: #"{"card":"4000000000002701","expiry":"12/30","delay":1.5}"#)
        #expect(run.status == 0, "\(run.stderr)")
        let injected = run.events.filter { $0["step"] as? String == "fault injected" }.compactMap { $0["detail"] as? String }
        #expect(injected.count == 3, "\(injected)")
        #expect(injected.contains("the Drops page sends a malformed message"))
        #expect(injected.contains("the Drops page sends an unknown event"))
        #expect(injected.contains { $0.hasPrefix("a bridge ack is lost (message ") && $0.hasSuffix(")") })
    }

    @Test(arguments: [
        (#"{"card":"4000000000002503","expiry":"01/20"}"#, "N"),
        (#"{"card":"4000000000002503","expiry":"12/30","faults":{"threeDS":{"directoryServer":"erro"}}}"#, nil),
    ] as [(String, String?)])
    func answersNeedNoOTPWhenNoChallengeCanCome(answers: String, trans: String?) throws {
        let run = try BinaryRun.run(["run", "payer-auth"], stdin: answers)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(payment(run.results.first)["transStatus"] as? String == trans)
    }

    static let badAnswers: [(String, String)] = [
        (#"{"expiry":"12/30"}"#, #"answers (payer-auth) needs "card" and "expiry""#),
        (#"{"card":"4000000000002502","expiry":"12/30"}"#, "answers.card: the card number fails the Luhn check; check for a mistyped digit (line 1, column 9)"),
        (#"{"card":"4000000000002503","expiry":"13/30"}"#, "answers.expiry: the month must be 01 to 12 (line 1, column 37)"),
        (#"{"card":"4000000000002503","expiry":"12/30","amount":"free"}"#, "answers.amount: write it as a number"),
        (#"{"card":"4000000000002503","expiry":"12/30","otp":7}"#, "answers.otp must be a string, or an array"),
        // Found by fuzzing (Fuzz/corpus/answers/empty-otp.json): an empty code was sent to the ACS, and failed there.
        (#"{"card":"4000000000002503","expiry":"12/30","otp":""}"#, "answers.otp must be a code of 1 to 16 bytes, without control characters (line 1, column 51)"),
        (#"{"card":"4000000000002503","expiry":"12/30"}"#, #"has no "otp", which the one-time-code challenge asks for"#),
        (#"{"card":"4000000000002503","expiry":"12/30","otp":["0000"]}"#, "answers.otp has 1 code, but the challenge asked for another (line 1, column 51)"),
        (#"{"card":"4000009900000012","expiry":"12/30","choices":["Paris"]}"#, "answers.choices: the challenge's options are 1 Amsterdam"),
        (#"{"card":"4000009900000012","expiry":"12/30","choices":[true]}"#, "answers.choices[0] must be an option number"),
        (#"{"card":"4000009900000012","expiry":"12/30","choices":[1,2]}"#, "answers.choices: the single-select challenge takes exactly one choice, not 2"),
        (#"{"card":"4000009900000012","expiry":"12/30","choices":[9]}"#, "answers.choices: the challenge's options are 1 Amsterdam, 2 Berlin, 3 Lisbon"),
        (#"{"card":"4000009900000038","expiry":"12/30"}"#, #"has no "approve""#),
        (#"{"card":"4000000000002503","expiry":"12/30","cancel":"later"}"#, #"answers.cancel must be true (cancel at the card form) or "challenge""#),
        (#"{"card":"4000000000002503","expiry":"12/30","s3cr3t-typo":"alice"}"#, "answers (payer-auth) has a key it does not know, before the value at line 1, column 59; known keys: card,"),
        (#"{"card":"4000000000002503","expiry":"12/30","username":"alice"}"#, #"answers (payer-auth) has "username", which activate, login, q2-login, legacy-activate and legacy-login take (line 1, column 56)"#),
        (#"{"card":"4000000000002503","expiry":"12/30","resend":99}"#, "answers.resend must be from 0 to 10"),
        (#"{"card":"4000000000002503","expiry":"12/30","amount":"-5"}"#, "the amount must be above zero"),
        // Rounded to 49.99 by a 38-digit decimal, it has more than two decimals.
        (#"{"card":"4000000000002503","expiry":"12/30","amount":4.9990000000000000000000000000000000000001e1}"#, "answers.amount: write it as a number with at most two decimals"),
        // With its exponent applied, 1e-3 is 0.001: three decimals.
        (#"{"card":"4000000000002503","expiry":"12/30","amount":1e-3}"#, "answers.amount: write it as a number with at most two decimals"),
        (#"{"card":"4000000000002503","expiry":"12/30","amount":1e400}"#, "answers: a number beyond what a double holds (about 1.8e308) at line 1, column 54"),
        // Too large, however many digits: not "write it with at most two decimals", which it already is.
        (#"{"card":"4000000000002503","expiry":"12/30","amount":99999999999999}"#, "answers.amount: at most 9999999.99"),
        (#"{"card":"4000000000002503","expiry":"12/30","amount":"12345678901.50"}"#, "answers.amount: at most 9999999.99"),
        (#"{"card":"4000000000002503","expiry":"12/30","expirey":"12/30"}"#, #"did you mean "expiry"?"#),
        (#"{"card":"4000000000002503","expiry":"12/30","delay":"soon"}"#, "answers.delay must be a number of seconds from 0 to 60"),
    ]

    @Test(arguments: [
        (["--bridge-fault", "lose-acks:0"], "--bridge-fault takes lose-acks:N"),
        (["--bridge-fault", "gremlins"], #"not "gremlins""#),
        (["--bridge-timing", "slow"], "--bridge-timing takes swift (1.5 s, 3 retries) or web"),
        (["--bridge-fault"], "--bridge-fault needs a value"),
    ])
    func badBridgeOptionsExitTwo(options: [String], message: String) throws {
        let run = try BinaryRun.run(["run", "payer-auth"] + options, stdin: #"{"card":"4000000000002701","expiry":"12/30"}"#)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test(arguments: 0..<badAnswers.count)
    func badAnswersAreOneLineAndExitTwo(_ index: Int) throws {
        let (stdin, message) = Self.badAnswers[index]
        let run = try BinaryRun.run(["run", "payer-auth"], stdin: stdin)
        #expect(run.status == 2, "\(stdin): \(run.stderr)")
        #expect(run.stderr.hasPrefix("idp-tui: "))
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(!run.stderr.contains("4000000000002502") && !run.stderr.contains("0000\"") && !run.stderr.contains("s3cr3t-typo"))
        // Only a shortfall the challenge itself reveals (a wrong code, then no other) is found once the flow runs,
        // which then ends with its result line, aborted; bad answers found first run nothing and print no result.
        if !message.contains("but the challenge asked for another") {
            #expect(run.events.isEmpty, "bad answers are found before any flow starts")
            #expect(run.results.isEmpty, "no flow ran, so no result line")
        } else {
            #expect(run.results.map { $0["status"] as? String } == ["ABORTED_BAD_INPUT"], "\(run.stdout)")
        }
    }
}
