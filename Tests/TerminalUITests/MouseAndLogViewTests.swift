import FlowEngine
import FlowRecords
import Foundation
import LegacyFlows
import LocaleText
import Secrets
@testable import TerminalUI
import Testing

@Suite struct MouseTests {
    /// The screen row and column (1-based, as a terminal reports them) of the first cell showing `text`.
    func position(of text: String, in driver: AppDriver) throws -> (row: Int, column: Int) {
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let row = try #require(lines.firstIndex { $0.contains(text) })
        let prefix = try #require(lines[row].range(of: text)).lowerBound
        return (row + 1, CharacterWidth.of(lines[row][..<prefix]) + 1)
    }

    func click(_ text: String, _ driver: AppDriver) throws {
        let (row, column) = try position(of: text, in: driver)
        driver.app.handleMouse(MouseReport(button: 0, column: column, row: row, pressed: true))
        driver.app.handleMouse(MouseReport(button: 0, column: column, row: row, pressed: false))
    }

    @Test func clicksPressMenuItemsFieldsAndButtons() throws {
        let driver = AppDriver()
        try click("Pay with card (3-D Secure)", driver)
        driver.pump { _ in driver.isPaymentForm }
        #expect(driver.isPaymentForm)
        try click("Expiry (MM/YY)", driver)
        guard case .payment(let form) = driver.app.state.screen else { Issue.record("no card form"); return }
        #expect(form.focus == 1, "a click on a field's label focuses the field")
        try click("[ Cancel ]", driver)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.outcome == .cancelled)
        try click("[ Back ]", driver)
        #expect(driver.app.render().text.contains("What would you like to do?"))
    }

    /// A click in the main panel while the log has the focus takes it back, and presses what it is on (the Enter
    /// went to the log and opened an event); a field clicked while a filter is typed over a form that came gets the
    /// keys.
    @Test func aClickTakesTheFocusFromTheLog() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.escape, .tab)
        #expect(driver.app.state.logFocus != nil)
        try click("Pay with card (3-D Secure)", driver)
        #expect(driver.app.state.logFocus == nil)
        #expect(driver.pump { _ in driver.isPaymentForm }, "the item was pressed: \(driver.app.render().text)")
        // A click on an empty row of the panel takes it too (only one on an item or a field did).
        driver.press(.escape, .escape, .tab)
        driver.app.handleMouse(MouseReport(button: 0, column: 60, row: 8, pressed: true))
        #expect(driver.app.state.logFocus == nil)
    }

    /// A double-click presses once: its second press on the same cell is not a click on what the first brought (a
    /// result's Back double-clicked went Home and pressed Quit, on the same row; a menu item double-clicked pressed
    /// what its form has there).
    @Test func aDoubleClickPressesOnce() throws {
        let driver = AppDriver()
        driver.press(.character("3"), .enter)  // Log out, on a device never activated: a result at once
        driver.pump { _ in driver.isResult }
        let (row, column) = try position(of: "[ Back ]", in: driver)
        try click("[ Back ]", driver)
        #expect(driver.app.render().text.contains("What would you like to do?"))
        // A menu item is under where Back was (Quit, with today's menu; another with more families): what a
        // second press there would press, which neither quits nor leaves the menu.
        _ = try #require(driver.app.render().targets.first { $0.contains(row: row - 1, column: column - 1) })
        driver.app.handleMouse(MouseReport(button: 0, column: column, row: row, pressed: true))
        driver.app.handleMouse(MouseReport(button: 0, column: column, row: row, pressed: false))
        #expect(driver.app.exitStatus == nil, "the second press of a double-click quit")
        #expect(driver.app.render().text.contains("What would you like to do?"))
        // One column over is the same double-click (a hand moves a little between the presses).
        driver.app.handleMouse(MouseReport(button: 0, column: column + 1, row: row, pressed: true))
        #expect(driver.app.exitStatus == nil, "the second press of a double-click, a column over, quit")
        // A click elsewhere is a click.
        try click("Activate device", driver)
        #expect(driver.pump { _ in driver.isForm }, "\(driver.app.render().text)")
    }

    /// A triple click at an ordinary pace presses once: each press counts from the one before it (the third,
    /// 0.6 s after the first, switched a fault back).
    @Test func aTripleClickPressesOnce() throws {
        let driver = AppDriver()
        driver.press(.character("f"))
        let (row, column) = try position(of: "network unavailable", in: driver)
        func press() { driver.app.handleMouse(MouseReport(button: 0, column: column, row: row, pressed: true)) }
        // The presses' times, 0.3 s apart, as the app saw them.
        func earlier() { driver.app.state.lastClick?.at -= .milliseconds(300) }
        press()
        earlier()
        press()
        earlier()
        press()
        #expect(driver.app.render().text.contains("[x] network unavailable"), "\(driver.app.render().text)")
    }

    /// A past flow clicked in the history opens (the click was ignored, and Enter then opened the flow selected
    /// before, the newest).
    @Test func aClickOnAPastFlowOpensIt() throws {
        let driver = AppDriver()
        driver.activate(password: "wrong")
        driver.press(.enter)
        driver.activate()
        driver.press(.enter, .character("h"))
        try click("WRONG_CREDENTIALS", driver)
        #expect(driver.app.render().text.contains("Flow 1"), "\(driver.app.render().text)")
    }

    /// A test card clicked fills the form, and a fault clicked switches (both were ignored); a click beside them
    /// does nothing to the screen under them.
    @Test func aClickPicksATestCardAndSwitchesAFault() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.f4)
        #expect(driver.app.state.cardPicker != nil, "\(driver.app.render().text)")
        try click("5200 0000 0000 2276", driver)
        #expect(driver.app.state.cardPicker == nil)
        guard case .payment(let form) = driver.app.state.screen else { Issue.record("no card form"); return }
        #expect(form.text(.card) == "5200 0000 0000 2276", "\(form.text(.card))")
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        driver.press(.enter, .character("f"))
        #expect(driver.app.state.faultsPanel != nil)
        try click("network unavailable", driver)
        #expect(driver.app.render().text.contains("[x] network unavailable"))
        try click("clock skew", driver)
        #expect(driver.app.render().text.contains("[x] clock skew"))
        // Beside the panel, over the menu's Activate device: nothing.
        driver.app.handleMouse(MouseReport(button: 0, column: 1, row: 5, pressed: true))
        #expect(driver.app.state.faultsPanel != nil)
        guard case .home = driver.app.state.screen else { Issue.record("the click went through the panel"); return }
    }

    /// A past flow's event clicked shows it whole, as its Enter does (a click there did nothing).
    @Test func aClickOnAPastFlowsEventShowsItWhole() throws {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter, .character("h"), .enter)
        #expect(driver.app.render().text.contains("Flow 1"))
        try click("→ MC-SDK  GetAstClientData", driver)
        let text = driver.app.render().text
        #expect(text.contains("Event — esc closes") && text.contains("GetAstClientDataEvent"), "\(text)")
    }

    /// An option takes the click on its own text, not on the rest of its row, where the hint may wrap at 60×18 (a
    /// click on the hint's "Bakery" toggled Cinema).
    @Test func aClickBesideAnOptionDoesNotChooseIt() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.pay(card: "4000009900000020")
        let (row, column) = try position(of: "[ ] Cinema", in: driver)
        let beside = column + CharacterWidth.of("[ ] Cinema") + 4
        driver.app.handleMouse(MouseReport(button: 0, column: beside, row: row, pressed: true))
        #expect(driver.challenge?.selected.isEmpty == true)
        try click("Cinema", driver)
        #expect(driver.challenge?.selected == [1])
    }

    @Test func aClickChoosesAChallengeOption() throws {
        let driver = AppDriver()
        driver.pay(card: "4000009900000012")
        try click("Lisbon", driver)
        try click("[ Submit ]", driver)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.payment?.transStatus == "Y")
    }

    @Test func theLogScrollsNoFurtherThanItsFirstEventAndFollowsAgain() {
        let driver = AppDriver()
        driver.activate()
        for _ in 0..<20 { driver.press(.pageUp) }
        // At 80×24 the log lists 7 lines (rows 14 to 20): still full at the top, its first flow's rule on the first
        // line and its first event under it.
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[14].contains("── flow 1: Activate device ──"), "\(lines[14])")
        #expect(lines[15].contains("Start"), "\(lines[15])")
        #expect(lines[20].dropFirst().contains { $0.isLetter }, "the last line is not empty: \(lines[20])")
        // The next page starts after the last event shown.
        let top = driver.app.state.logScroll
        driver.press(.pageDown)
        let events = driver.app.state.log
        #expect(LogPane.firstShown(events, scroll: driver.app.state.logScroll, rows: AppView.logRows(driver.app.state)) == events.count - top)
        // Tab, End, Esc: the log follows the newest event again.
        driver.press(.tab, .end, .escape)
        #expect(driver.app.state.logScroll == 0)
        #expect(!driver.app.render().text.contains("newer below"))
        // Scrolled back, then a flow started from the menu: the log follows it.
        driver.press(.pageUp, .escape, .character("3"), .enter)
        #expect(driver.app.state.logScroll == 0)
        _ = driver.pump { _ in driver.isResult }
        #expect(!driver.app.render().text.contains("newer below"))
    }

    @Test func theFocusedLogAtItsTopStillFillsThePane() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.tab, .home)
        // The first flow's rule on the top line, its first event under it.
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[14].contains("── flow 1: Activate device"), "\(lines[14])")
        #expect(lines[15].contains("Start"), "\(lines[15])")
        #expect(lines[20].dropFirst().contains { $0.isLetter }, "the pane is full: \(lines[20])")
    }

    @Test func theWheelScrollsTheLog() {
        let driver = AppDriver()
        driver.activate()
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        #expect(driver.app.state.logScroll == 2)
        driver.app.handleMouse(MouseReport(button: 65, column: 10, row: 20, pressed: true))
        #expect(driver.app.state.logScroll == 1)
    }

    @Test func theWheelScrollsWhatIsUnderThePointer() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.escape)
        driver.openComparison()
        func comparisonScroll() -> Int? {
            if case .comparison(let comparison) = driver.app.state.screen { return comparison.scroll }
            return nil
        }
        // The report takes the log's rows on this screen: the wheel scrolls it wherever it is.
        driver.app.handleMouse(MouseReport(button: 65, column: 10, row: 5, pressed: true))
        #expect(comparisonScroll() == 1)
        driver.app.handleMouse(MouseReport(button: 65, column: 10, row: 20, pressed: true))  // where the log is elsewhere
        #expect(comparisonScroll() == 2)
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        #expect(comparisonScroll() == 1)
        #expect(driver.app.state.logScroll == 0, "the log, not on screen, did not move")
        // Back home, the same row is the log's again.
        driver.press(.escape)
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        #expect(driver.app.state.logScroll == 1)
    }

    /// The wheel over a form leaves the log alone: it scrolled it, and the log then stopped following the flow.
    @Test func theWheelOverAFormLeavesTheLogFollowing() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.escape, .character("2"), .enter)
        #expect(driver.pump { _ in driver.isForm })
        driver.app.handleMouse(MouseReport(button: 64, column: 40, row: 4, pressed: true))
        #expect(driver.app.state.logScroll == 0)
        #expect(driver.isForm)
        // Over the log it scrolls the log.
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        #expect(driver.app.state.logScroll == 1)
        // The focused log (Tab from the home screen) moves its selection, as ↑ does.
        driver.press(.escape)  // cancels the login
        #expect(driver.pump { if case .result = $0.state.screen { true } else { false } })
        driver.press(.enter, .tab)
        #expect({ if case .home = driver.app.state.screen { true } else { false } }())
        let selected = driver.app.state.logFocus?.selected
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        #expect(driver.app.state.logFocus != nil && driver.app.state.logFocus?.selected != selected)
    }

    @Test func theComparisonFitsSixtyByEighteen() {
        let driver = AppDriver(width: 60, height: 18)
        driver.openComparison()
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[14].contains("more (↑↓ PgUp PgDn Home End)"), "the note on the panel's last row: \(lines[14])")
        #expect(lines[2...13].filter { !$0.dropFirst(2).dropLast(2).allSatisfy(\.isWhitespace) }.count >= 11, "\(lines)")
        #expect(lines[15].contains("─") && lines[16].contains("device:"), "the frame, then the status line: \(lines)")
        driver.press(.end)
        let end = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(end[13].contains("device)."), "the report's last line above the note: \(end[13])")
    }
}
