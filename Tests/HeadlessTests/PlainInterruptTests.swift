import Foundation
import Testing

/// Ctrl-C in plain mode says what it stopped on standard error, as the terminal UI does, not in the transcript on
/// standard output: a wrapper that keeps the two apart finds the note where the other mode puts it.
@Suite struct PlainInterruptTests {
    @Test func anInterruptsNoteGoesToStandardError() throws {
        let process = Process()
        process.executableURL = BinaryRun.executable
        process.arguments = ["--plain", "--ephemeral"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The write end stays open: the session waits at the password prompt.
        try input.fileHandleForWriting.write(contentsOf: Data("1\nalice\n".utf8))
        var seen = Data()
        let deadline = Date().addingTimeInterval(20)
        while !String(decoding: seen, as: UTF8.self).contains("Password") && Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        #expect(String(decoding: seen, as: UTF8.self).contains("Password"), "\(String(decoding: seen, as: UTF8.self))")
        kill(process.processIdentifier, SIGINT)
        seen.append(output.fileHandleForReading.readDataToEndOfFile())
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 130)
        #expect(stderr == "idp-tui: interrupted: Activate device cancelled\n", "\(stderr)")
        #expect(!String(decoding: seen, as: UTF8.self).contains("interrupted"))
    }
}
