import Foundation
import Testing

/// The 3-D Secure timers and faults, headless: from a scenario's timers and an answer's `faults.threeDS`.
@Suite struct PaymentFaultRunTests {
    func payment(_ result: [String: Any]?) -> [String: Any] { result?["payment"] as? [String: Any] ?? [:] }

    /// The QA scenario with every 3-D Secure timer and the challenge limit at one second.
    func fastTimers() throws -> String {
        var text = try String(contentsOfFile: scenarioPath("payments-qa"), encoding: .utf8)
        for (from, to) in [("\"methodSeconds\": 2", "\"methodSeconds\": 1"), ("\"firstCReqSeconds\": 3", "\"firstCReqSeconds\": 1"),
                           ("\"timeoutSeconds\": 20", "\"timeoutSeconds\": 1")] {
            #expect(text.contains(from))
            text = text.replacingOccurrences(of: from, with: to)
        }
        return try temporaryFile(text)
    }

    func run(_ extra: String, card: String = "4000000000002503") throws -> BinaryRun {
        try BinaryRun.run(["run", "payer-auth", "--ephemeral", "--scenario", try fastTimers()],
                          stdin: #"{"card":"\#(card)","expiry":"12/30","otp":"1234"\#(extra)}"#)
    }

    @Test(arguments: [
        (#"{"methodTimeout":true}"#, "AUTHENTICATED", "Y", nil, nil, "N"),
        (#"{"firstCReqLost":true}"#, "AUTHENTICATION_FAILED", "N", "05", nil, "Y"),
        (#"{"directoryServer":"http500"}"#, "AUTHENTICATION_UNAVAILABLE", nil, nil, "403", "Y"),
        (#"{"directoryServer":"timeout"}"#, "AUTHENTICATION_UNAVAILABLE", nil, nil, "402", "Y"),
        (#"{"acs":"erro"}"#, "AUTHENTICATION_UNAVAILABLE", "U", "06", "403", "Y"),
        // No Erro: the 3DS SDK could not reach the ACS, whose own timer ends the challenge later.
        (#"{"acs":"unreachable"}"#, "AUTHENTICATION_UNAVAILABLE", nil, nil, nil, "Y"),
    ] as [(String, String, String?, String?, String?, String)])
    func anAnswersThreeDSFaultGivesTheSpecsValues(faults: String, status: String, trans: String?, cancel: String?, error: String?,
                                                  compInd: String) throws {
        let run = try run(#","faults":{"threeDS":\#(faults)}"#)
        #expect(run.status == (status == "AUTHENTICATED" ? 0 : 1), "\(run.stderr)")
        let result = try #require(run.results.first)
        #expect(result["status"] as? String == status)
        #expect(payment(result)["transStatus"] as? String == trans)
        #expect(payment(result)["challengeCancel"] as? String == cancel)
        #expect(payment(result)["errorCode"] as? String == error)
        #expect(payment(result)["threeDSCompInd"] as? String == compInd)
        #expect(run.events.contains { $0["step"] as? String == "fault injected" }, "the log says a fault bit")
    }

    @Test func aChallengeLeftOpenPastTheACSLimitEndsWithChallengeCancel04() throws {
        let run = try run(#","challengeDelay":2"#)
        #expect(run.status == 1, "\(run.stderr)")
        let result = try #require(run.results.first)
        #expect(payment(result)["transStatus"] as? String == "N")
        #expect(payment(result)["transStatusReason"] as? String == "14")
        #expect(payment(result)["challengeCancel"] as? String == "04")
        #expect(payment(result)["nextAction"] as? String == "retry")
    }

    @Test func networkFaultsReachThePayment() throws {
        let run = try run(#","faults":{"networkUnavailable":true}"#)
        #expect(run.status == 1)
        let result = try #require(run.results.first)
        #expect(result["status"] as? String == "SAFEPAY_ERROR")
        #expect((result["error"] as? [String: Any])?["message"] as? String
            == "the Drops page could not be loaded: the network is unavailable: the device is offline")
        // The advice names the fault, as the IdP's flows' does (it said only "Run 3-D Secure again, or authorise
        // without liability shift").
        #expect(result["advice"] as? String
            == "Bring the network back (the network-unavailable fault), then run 3-D Secure again.")
    }

    @Test(arguments: [
        (#","faults":{"threeDS":{"acs":"sometimes"}}"#, "answers.faults.threeDS.acs: must be one of unreachable, slow, timeout, erro, http500, malformed"),
        (#","faults":{"threeDS":{"methodTimeout":1}}"#, "answers.faults.threeDS.methodTimeout: must be true or false"),
        (#","challengeDelay":3701"#, "answers.challengeDelay must be a number of seconds from 0 to 3700"),
    ])
    func badFaultAnswersExitTwo(extra: String, message: String) throws {
        let run = try run(extra)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.results.isEmpty && run.events.isEmpty)
    }

    /// A failed payment's advice names the bridge's and 3-D Secure's faults that struck it after its own (N never offers to
    /// authorise), as the identity flows' advice names theirs: it said "Run 3-D Secure again" into a Drops page that
    /// never gets ready, each time. A latency within the timeouts explains nothing and is not named.
    @Test(arguments: [
        (["--bridge-fault", "ready-never-comes"], #""otp":"1234""#,
         // No card was taken: nothing to authorise without liability shift (it was offered).
         "Run 3-D Secure again: no card was taken, so there is nothing to authorise yet. Faults were on (the Drops page never gets ready): turn them off to rule them out."),
        ([], #""otp":"1234","faults":{"threeDS":{"directoryServer":"http500"}}"#,
         "May authorise, without liability shift: the risk stays yours. Faults were on (directory server answering HTTP 500): turn them off to rule them out."),
        ([], #""otp":"9999","faults":{"addedLatencyMs":50}"#, nil),
        // Lost acks never change how a payment ends, and nothing explains a cardholder who did not answer: neither is
        // named ("every bridge ack lost" was, beside a challenge that timed out).
        (["--bridge-fault", "lose-every-ack"], #""otp":"9999""#, nil),
        (["--bridge-fault", "lose-every-ack", "--prompt-timeout", "0.3"], #""otp":"1234","challengeDelay":1"#, nil),
        // On, but never met: the issuer could not authenticate the card before any ACS was asked.
        ([], #""faults":{"threeDS":{"acs":"unreachable"}},"card":"4000000000002313""#, nil),
        // Two on, one met: the ACS is never asked behind a directory server that fails (both were named).
        ([], #""otp":"1234","faults":{"threeDS":{"directoryServer":"http500","acs":"unreachable"}}"#,
         "May authorise, without liability shift: the risk stays yours. Faults were on (directory server answering HTTP 500): turn them off to rule them out."),
    ] as [([String], String, String?)])
    func aFailedPaymentsAdviceNamesTheFaultsOn(_ options: [String], _ answers: String, _ advice: String?) throws {
        let card = answers.contains("\"card\"") ? "" : #""card":"4000000000002503","#
        let run = try BinaryRun.run(["run", "payer-auth", "--ephemeral"] + options, stdin: #"{\#(card)"expiry":"12/30",\#(answers)}"#)
        #expect(run.status == 1, "\(run.stderr)")
        let given = try #require(run.results.first?["advice"] as? String)
        if let advice { #expect(given == advice) } else { #expect(!given.contains("Faults were on"), "\(given)") }
    }
}

/// The bridge's ready timer from a scenario (`payments.timers.bridgeReadySeconds`): the ready-never-comes fault
/// ends the payment after it, not after the host's 10 s.
@Suite struct BridgeReadyTimerRunTests {
    @Test func readyNeverComesEndsAfterTheScenariosReadyTimer() throws {
        let path = scenarioPath("payments-qa")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"bridgeReadySeconds\": 2"))
        let run = try BinaryRun.run(["run", "payer-auth", "--ephemeral", "--scenario", path, "--bridge-fault", "ready-never-comes"],
                                    stdin: #"{"card":"4000000000002701","expiry":"12/30"}"#)
        #expect(run.status == 1, "\(run.stderr)")
        let error = (run.results.first?["error"] as? [String: Any])?["message"] as? String
        #expect(error == "the Drops page did not become ready within 2 s", "\(run.stdout)")
        let shown = try BinaryRun.run(["scenario", "show", "--scenario", path])
        #expect(shown.stdout.contains("\"bridgeReadySeconds\": 2"), "\(shown.stdout)")
    }
}
