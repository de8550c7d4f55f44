import TerminalUI
import Testing

/// Whatever is over the screen (the faults panel, the test cards, the focused log, an event whole, the help
/// itself), the help bar says how to leave it and how to get help, at the narrowest size too; and F1 opens the help
/// over the panels (it did nothing over the faults panel and the test cards).
@Suite struct HelpEverywhereTests {
    /// The bottom row.
    private func helpBar(_ driver: AppDriver) -> String {
        String(driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false).last { !$0.allSatisfy { $0 == " " } } ?? "")
    }

    private func expectEscAndHelp(_ driver: AppDriver, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bar = helpBar(driver)
        #expect(bar.contains("esc"), "\(what): \(bar)", sourceLocation: sourceLocation)
        #expect(bar.contains("F1 help") || bar.contains("? close help"), "\(what): \(bar)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [(80, 24), (60, 18)])
    func everyOverlaySaysEscAndHelp(width: Int, height: Int) {
        let driver = AppDriver(width: width, height: height)
        driver.press(.character("f"))
        #expect(driver.app.state.faultsPanel != nil)
        expectEscAndHelp(driver, "faults panel")
        driver.press(.escape, .f1)
        #expect(driver.app.state.showHelp)
        expectEscAndHelp(driver, "help")
        driver.press(.escape)
        driver.openPayment()
        driver.press(.f4)
        #expect(driver.app.state.cardPicker != nil)
        expectEscAndHelp(driver, "test cards")
        driver.press(.character("v"))
        expectEscAndHelp(driver, "test cards, filtering")
        // The payment cancelled: its events are in the log, which Tab focuses from the result.
        driver.press(.escape, .escape, .escape)
        #expect(driver.pump { if case .result = $0.state.screen { true } else { false } })
        driver.press(.tab)
        #expect(driver.app.state.logFocus != nil)
        expectEscAndHelp(driver, "focused log")
        driver.press(.enter)
        #expect(driver.app.state.logFocus?.detail != nil)
        expectEscAndHelp(driver, "an event whole")
        driver.press(.escape, .character("/"))
        #expect(driver.app.state.logFocus?.editingFilter == true)
        expectEscAndHelp(driver, "the log's filter")
    }

    /// q closes the help, as less's and k9s's (it did nothing), and quits nothing: the home screen is back.
    @Test func qClosesTheHelp() {
        let driver = AppDriver()
        driver.press(.character("?"))
        #expect(driver.app.state.showHelp)
        #expect(driver.app.render().text.contains("esc q ? close help"))
        driver.press(.character("q"))
        #expect(!driver.app.state.showHelp)
        #expect(driver.app.render().text.contains("What would you like to do?"))
    }

    @Test func f1OpensTheHelpOverTheFaultsPanelAndTheTestCardsAndEscGivesThemBack() {
        let driver = AppDriver()
        driver.press(.character("f"), .f1)
        #expect(driver.app.state.showHelp)
        driver.press(.escape)
        #expect(!driver.app.state.showHelp && driver.app.state.faultsPanel != nil)
        // ? too, as everywhere nothing is typed (the help's title says "? or F1 closes"), and ? closes it again.
        driver.press(.character("?"))
        #expect(driver.app.state.showHelp)
        driver.press(.character("?"))
        #expect(!driver.app.state.showHelp && driver.app.state.faultsPanel != nil)
        driver.press(.escape)
        driver.openPayment()
        driver.press(.f4, .f1)
        #expect(driver.app.state.showHelp)
        driver.press(.escape)
        #expect(!driver.app.state.showHelp && driver.app.state.cardPicker != nil)
    }

    /// The help lists the keys of what is under it first (its help bar's), then every key, as lazygit's and k9s's
    /// do: over the faults panel it began with a form's editing keys.
    @Test func theHelpListsTheScreensOwnKeysFirst() throws {
        let driver = AppDriver()
        driver.press(.character("f"), .f1)
        let text = driver.app.render().text
        let allOff = try #require(text.range(of: "all off"), "\(text)")
        let editing = try #require(text.range(of: "move in a menu"), "\(text)")
        #expect(allOff.lowerBound < editing.lowerBound, "\(text)")
        driver.press(.escape, .escape)
        driver.openPayment()
        driver.press(.f1)
        let form = driver.app.render().text
        #expect(try #require(form.range(of: "test cards")).lowerBound < (try #require(form.range(of: "move in a menu"))).lowerBound, "\(form)")
    }
}
