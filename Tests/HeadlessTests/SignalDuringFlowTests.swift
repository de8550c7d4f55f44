import Foundation
import Testing

/// A signal (a CI job cancelled, Ctrl-C) while a flow is under way: the flow is interrupted, its SDK told as for a
/// cancel, and kept in the history before the process ends, as the terminal UI keeps it. It was lost with its
/// effects kept: an activation stopped after the IdP took its code left the code spent and no flow in the history
/// to say so. The history says INTERRUPTED and the signal (it said USER_CANCEL, a person's Cancel that never was).
@Suite struct SignalDuringFlowTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aFlowUnderWayWhenASignalComesIsKeptAsCancelled(_ signal: Int32) throws {
        let state = freshStatePath()
        let answers = #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"addedLatencyMs":1500}}"#
        let run = try BackgroundRun(flows: ["activate", "logout"], answers: "[\(answers),{}]", state: state)
        // A round trip to the IdP is under way (each waits 1.5 s).
        run.waitForOutput(containing: "on this round trip")  // the fault biting a request, not the faults-on notice (which says "added latency" too)
        kill(run.process.processIdentifier, signal)
        run.finish()
        #expect(run.process.terminationReason == .exit)
        #expect(run.process.terminationStatus == 128 + signal)
        #expect(run.results == 0, "no line after the signal")
        let history = try BinaryRun.run(["history", "--json", "--state", state])
        let lines = history.stdout.split(separator: "\n")
        #expect(lines.count == 1, "the activation alone: the logout never started: \(history.stdout)")
        #expect(lines.first?.contains(#""flow":"activate""#) == true && lines.first?.contains(#""outcome":"cancelled""#) == true,
                "\(history.stdout)")
        #expect(lines.first?.contains(#""status":"INTERRUPTED""#) == true, "\(history.stdout)")
        let show = try BinaryRun.run(["history", "show", "1", "--state", state])
        #expect(show.stdout.contains("interrupted by \(signal == SIGTERM ? "SIGTERM" : "SIGINT"): the process was told to end before the flow did"),
                "\(show.stdout)")
        #expect(!FileManager.default.fileExists(atPath: state + "-wal"))
    }

    /// KSSIDP's call cannot be stopped and goes on after a cancel, but not past the process a signal ends: the
    /// history says so ("it goes on" read as the device activated after all; it was not). Signalled in its first
    /// round trip, before the IdP took the code, the code is unspent.
    @Test func aKSSIDPCallUnderWayIsSaidNotToOutliveTheProcess() throws {
        let state = freshStatePath()
        let answers = #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"addedLatencyMs":1500}}"#
        let run = try BackgroundRun(flows: ["legacy-activate"], answers: answers, state: state)
        run.waitForOutput(containing: "on this round trip")  // the fault biting a request, not the faults-on notice (which says "added latency" too)
        kill(run.process.processIdentifier, SIGTERM)
        run.finish()
        #expect(run.process.terminationStatus == 128 + SIGTERM)
        let show = try BinaryRun.run(["history", "show", "1", "--state", state])
        #expect(show.stdout.contains("the process ends before it does: what the server did by then stays, the rest never happens"), "\(show.stdout)")
        #expect(!show.stdout.contains("it goes on"), "\(show.stdout)")
        // Nothing of it was kept: the code activates the device in the next run.
        let again = try BinaryRun.run(["run", "legacy-activate", "--state", state],
                                      stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    }

    /// On a challenge screen the ACS hears of it: the 3DS SDK ends the challenge as a transaction error,
    /// challengeCancel 06 (01 is the cardholder's Cancel, which nobody pressed), and the payment ends through the
    /// page (the call it awaited was ended at once, "cancelled while CRes was in flight", and the ACS never heard).
    @Test func aPaymentOnItsChallengeScreenWhenASignalComesSendsTheACSItsCancel() throws {
        let state = freshStatePath()
        let answers = #"{"card":"4000000000002503","expiry":"12/30","otp":"1234","challengeDelay":10}"#
        let run = try BackgroundRun(flows: ["payer-auth"], answers: answers, state: state)
        run.waitForOutput(containing: #""step":"challenge screen""#)
        kill(run.process.processIdentifier, SIGTERM)
        run.finish()
        #expect(run.process.terminationStatus == 128 + SIGTERM)
        let show = try BinaryRun.run(["history", "show", "1", "--state", state])
        #expect(show.stdout.contains("CReq  [DropsPage.payment]  challengeCancel 06"), "\(show.stdout)")
        #expect(show.stdout.contains("interrupted by SIGTERM; the 3DS SDK ends the challenge as a transaction error"), "\(show.stdout)")
        #expect(!show.stdout.contains("USER_CANCEL"), "\(show.stdout)")
        let history = try BinaryRun.run(["history", "--json", "--state", state])
        #expect(history.stdout.contains(#""status":"INTERRUPTED""#), "the result's status: \(history.stdout)")
        #expect(show.stdout.contains("onPayerAuthenticationFailure"), "\(show.stdout)")
    }
}
