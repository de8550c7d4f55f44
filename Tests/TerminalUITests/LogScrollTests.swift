import FlowEngine
@testable import TerminalUI
import Testing

extension AppDriver {
    /// A challenge payment (card 2503, code 1234) that succeeds.
    func payWithAChallenge() {
        pay(card: "4000000000002503", expiry: "01/30")
        type("1234")
        press(.enter)
        pump { _ in self.isResult }
    }

    /// An activation and three log-outs, each a rule in the log (a page of rows skipped an event for each rule in
    /// view); the log focused on its first event.
    static func fourFlowsLogFocusedOnTheFirst() -> AppDriver {
        let driver = AppDriver()
        driver.activate()
        for _ in 0..<3 {
            driver.press(.enter, .character("3"), .enter)
            driver.pump { _ in driver.isResult }
        }
        driver.press(.tab, .home)
        return driver
    }
}

/// The focused event log scrolls as lazygit's and less's lists do.
@Suite struct FocusedLogScrollTests {
    func logLines(_ driver: AppDriver) -> [String] {
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.firstIndex(where: { $0.contains("who") && $0.contains("status · took") }),
              let bottom = lines[header...].firstIndex(where: { $0.hasPrefix("└") }) else { return [] }
        return Array(lines[header..<bottom])
    }

    /// The selection moves within the rows shown; the view scrolls only when it leaves them, and then the title
    /// says how many newer events are hidden below (the selection was pinned to the bottom line and the whole
    /// list moved a line per ↑, with no note).
    @Test func theSelectionMovesWithinTheViewAndTheTitleSaysWhatIsBelow() throws {
        let driver = AppDriver()
        driver.activate()
        let rows = logLines(driver).count - 1
        #expect(rows == 7)
        let before = logLines(driver)
        driver.press(.tab)
        for _ in 0..<(rows - 1) { driver.press(.up) }
        #expect(logLines(driver) == before, "the view stays while the selection moves up to its top line")
        #expect(!driver.app.render().text.contains("newer below"))
        driver.press(.up)
        let text = driver.app.render().text
        #expect(text.contains(" above — 1 newer below — ↑↓ select"), "\(text)")
        #expect(Array(logLines(driver)[1...].dropFirst()) == Array(before[1...].dropLast()), "the view moved one event")
        // Back down: the view stays until the selection passes its bottom line.
        let scrolled = logLines(driver)
        for _ in 0..<(rows - 1) { driver.press(.down) }
        #expect(logLines(driver) == scrolled)
        driver.press(.down)
        #expect(!driver.app.render().text.contains("newer below"))
        // Esc leaves the log where it was.
        driver.press(.up, .up, .up, .up, .up, .up, .up, .up, .escape)
        #expect(driver.app.state.logScroll == 2)
    }

    /// PgDn from the bottom line of the focused log shows the next events, none skipped unseen (it moved the
    /// selection 10 where 7 show, and three went by), and PgUp comes back to where it was.
    @Test func aPageOfTheFocusedLogIsTheRowsShown() throws {
        let driver = AppDriver.fourFlowsLogFocusedOnTheFirst()
        let events = driver.app.state.log
        let rows = AppView.logRows(driver.app.state)
        func shown() -> ClosedRange<Int> {
            let scroll = driver.app.state.logFocus?.scroll ?? 0
            return LogPane.firstShown(events, scroll: scroll, rows: rows)...(events.count - 1 - scroll)
        }
        var seen = Set(shown())
        for _ in 0..<events.count where seen.count < events.count {
            driver.press(.pageDown)
            seen.formUnion(shown())
        }
        #expect(seen.count == events.count, "events never shown: \(Set(events.indices).subtracting(seen).sorted())")
        let selected = { (driver.app.state.logFocus?.selected).flatMap { $0 } }
        driver.press(.home, .pageDown)
        let there = selected()
        #expect(there != nil)
        driver.press(.pageDown, .pageUp)
        #expect(selected() == there)
    }

