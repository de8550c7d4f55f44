import Foundation
import Testing

/// A CI job cancelled while `run` reads its answers: the signal kills the process writing them too, so the answers'
/// pipe ends cut short as the signal comes. The run ends with the signal's status, not as bad answers (exit 2,
/// "the object … is not closed", in about one run of eight: the end of input won the race with the signal's handler).
@Suite struct SignalWhileReadingAnswersTests {
    @Test func aSignalWithTheAnswersCutShortEndsTheRunWithTheSignalsStatus() throws {
        for attempt in 1...12 {
            let process = Process()
            process.executableURL = BinaryRun.executable
            process.arguments = ["run", "activate", "--ephemeral"]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            try input.fileHandleForWriting.write(contentsOf: Data(#"{"username":"alice","#.utf8))
            #expect(waitUntilReadingAPipe(process.processIdentifier), "attempt \(attempt)")
            kill(process.processIdentifier, SIGTERM)
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationReason == .exit && process.terminationStatus == 128 + SIGTERM,
                    "attempt \(attempt): \(process.terminationStatus) \(text)")
            #expect(text.isEmpty, "attempt \(attempt): \(text)")
        }
    }

    /// Whether the process waits for more of its answers, polled for up to 10 s: a thread in a read from a pipe, or
    /// its main thread (which reads them) in a poll, as it waits for them within the prompt timeout.
    private func waitUntilReadingAPipe(_ pid: Int32) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks {
                let channel = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? ""
                if channel.contains("pipe_read") || (task == String(pid) && channel.contains("poll")) { return true }
            }
            usleep(2_000)
        }
        return false
    }
}
