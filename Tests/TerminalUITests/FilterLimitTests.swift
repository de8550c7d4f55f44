import Testing
@testable import TerminalUI

/// A filter (the log's, the test-card picker's) takes 40 characters; a key past them is said on the status line:
/// the rest of what was typed was dropped without a word.
@Suite struct FilterLimitTests {
    private let typed = String(repeating: "x", count: 45)

    @Test func aKeyPastTheLogFiltersLimitIsSaid() {
        let driver = AppDriver()
        driver.press(.tab, .character("/"))
        for character in typed { driver.press(.character(character)) }
        #expect(driver.app.state.logFocus?.filter.count == 40)
        let text = driver.app.render().text
        #expect(text.contains("the filter takes at most 40 characters"), "\(text)")
    }

    @Test func aKeyPastTheCardPickersLimitIsSaid() {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.f4)
        for character in typed { driver.press(.character(character)) }
        #expect(driver.app.state.cardPicker?.filter.count == 40)
        let text = driver.app.render().text
        #expect(text.contains("the filter takes at most 40 characters"), "\(text)")
    }
}