    /// Home, then PgDn, pages the view with the selection, which keeps its row, as less, lazygit and k9s do: the
    /// next page starts after the last event shown (the view moved only two rows, as far as the selection left it).
    @Test func aPageMovesTheViewWithTheSelection() throws {
        let driver = AppDriver.fourFlowsLogFocusedOnTheFirst()
        let events = driver.app.state.log
        let rows = AppView.logRows(driver.app.state)
        let lastShown = events.count - 1 - (driver.app.state.logFocus?.scroll ?? 0)
        // Home: the flow's rule on the top line, the first event selected under it.
        #expect(logLines(driver).dropFirst().first?.contains("flow 1") == true)
        driver.press(.pageDown)
        let first = LogPane.firstShown(events, scroll: try #require(driver.app.state.logFocus?.scroll), rows: rows)
        #expect(first == lastShown + 1, "the next page starts after the last event shown")
        let selected = try #require((driver.app.state.logFocus?.selected).flatMap { $0 })
        #expect(events.firstIndex { $0.sequence == selected } == first + 1, "the selection keeps its row, the second")
        driver.press(.pageUp)
        #expect(driver.app.state.logFocus?.selected == events[0].sequence)
        #expect(logLines(driver).dropFirst().first?.contains("flow 1") == true)
    }

    /// A form that comes while the log has the focus takes the keys and leaves the log where the selection was, as
    /// Esc does (it jumped back to the newest, and the title lost its "newer below").
    @Test func aFormThatComesLeavesTheLogWhereTheSelectionWas() throws {
        let driver = AppDriver(latency: .seconds(5))
        driver.press(.enter)
        #expect(driver.clock.waitForPendingTimers(atLeast: 1))
        driver.pump { app in app.state.log.contains { $0.step == .getAuthorizationCode } }
        driver.press(.tab, .home)
        let first = try #require(driver.app.state.log.first)
        driver.clock.advance(by: .seconds(60))
        #expect(driver.pump { _ in if case .form = driver.screen { true } else { false } })
        #expect(driver.app.state.logFocus == nil, "the form has the keys")
        let text = driver.app.render().text
        #expect(text.contains("newer below"), "\(text)")
        let shown = driver.app.state.log.count - 1 - driver.app.state.logScroll
        #expect(shown >= 0 && shown < driver.app.state.log.count && driver.app.state.logScroll > 0, "\(text)")
        // Under the header and the flow's rule.
        #expect(logLines(driver).dropFirst(2).first?.contains("→ MC-SDK  \(first.step.rawValue) ") == true, "the first event stays at the top: \(text)")
    }

    /// The columns are as wide as the widest value of every event, not of those shown: they stay put as the log
    /// scrolls (the step and thread columns narrowed when only short names were in view).
    @Test func theColumnsStayPutAsTheLogScrolls() {
        let driver = AppDriver()
        driver.payWithAChallenge()
        driver.press(.tab)
        let header = logLines(driver).first
        var headers: Set<String> = []
        for _ in 0..<30 {
            driver.press(.up)
            headers.insert(logLines(driver).first ?? "")
        }
        driver.press(.escape)
        for _ in 0..<6 {
            driver.press(.pageDown)
            headers.insert(logLines(driver).first ?? "")
        }
        #expect(headers == [header ?? ""], "\(headers)")
    }

    /// From one flow into another too: a payment's and a Q2 login's events in one log keep the same columns as it
    /// scrolls (they were fitted to the flows in view, and the who column went from 16 to 9 across the rule).
    /// Every group of events has its flow's rule above it, the first one too: a filter's first group (or a session's
    /// first flow) was the one group without a name.
    @Test func aFilteredLogNamesTheFlowOfItsFirstGroup() {
        let driver = AppDriver(height: 30)
        driver.activate()
        driver.press(.enter)
        driver.payWithAChallenge()
        driver.press(.enter)
        driver.press(.tab, .character("/"))
        driver.type("onPayer")
        let lines = logLines(driver)
        let rules = lines.filter { $0.contains("── flow ") }
        #expect(rules.count == 1 && rules[0].contains("── flow 2: Pay with card"), "\(lines)")
        #expect(lines.count > 2 && lines[1] == rules.first, "the rule is the first line under the header: \(lines)")
        #expect(lines.dropFirst(2).first?.contains("onPayerAuthenticati") == true, "\(lines.joined(separator: "\n"))")
    }

    /// Home on the focused log, filtered or not, shows the first event under its flow's rule (the view stopped as soon
    /// as the event showed, one line short of its rule, and the first group was never named).
    @Test func homeOnTheFocusedLogShowsTheFirstFlowsRule() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter)
        driver.payWithAChallenge()
        driver.press(.enter)
        driver.press(.tab, .home)
        var lines = logLines(driver)
        #expect(lines.count > 2 && lines[1].contains("── flow 1: Activate device") && lines[2].contains("Start"), "\(lines.joined(separator: "\n"))")
        // A filter whose matches outgrow the view: its first group's rule, from Home.
        driver.press(.character("/"))
        driver.type("a")
        driver.press(.enter, .home)
        lines = logLines(driver)
        #expect(lines.count > 1 && lines[1].contains("── flow 1: Activate device"), "\(lines.joined(separator: "\n"))")
    }

    /// A filter's matches that outgrow the view say how many are above, as the history's transcript does: "8 of 20"
    /// over seven rows said nothing of the eighth.
    @Test func theFocusedLogSaysHowManyEventsAreAbove() throws {
        let driver = AppDriver()
        driver.activate()
        driver.press(.tab, .character("/"))
        driver.type("IdP")
        driver.press(.enter)
        let text = driver.app.render().text
        let title = try #require(text.split(separator: "\n").first { $0.contains("SDK events") }.map(String.init))
        let listed = try #require(title.firstMatch(of: /· (\d+) of \d+/).flatMap { Int($0.1) })
        let shown = logLines(driver).dropFirst().filter { !$0.contains("── flow ") }.count
        #expect(listed > shown, "the filter's matches fit the view: \(text)")
        #expect(title.contains("↑ \(listed - shown) above"), "\(title)")
        // The keys after it are whole or left to the help bar, never cut mid-word ("end newe…").
        #expect(!title.contains("…"), "\(title)")
        driver.press(.home)
        #expect(!driver.app.render().text.contains(" above"), "\(driver.app.render().text)")
    }

    /// A log of one row (a result at 60×18) scrolled to its top shows its first event: the first flow's rule, which
    /// has no room there, took the row and left the log empty, its title saying every event was below.
    @Test func aOneRowLogScrolledToTheTopShowsAnEvent() {
        let driver = AppDriver(width: 60, height: 18)
        driver.activate()
        for _ in 0..<60 { driver.press(.pageUp) }
        let lines = logLines(driver)
        #expect(lines.dropFirst().contains { $0.contains("Start") }, "\(driver.app.render().text)")
        #expect(driver.app.state.logScroll < driver.app.state.log.count, "\(driver.app.state.logScroll) of \(driver.app.state.log.count)")
    }

    /// A long filter keeps its end and cursor in the title (the keys' note goes first, then the filter's start), and
    /// "no event matches" wraps whole over the log's rows (it was cut mid-word, and Ctrl-W seemed to do nothing).
    @Test(arguments: [80, 60])
    func aLongFilterKeepsItsEndInSight(width: Int) {
        let driver = AppDriver(width: width, height: 24)
        driver.activate()
        driver.press(.tab, .character("/"))
        driver.type("authorization code received xyz more text")
        var title = logTitle(driver)
        #expect(title.contains("more tex▏"), "\(title)")
        #expect(!title.contains("enter keeps it"), "the keys' note went first: \(title)")
        driver.press(.control("w"))
        title = logTitle(driver)
        #expect(title.contains("xyz more ▏"), "\(title)")
        let text = driver.app.render().text
        #expect(text.replacingOccurrences(of: "│", with: "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ").contains("backspace widens it."), "\(text)")
    }

    private func logTitle(_ driver: AppDriver) -> String {
        driver.app.render().text.split(separator: "\n").first { $0.contains("SDK events") }.map(String.init) ?? ""
    }

    /// `v` with the log focused shows the diagram, as from the screen (it did nothing there).
    @Test func vFromTheFocusedLogShowsTheDiagram() {
        // Wide enough for the help bar to keep `v` (it drops it first, before esc and F1).
        let driver = AppDriver(width: 100)
        driver.activate()
        driver.press(.tab)
        let bar = driver.app.render().text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(bar.contains("v diagram"), "the help bar names it: \(bar)")
        driver.press(.character("v"))
        #expect(driver.app.state.logFocus == nil && driver.app.state.logAsSequence)
        #expect(driver.app.render().text.contains("Sequence — flow 1: Activate device"))
    }

    /// The diagram pages over its own arrows (the newest flow's): PgUp stops at its top, and PgDn moves it at once
    /// (the list's limit, over every event, let PgUp run on, and PgDn then did nothing for several presses).
    @Test func theDiagramPagesOverItsOwnArrows() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter)
        driver.payWithAChallenge()
        driver.press(.enter, .character("v"))
        for _ in 0..<30 { driver.press(.pageUp) }
        let arrows = driver.app.state.log.filter { $0.flowID == driver.app.state.log.last?.flowID }.count
        let top = driver.app.state.logScroll
        #expect(top == arrows - AppView.logRows(driver.app.state), "\(top) of \(arrows)")
        let before = driver.app.render().text
        driver.press(.pageDown)
        #expect(driver.app.render().text != before, "PgDn moves the diagram at once")
    }

    @Test func theColumnsStayPutAcrossFlows() {
        let driver = AppDriver()
        driver.payWithAChallenge()
        driver.press(.enter)
        driver.signInQ2()
        driver.press(.enter)
        var headers: Set<String> = []
        for _ in 0..<12 {
            headers.insert(logLines(driver).first ?? "")
            driver.press(.pageUp)
        }
        #expect(headers.count == 1, "\(headers)")
    }

    /// The detail view stops at its last page: PgDn went on past the end (the title stayed "4–22 of 22 lines") and ↑
    /// then did nothing for as many presses as it had gone past.
    @Test func theDetailViewStopsAtItsEndAndUpMovesAtOnce() {
        let driver = AppDriver()
        driver.payWithAChallenge()
        driver.press(.tab)
        // The newest event with a 3-D Secure message, whose detail is longer than the screen.
        var title = ""
        for _ in 0..<40 {
            driver.press(.enter)
            title = driver.app.render().text.split(separator: "\n").first { $0.contains("Event — esc closes") }.map(String.init) ?? ""
            if title.contains(" of ") { break }
            driver.press(.escape, .up)
        }
        guard let total = title.split(separator: " ").firstIndex(of: "of").map({ title.split(separator: " ")[$0 + 1] }) else {
            Issue.record("no event's detail needs scrolling: \(title)")
            return
        }
        for _ in 0..<8 { driver.press(.pageDown) }
        let end = driver.app.render().text
        driver.press(.up)
        let upOnce = driver.app.render().text
        #expect(end.contains("of \(total) lines") && end.contains("–\(total) of"), "\(end)")
        #expect(!upOnce.contains("–\(total) of"), "one ↑ leaves the last line: \(upOnce)")
    }

    /// "Terminals 110 columns or wider add the time" (docs/terminal.md): the thresholds are the terminal's
    /// columns, not the pane's inside (the time came only from 112).
    @Test func theTimeColumnComesAtATerminalOf110Columns() {
        for (width, shown) in [(109, false), (110, true)] {
            let driver = AppDriver(width: width, height: 30)
            let header = driver.app.render().text.split(separator: "\n").first { $0.contains("who") && $0.contains("step") }
            #expect(header?.contains("time") == shown, "\(width) columns: \(header ?? "no log header")")
        }
    }

    /// A wide terminal gives the step column the room it has: at 160 columns a bridge message's name is whole (a
    /// fixed 28 cut "safepay-inframe__messages-p…" with 60 columns of detail free).
    @Test func aWideLogShowsLongStepsWhole() {
        let driver = AppDriver(width: 160, height: 40)
        driver.openPayment()
        driver.pump { _ in driver.app.render().text.contains("card form shown") }
        let text = driver.app.render().text
        #expect(text.contains("safepay-inframe__messages-processed "), "\(text)")
        #expect(!text.contains("safepay-inframe__messages-p…"))
    }
}

