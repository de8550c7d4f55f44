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
}
