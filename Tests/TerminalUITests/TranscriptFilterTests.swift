import FlowRecords
import TerminalUI
import Testing

/// A past flow's transcript is read as the event log is: its columns under their header, `/` to filter (smart
/// case), the filter's own keys while it is typed, Enter for a listed event whole, the first Esc clearing it.
@Suite struct TranscriptFilterTests {
    /// The transcript's event rows, inset in their frame ("│ "), as the screen shows them.
    private func rows(_ driver: AppDriver) -> [String] {
        let screen = driver.app.render()
        let lines = screen.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return screen.targets.sorted { $0.row < $1.row }.map { lines[$0.row] }
    }

    @Test func slashFiltersAPastFlowsEventsAndTheFirstEscClearsIt() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter, .character("h"), .enter)
        #expect(driver.app.render().text.contains("│ who       step"), "the log's columns' header")
        #expect(driver.app.render().text.contains("/ filter"), "the help bar names it")
        // Letters that are shortcuts elsewhere (q back, f faults, ? help, v diagram) are typed into the filter.
        driver.press(.character("/"), .character("I"), .character("d"), .character("P"))
        var text = driver.app.render().text
        #expect(text.contains("/IdP▏ · 8 of 20"), "\(text)")
        #expect(!rows(driver).isEmpty && rows(driver).allSatisfy { $0.contains("IdP") }, "\(rows(driver))")
        #expect(text.contains("type filter · enter keep · esc clear"), "\(text)")
        // The page keys move the selection while the filter is typed, as with it kept.
        driver.press(.end)
        if case .transcript(let transcript, _) = driver.app.state.screen {
            let last = transcript.events.lastIndex { $0.from.rawValue == "IdP" || $0.to.rawValue == "IdP" }
            #expect(transcript.scroll == last, "End while the filter is typed: the last IdP event (\(transcript.scroll))")
        }
        driver.press(.enter)
        #expect(driver.app.render().text.contains("esc clear the filter"), "a kept filter: Esc clears it first")
        driver.press(.end, .enter)
        text = driver.app.render().text
        #expect(text.contains("Event — esc closes") && text.contains("POST /token"), "the last IdP event whole: \(text)")
        driver.press(.escape, .escape)
        text = driver.app.render().text
        #expect(text.contains("Flow 1") && !text.contains("of 20"), "the first Esc clears the filter: \(text)")
        #expect(rows(driver).contains { !$0.contains("IdP") }, "every event listed again: \(rows(driver))")
        driver.press(.escape)
        #expect(driver.app.render().text.contains("History — 1 flow"))
    }

    @Test func shortcutLettersGoIntoTheFilterAndAFilterWithNoMatchSaysSo() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter, .character("h"), .enter, .character("/"))
        driver.press(.character("q"), .character("f"), .character("?"), .character("v"))
        let text = driver.app.render().text
        #expect(text.contains("/qf?v▏ · 0 of 20"), "\(text)")
        #expect(text.contains("no event matches the filter (esc clears it)"), "\(text)")
        #expect(!text.contains("Faults") && !text.contains("Sequence —"), "\(text)")
        driver.press(.escape)
        #expect(driver.app.render().text.contains("Flow 1") && !driver.app.render().text.contains("0 of 20"))
    }
}

/// The filter takes what the log's takes: a paste, a click on a row while it is typed, and a long filter keeps its
/// end, cursor and count in sight.
@Suite struct TranscriptFilterInputTests {
    private func openTranscript() -> AppDriver {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter, .character("h"), .enter, .character("/"))
        return driver
    }

    /// A paste went nowhere ("paste ignored: no text field has focus") while the help bar said "type filter".
    @Test func aPasteGoesIntoTheFilterBeingTyped() {
        let driver = openTranscript()
        driver.app.handlePaste("PO\nST\u{1}")
        let text = driver.app.render().text
        #expect(text.contains("/POST▏ · 6 of 20"), "line breaks and control characters left out")
        #expect(!text.contains("paste ignored"), "\(text)")
    }

    /// A click on a row while the filter is typed opens that event, as it does with the filter kept (it only ended
    /// the typing).
    @Test func aClickOnARowWhileTheFilterIsTypedOpensIt() throws {
        let driver = openTranscript()
        for character in "token" { driver.press(.character(character)) }
        let screen = driver.app.render()
        let target = try #require(screen.targets.first)
        // A report's row and column count from 1; the screen's from 0.
        driver.app.handleMouse(MouseReport(button: 0, column: target.column + 3, row: target.row + 1, pressed: true))
        driver.app.handleMouse(MouseReport(button: 0, column: target.column + 3, row: target.row + 1, pressed: false))
        let text = driver.app.render().text
        #expect(text.contains("Event — esc closes") && text.contains("/token"), "\(text)")
    }

    /// A filter longer than its room keeps its end, the cursor and the count (it kept its start, and they went).
    @Test func aLongFilterKeepsItsEndCursorAndCount() {
        let driver = openTranscript()
        for character in "abcdefghijklmnopqrstuvwxyz0123456789XYZ" { driver.press(.character(character)) }
        let text = driver.app.render().text
        #expect(text.contains("XYZ▏ · 0 of 20"), "\(text)")
        #expect(text.contains("/…"), "\(text)")
    }
}

/// A past flow's screen names the SDK its kind drives, as each family declares it (`FlowKind.sdk`): a KSSIDP flow's
/// transcript (from `idp-tui run legacy-login` on the same state file) sat under "IdpSdk on MC-SDK", the name every
/// flow but a payment's and Q2's fell back to.
@Suite struct TranscriptHeaderTests {
    @Test func aKSSIDPFlowsTranscriptNamesTheWrapper() throws {
        let driver = AppDriver()
        let event = RecordedEvent(sequence: 1, step: "login", from: "App", to: "KSSIDP", thread: "idp-tui.flow",
                                  time: "2030-01-01T00:00:00.000Z", duration: nil, status: nil, detail: "clientId=KssIdpLogin")
        let summary = HistorySummary(id: 0, time: "2030-01-01T00:00:00.000Z", flow: "legacy-login", user: "alice", outcome: .success,
                                     status: "OK", duration: 1000)
        _ = try driver.service.history?.record(HistoryRecord(summary: summary, resultJSON: "{}", events: [event]))
        driver.press(.character("h"), .enter)
        let text = driver.app.render().text
        #expect(text.hasPrefix(" idp-tui · KSSIDP wrapper on MC-SDK"), "\(text)")
        #expect(text.contains("legacy-login · alice"), "\(text)")
    }
}

/// A past flow's transcript takes the live log's rows, as the KSSIDP comparison does: it is that flow's log (at 80×24
/// a failed login showed 2 of its 14 events under its header and error, over the live log's nine rows).
@Suite struct TranscriptRowsTests {
    @Test func aTranscriptTakesTheLogsRows() {
        let driver = AppDriver()
        driver.activate(password: "wrong")
        driver.press(.escape, .character("h"), .enter)
        let screen = driver.app.render()
        #expect(screen.text.contains("activate · alice · failure WRONG_CREDENTIALS"), "\(screen.text)")
        #expect(!screen.text.contains("SDK events —"), "no live log under it: \(screen.text)")
        #expect(screen.targets.count >= 10, "\(screen.targets.count) events shown: \(screen.text)")
    }
}