/// What the "who" column says of an event within the app.
@Suite struct LogWhoTests {
    /// A KSSIDP app collects every credential itself before calling the wrapper (an event from the app to the app):
    /// the log marked it "✕", the cancel's mark, in a flow that succeeded.
    @Test func theLegacyAppCollectingCredentialsIsNotMarkedAsACancel() throws {
        let driver = AppDriver(width: 120, height: 60)
        driver.activateThroughKSSIDP()
        #expect(driver.result?.outcome == .success)
        let text = driver.app.render().text
        let row = try #require(text.split(separator: "\n").first { $0.contains("the app collects") }, "\(text)")
        #expect(!row.contains("✕") && row.contains("• App"), "\(row)")
    }

    /// The app's cancel of a call in flight (the manual clock never ends the IdP's latency) keeps its mark.
    @Test func aCancelIsMarked() throws {
        let driver = AppDriver(width: 120, height: 60, latency: .seconds(5))
        driver.press(.enter)
        #expect(driver.clock.waitForPendingTimers(atLeast: 1))
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
        let text = driver.app.render().text
        let row = try #require(text.split(separator: "\n").first { $0.contains("USER_CANCEL") && $0.contains("cancel ") }, "\(text)")
        #expect(row.contains("✕"), "\(row)")
        driver.clock.advance(by: .seconds(10))
    }
}
