import Foundation
import Testing

/// A signal (a CI job cancelled, Ctrl-C) while a flow is under way: the flow is cancelled, as Esc would cancel it,
/// and kept in the history before the process ends, as the terminal UI keeps it. It was lost with its effects kept:
/// an activation stopped after the IdP took its code left the code spent and no flow in the history to say so.
@Suite struct SignalDuringFlowTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aFlowUnderWayWhenASignalComesIsKeptAsCancelled(_ signal: Int32) throws {
        let state = freshStatePath()
        let answers = #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"addedLatencyMs":1500}}"#
        let run = try BackgroundRun(flows: ["activate", "logout"], answers: "[\(answers),{}]", state: state)
        // A round trip to the IdP is under way (each waits 1.5 s).
        run.waitForOutput(containing: "added latency")
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
        #expect(!FileManager.default.fileExists(atPath: state + "-wal"))
    }
}
