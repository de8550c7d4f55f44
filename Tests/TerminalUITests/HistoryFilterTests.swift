import FlowRecords
import Foundation
import LocaleText
import TerminalUI
import Testing

/// The history list pages and filters as the transcript and the log do (a tester with 26 flows could neither: `/`
/// did nothing, and PgDn paged the event log below).
@Suite struct HistoryFilterTests {
    /// Activation, then 30 copies of it (another process's flows), then a payment the issuer could not authenticate:
    /// 32 flows, one failed, on the history screen.
    func thirtyTwoFlows(_ driver: AppDriver) throws {
        driver.activate()
        driver.press(.enter)
        let history = try #require(driver.service.history)
        let first = try #require(try history.record(id: 1))
        for _ in 0..<30 { _ = try history.record(first) }
        driver.pay(card: "4000000000002313", expiry: "01/30")
        driver.pump { _ in driver.isResult }
        driver.press(.escape, .character("h"))
    }

    @Test func slashFiltersTheFlowsAndEscClearsIt() throws {
        let driver = AppDriver()
        try thirtyTwoFlows(driver)
        #expect(driver.app.render().text.contains("History — 32 flows"))
        driver.press(.character("/"))
        // Typed, not taken as keys: q did not leave, f open the faults panel, ? the help, j k move.
        driver.type("qfj?kh")
        #expect(driver.app.render().text.contains("History — /qfj?kh▏ · 0 of 32 flows"), "\(driver.app.render().text)")
        #expect(driver.app.state.faultsPanel == nil && !driver.app.state.showHelp)
        driver.press(.control("u"))
        driver.type("fail")
        let text = driver.app.render().text
        #expect(text.contains("History — /fail▏ · 1 of 32 flows"), "\(text)")
        #expect(text.contains("payer-auth none failure AUTHENTICATION_UNAVAILABLE") && !text.contains(" activate "), "\(text)")
        // Enter keeps it, and opens the flow it lists; back, the list keeps the filter.
        driver.press(.enter)
        #expect(driver.app.render().text.contains("History — /fail · 1 of 32 flows"))
        driver.press(.enter)
        if case .transcript(let transcript, _) = driver.screen { #expect(transcript.record.summary.flow == "payer-auth") } else { Issue.record("no transcript") }
        driver.press(.escape)
        #expect(driver.app.render().text.contains("History — /fail · 1 of 32 flows"), "\(driver.app.render().text)")
        // Nothing matches: said so; the first Esc clears the filter, the next goes home.
        driver.press(.character("/"))
        driver.type("zzz")
        driver.press(.enter)
        #expect(driver.app.render().text.contains("No flow matches the filter (esc clears it)."), "\(driver.app.render().text)")
        driver.press(.escape)
        #expect(driver.app.render().text.contains("History — 32 flows"), "\(driver.app.render().text)")
        driver.press(.escape)
        if case .home = driver.screen {} else { Issue.record("not home: \(driver.screen)") }
    }

    /// PgDn and PgUp move the selection a page of flows (the rows shown, less one), and stay within the list.
    @Test func pageKeysPageTheList() throws {
        let driver = AppDriver()
        try thirtyTwoFlows(driver)
        func selection() -> Int? { if case .history(let list) = driver.screen { list.selection } else { nil } }
        let logScroll = driver.app.state.logScroll
        driver.press(.pageDown)
        let page = try #require(selection())
        #expect(page > 1, "a page, not a row")
        #expect(driver.app.state.logScroll == logScroll, "the log below did not move")
        driver.press(.pageDown)
        #expect(selection() == 2 * page)
        driver.press(.pageUp, .pageUp, .pageUp)
        #expect(selection() == 0)
        for _ in 0..<10 { driver.press(.pageDown) }
        #expect(selection() == 31)
    }

    /// Esc on a kept filter keeps the flow selected, in the whole list (the index into the filtered list landed on
    /// another); a paste goes into the filter being typed; a click on a row while it is typed opens that flow.
    @Test func theSelectionAPasteAndAClickWithAFilter() throws {
        let driver = AppDriver()
        try thirtyTwoFlows(driver)
        func list() -> HistoryState? { if case .history(let list) = driver.screen { list } else { nil } }
        driver.press(.character("/"))
        driver.app.handlePaste("activ")
        #expect(list()?.filter == "activ" && list()?.entries.count == 31, "\(String(describing: list()?.filter))")
        driver.press(.enter, .down, .down, .down)
        let chosen = try #require(list().map { $0.entries[$0.selection].id })
        driver.press(.escape)
        #expect(list()?.filter == "" && list().map { $0.entries[$0.selection].id } == chosen)
        // A click on a row while the filter is typed opens it.
        driver.press(.character("/"))
        driver.type("fail")
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let row = try #require(lines.firstIndex { $0.contains("AUTHENTICATION_UNAVAILABLE") })
        let column = CharacterWidth.of(lines[row].prefix { $0 == " " || $0 == "│" }) + 2
        driver.app.handleMouse(MouseReport(button: 0, column: column, row: row + 1, pressed: true))
        driver.app.handleMouse(MouseReport(button: 0, column: column, row: row + 1, pressed: false))
        if case .transcript(let transcript, _) = driver.screen { #expect(transcript.record.summary.flow == "payer-auth") } else {
            Issue.record("the click did not open the flow: \(driver.app.render().text)")
        }
    }
}
