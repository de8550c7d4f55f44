import Foundation
import Testing

/// A flow cancelled in plain mode while its request is in flight: its events go on line after line.
@Suite struct PlainCancelWhileWorkingTests {
    /// Esc while Q2's sign-in waits on a second of added latency: no blank line among the flow's events before its
    /// ABANDONED and cancel lines (the Esc's line ended no question's line, and read as "a new screen starts here").
    @Test func aCancelWhileWorkingLeavesNoBlankLineAmongTheEvents() throws {
        let process = Process()
        process.executableURL = BinaryRun.executable
        process.arguments = ["--plain", "--ephemeral"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The added-latency fault on, then Q2 login: Esc once its request is on its way.
        try input.fileHandleForWriting.write(contentsOf: Data("f\n2\n\n5\nalice\nwonderland\n".utf8))
        var seen = Data()
        let deadline = Date().addingTimeInterval(20)
        while !String(decoding: seen, as: UTF8.self).contains("FAULT added latency") && Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        try input.fileHandleForWriting.write(contentsOf: Data("\u{1b}\n".utf8))
        while !String(decoding: seen, as: UTF8.self).contains("Enter goes back") && Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        try input.fileHandleForWriting.write(contentsOf: Data("\nq\n".utf8))
        try input.fileHandleForWriting.close()
        seen.append(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        let stdout = String(decoding: seen, as: UTF8.self)
        let working = try #require(stdout.range(of: "Q2 login: working…", options: .backwards), "\(stdout)")
        let result = try #require(stdout.range(of: "\n\n⊘ Q2 login cancelled"), "\(stdout)")
        let events = stdout[working.upperBound..<result.lowerBound]
        #expect(events.contains("ABANDONED") && events.contains("✕         cancel"), "in flight when cancelled: \(stdout)")
        #expect(!events.contains("\n\n"), "a blank line among the events: \(events)")
        #expect(process.terminationStatus == 3, "a flow cancelled, piped")
    }
}
