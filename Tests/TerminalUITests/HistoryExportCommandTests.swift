import Foundation
@testable import TerminalUI
import Testing

/// A transcript's export command longer than a row is cut between its words, each row but the last ended by a
/// shell's line continuation: wrapped mid-command at 60 columns, a copy of its first row ran on its own, against the
/// default state file. The transcript's time says its zone.
@Suite struct HistoryExportCommandTests {
    @Test func anExportCommandLongerThanARowIsCutBetweenWordsWithContinuations() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.activate()
        driver.app.state.stateOption = " --state=/tmp/t52d/a-rather-long-folder/state.sqlite"
        driver.press(.enter, .character("h"), .enter)
        let text = driver.app.render().text
        #expect(text.contains("│ export:"), "\(text)")
        #expect(text.contains("│ idp-tui history export 1 --format mermaid \\"), "\(text)")
        #expect(text.contains("│ --state=/tmp/t52d/a-rather-long-folder/state.sqlite"), "\(text)")
        #expect(text.contains(" 00:00:00 UTC · "), "\(text)")
    }

    /// A word longer than a row (a long --state, quoted or not) is cut too, and a shell given the rows as pasted runs
    /// the command with the word whole: it was wrapped with no continuation, and its last characters ran on their own.
    @Test(arguments: [
        " --state=/tmp/me53/tr/a-rather-long-folder-name/state.sqlite",
        " --state='/tmp/a folder with spaces/and a much longer name than a row holds/state.sqlite'",
        " --state='/tmp/it'\\''s a folder named with a quote, long enough to be cut/state.sqlite'",
    ])
    func aWordLongerThanARowIsCutSoThatAShellJoinsIt(_ stateOption: String) throws {
        let transcript = try Self.transcript(stateOption: stateOption)
        let rows = AppView.exportLine(transcript, width: 56)
        #expect(rows.first == "export:" && rows.dropFirst().allSatisfy { $0.count <= 56 }, "\(rows)")
        // What a POSIX shell makes of the rows pasted: its words, one a line.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        let command = rows.dropFirst().joined(separator: "\n").replacingOccurrences(of: "idp-tui history export", with: "printf '%s\\n'")
        shell.arguments = ["-c", command]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let words = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        let state = try #require(AppView.shellWords(stateOption).first)
        let unquoted = try Self.unquoted(state)
        #expect(words == "1\n--format\nmermaid\n\(unquoted)\n", "\(rows)")
    }

    /// The transcript of a flow kept on a state file, as `stateOption` names it.
    static func transcript(stateOption: String) throws -> TranscriptState {
        let driver = AppDriver(width: 60, height: 18)
        driver.activate()
        driver.app.state.stateOption = stateOption
        driver.press(.enter, .character("h"), .enter)
        guard case .transcript(let transcript, _) = driver.screen else { return try #require(nil as TranscriptState?, "\(driver.screen)") }
        return transcript
    }

    /// A word as the shell reads it: quotes removed, `\'` a quote.
    static func unquoted(_ word: String) throws -> String {
        let echo = Process()
        echo.executableURL = URL(fileURLWithPath: "/bin/sh")
        echo.arguments = ["-c", "printf '%s' " + word]
        let output = Pipe()
        echo.standardOutput = output
        try echo.run()
        defer { echo.waitUntilExit() }
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}
