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

/// An overlay that reaches the status row (the help at 80×24, an event shown whole) blanks that row's ends: the
/// status text showed beside the frame's bottom (" tena└────┘ated").
@Suite struct OverlayStatusRowTests {
    private func statusRowIsClean(_ driver: AppDriver) -> Bool {
        let lines = driver.app.render().text.components(separatedBy: "\n")
        let status = lines[lines.count - 2]
        guard let start = status.firstIndex(of: "└"), let end = status.lastIndex(of: "┘") else { return true }
        return status[..<start].allSatisfy { $0 == " " } && status[status.index(after: end)...].allSatisfy { $0 == " " }
    }

    @Test(arguments: [(60, 18), (80, 24)])
    func theStatusRowUnderAnOverlayShowsNoFragments(_ width: Int, _ height: Int) {
        let driver = AppDriver(width: width, height: height)
        driver.activate()
        driver.press(.escape, .character("?"))
        #expect(statusRowIsClean(driver), "\(driver.app.render().text)")
        driver.press(.character("?"), .tab, .enter)
        #expect(driver.app.state.logFocus?.detail != nil)
        #expect(statusRowIsClean(driver), "\(driver.app.render().text)")
    }
}
