import FlowRecords
import Foundation
@testable import TerminalUI
import Testing

/// The history's columns and the transcript's header at 80 columns.
@Suite struct HistoryLayoutTests {
    /// A payment the issuer could not authenticate (Cardinal's case 4): its status, AUTHENTICATION_UNAVAILABLE.
    func payUnavailable(_ driver: AppDriver) {
        driver.pay(card: "4000000000002313", expiry: "01/30")
        driver.pump { _ in driver.isResult }
        driver.press(.escape, .character("h"))
    }

    /// Columns as wide as their values: the status whole, with the time (STATUS was cut to "AUTHENTICATION_U…"
    /// while USER took 8 columns for "—").
    @Test func theStatusIsWholeAt80Columns() {
        let driver = AppDriver()
        payUnavailable(driver)
        let text = driver.app.render().text
        #expect(text.contains("ID TIME (UTC)          FLOW       USER OUTCOME STATUS"), "\(text)")
        #expect(text.contains(" payer-auth none failure AUTHENTICATION_UNAVAILABLE"), "\(text)")
    }

    /// A challenge payment failed by three wrong codes: 31 events, AUTHENTICATION_FAILED.
    func failAChallenge(_ driver: AppDriver) {
        driver.pay(card: "4000000000002503", expiry: "01/30")
        for _ in 0..<3 {
            let before = driver.challenge
            driver.type("9999")
            driver.press(.enter)
            driver.nextScreen(after: before)
        }
    }

    /// A past flow whose header fills its line still says how many of its events are out of view: the header's last
    /// part goes on to make room (a failed challenge's 31 events showed 5, and nothing said so).
    @Test func aFullHeaderMakesRoomForTheHiddenEventsNote() throws {
        let driver = AppDriver()
        failAChallenge(driver)
        #expect(driver.isResult)
        driver.press(.escape, .character("h"), .enter)
        func headerEnd() -> String {
            let lines = driver.app.render().text.split(separator: "\n").map(String.init)
            return lines.first { $0.contains(" events") } ?? ""
        }
        #expect(headerEnd().contains("↓"), "no note of the events below: \(driver.app.render().text)")
        driver.press(.end)
        #expect(headerEnd().contains("↑"), "\(driver.app.render().text)")
    }

    /// `v` twice leaves the selected event selected (the diagram's shorter range moved event 20's selection to 14);
    /// moved in the diagram, the list goes where the diagram was.
    @Test func theDiagramAndBackKeepTheSelection() throws {
        let driver = AppDriver()
        failAChallenge(driver)
        driver.press(.escape, .character("h"), .enter)
        for _ in 0..<19 { driver.press(.down) }
        func selection() -> Int? {
            if case .transcript(let transcript, _) = driver.app.state.screen { return transcript.scroll }
            return nil
        }
        #expect(selection() == 19)
        driver.press(.character("v"), .character("v"))
        #expect(selection() == 19)
        driver.press(.character("v"), .home, .character("v"))
        #expect(selection() == 0)
        // Resized while the diagram is open, it is still unmoved (the resize's clamp read as a move).
        for _ in 0..<30 { driver.press(.down) }
        let last = selection()
        driver.press(.character("v"))
        driver.app.resize(width: 80, height: 30)
        driver.press(.character("v"))
        #expect(selection() == last)
    }

    /// Grown from 60×18, a diagram scrolled to its end is at the new end: the first ↑ moves it (six did nothing in a
    /// past flow's diagram, and the first PgDn nothing in the live one).
    @Test func aDiagramAtItsEndStaysThereWhenTheTerminalGrows() throws {
        let driver = AppDriver(width: 60, height: 18)
        failAChallenge(driver)
        // The live diagram, scrolled back as far as it goes.
        driver.press(.escape, .character("v"))
        for _ in 0..<40 { driver.press(.pageUp) }
        let top = driver.app.state.logScroll
        driver.app.resize(width: 80, height: 24)
        let grown = driver.app.state.logScroll
        #expect(grown < top)
        driver.press(.pageDown)
        #expect(driver.app.state.logScroll < grown, "the first PgDn moved nothing")
        driver.press(.character("v"))
        // A past flow's diagram at its end.
        driver.app.resize(width: 60, height: 18)
        driver.press(.character("h"), .enter, .character("v"), .end)
        func scroll() -> Int? {
            if case .transcript(let transcript, _) = driver.app.state.screen { return transcript.scroll }
            return nil
        }
        #expect(scroll() != nil)
        driver.app.resize(width: 80, height: 24)
        let atEnd = driver.app.render().text
        driver.press(.up)
        #expect(driver.app.render().text != atEnd, "the first ↑ moved nothing")
    }

    /// At 60×18 a user name longer than a line is cut in the header, which keeps the status, the time and the count
    /// (they were pushed out of it).
    @Test func aLongUserNameLeavesTheHeaderItsStatus() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.openQ2()
        driver.type("maximiliana.vandenberghe-longname@example.com.something-long")
        driver.press(.tab)
        driver.type("wrong")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        driver.press(.escape, .character("h"), .enter)
        let text = driver.app.render().text
        // The header's own count and note (the log pane's title says "SDK events" too).
        let count = try Regex("[0-9]+ events")
        #expect(text.contains("INVALID_CREDENTIALS") && text.contains(count), "\(text)")
        let header = text.split(separator: "\n").first { $0.contains(count) } ?? ""
        #expect(header.contains("↓"), "\(text)")
    }

    /// Activates, then records `copies` more copies of that flow (another process's flows), back on the home menu.
    func activateWithCopies(_ driver: AppDriver, _ copies: Int) throws -> any FlowHistory {
        driver.activate()
        driver.press(.enter)
        let history = try #require(driver.service.history)
        let first = try #require(try history.record(id: 1))
        for _ in 0..<copies { _ = try history.record(first) }
        return history
    }

    /// After End, ↑ moves the selection up the rows shown, as lazygit's and k9s's lists do: the list and its
    /// transcripts scrolled under a selection pinned to the last row on every key ("↑ 18 above", "↑ 17 · ↓ 1" …).
    @Test func upAfterEndMovesTheSelectionNotTheList() throws {
        let driver = AppDriver()
        _ = try activateWithCopies(driver, 40)
        driver.press(.character("h"), .end)
        func note() -> String { driver.app.render().text.split(separator: "\n").first { $0.contains("above") }.map(String.init) ?? "" }
        let atEnd = note()
        #expect(atEnd.contains("↑"), "\(driver.app.render().text)")
        driver.press(.up, .up, .up)
        #expect(note() == atEnd, "\(driver.app.render().text)")
        driver.press(.enter, .end)  // a transcript of the activation's events
        let transcriptAtEnd = note()
        #expect(transcriptAtEnd.contains("↑"), "\(driver.app.render().text)")
        driver.press(.up, .up, .up)
        #expect(note() == transcriptAtEnd, "\(driver.app.render().text)")
    }

    /// The list shows the newest 200 flows; with older ones in the file its title says so, and where they are (it
    /// said "History — 200 flows" of a file that kept 1,000).
    @Test func theTitleSaysWhenOlderFlowsAreNotListed() throws {
        let driver = AppDriver(width: 100, height: 30)
        let history = try activateWithCopies(driver, 199)
        let first = try #require(try history.record(id: 1))
        driver.press(.character("h"))
        #expect(driver.app.render().text.contains("History — 200 flows"), "\(driver.app.render().text)")
        driver.press(.escape)
        _ = try history.record(first)
        driver.press(.character("h"))
        // In memory (--ephemeral, as the driver's history is), no command: none reaches this session's history.
        #expect(driver.app.render().text.contains("History — the newest 200 flows ─"), "\(driver.app.render().text)")
        driver.press(.escape)
        driver.app.state.stateOption = " --state=/tmp/s.db"
        driver.press(.character("h"))
        let text = driver.app.render().text
        #expect(text.contains("History — the newest 200 flows; idp-tui history --before 2 --state=/tmp/s.db lists older ones"), "\(text)")
        // With a filter, the count says so too.
        driver.press(.character("/"))
        driver.type("activ")
        #expect(driver.app.render().text.contains("History — /activ▏ · 200 of the newest 200 flows"), "\(driver.app.render().text)")
    }

    /// Back from a transcript, the list is read again (another process ran flows meanwhile: it kept the count from
    /// when it opened), with the flow just read still selected.
    @Test func backFromATranscriptTheListIsReadAgain() throws {
        let driver = AppDriver(width: 100, height: 30)
        let history = try activateWithCopies(driver, 2)
        driver.press(.character("h"))
        #expect(driver.app.render().text.contains("History — 3 flows"))
        driver.press(.down, .enter)  // flow 2's transcript
        let first = try #require(try history.record(id: 1))
        _ = try history.record(first)
        driver.press(.escape)
        #expect(driver.app.render().text.contains("History — 4 flows"), "\(driver.app.render().text)")
        if case .history(let list) = driver.screen { #expect(list.entries[list.selection].id == 2) } else { Issue.record("not the list") }
    }

    /// One long user name (a Q2 login takes 60 characters) took the room of every row's outcome and status; the
    /// user column is cut with "…" at 16.
    @Test func aLongUserNameDoesNotCutEveryStatus() {
        let driver = AppDriver()
        payUnavailable(driver)
        driver.press(.escape)
        driver.openQ2()
        driver.type(String(repeating: "x", count: 60))
        driver.press(.tab)
        driver.type("nope")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        driver.press(.escape, .character("h"))
        let text = driver.app.render().text
        let row = text.split(separator: "\n").first { $0.contains("q2-login") }.map(String.init) ?? ""
        #expect(row.contains("xxxxxxxxxxxxxxx… ") && row.contains("failure  INVALID_CREDENTIALS"), "\(text)")
        #expect(text.contains("AUTHENTICATION_UNAVAILABLE"), "\(text)")
    }

    /// A session numbers its flows from 1; the history's ids go on from the state file's last. The log's rule and
    /// the sequence view name both once the flow is recorded, so that `idp-tui history show` is given the right one
    /// (the log said "flow 2" of a flow the history lists as 3).
    @Test func theLogNamesAFlowsHistoryIDWhenItIsAnother() throws {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter)
        // Another process's flow takes history id 2, as on a shared state file.
        let history = try #require(driver.service.history)
        let first = try #require(try history.record(id: 1))
        #expect(try history.record(first) == 2)
        driver.press(.character("3"), .enter)
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.app.render().text.contains("── flow 2 · history 3: Log out"), "\(driver.app.render().text)")
        driver.press(.character("v"))
        #expect(driver.app.render().text.contains("Sequence — flow 2 · history 3: Log out"))
        driver.press(.character("v"), .tab, .enter)
        #expect(driver.app.render().text.contains("(flow 2 · history 3, session event"), "\(driver.app.render().text)")
    }

    /// The detail view wraps a field too long for its line under its value: at 60 columns a payment's flow line
    /// ("payer-auth (flow 2 · history 152, event 54)") was cut at the frame with no "…", its ")" gone.
    @Test func theDetailViewWrapsALongFlowLine() throws {
        let driver = AppDriver(width: 60, height: 18)
        _ = try activateWithCopies(driver, 150)
        driver.payWithAChallenge()
        driver.press(.enter, .tab, .enter)
        let text = driver.app.render().text
        #expect(text.contains("history 152,"), "\(text)")
        // Whole: on its line, or wrapped under the value.
        #expect(text.range(of: #"(event |│ {11})\d+\)"#, options: .regularExpression) != nil, "\(text)")
        // Numbered in the session's events, so said: a transcript numbers its flow's own from 1.
        #expect(text.contains("session"), "\(text)")
        // The wrapped part is the value's colour, not the label's (the first five lines were labels whole).
        let screen = driver.app.render()
        let flow = try #require((0..<screen.height).first { screen.text(row: $0).dropFirst(4).hasPrefix("flow") })
        #expect(screen.text(row: flow + 1).dropFirst(4).hasPrefix("          "), "wrapped: \(text)")
        #expect(screen[flow + 1, 14].role == .text, "\(screen.text(row: flow + 1))")
    }

    /// In the detail view only the labels take the label's colour: the first five lines did whole, a wrapped value
    /// too, and "took", "status" and "detail" below them did not.
    @Test func theDetailViewColoursLabelsNotValues() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.activate()
        driver.press(.tab, .enter)
        let screen = driver.app.render()
        func row(starting label: String) -> Int? {
            (0..<screen.height).first { screen.text(row: $0).dropFirst(4).hasPrefix(label) }
        }
        for label in ["flow", "from → to", "step", "thread", "time", "status", "detail"] {
            let y = try #require(row(starting: label), "\(label): \(screen.text)")
            #expect(screen[y, 4].role == .label, "\(label)")
        }
        // A value is text, on the first line and under the detail heading.
        let flow = try #require(row(starting: "flow"))
        #expect(screen[flow, 14].role == .text, "\(screen.text(row: flow))")
        let detail = try #require(row(starting: "detail"))
        #expect(screen[detail + 1, 6].role == .text, "\(screen.text(row: detail + 1))")
        let status = try #require(row(starting: "status"))
        #expect(screen[status, 14].role == .text)
    }

    /// PgDn through a transcript shows every event: a page is the events shown (it moved 10 where 7 showed, and
    /// three events at a time were never on screen).
    @Test func pagingATranscriptSkipsNoEvent() throws {
        let driver = AppDriver()
        driver.payWithAChallenge()
        driver.press(.enter, .character("h"), .enter)
        var seen: Set<Int> = []
        var total = 0
        var pages: [[Int]] = []
        for _ in 0..<20 {
            let screen = driver.app.render()
            let lines = screen.text.split(separator: "\n").map(String.init)
            if total == 0, let header = lines.first(where: { $0.contains(" events") }),
               let match = header.range(of: #"\d+ events"#, options: .regularExpression) {
                total = Int(header[match].split(separator: " ")[0]) ?? 0
            }
            // The events shown, by the number each row's click opens (the transcript's rows are its only targets).
            let page = screen.targets.sorted { $0.row < $1.row }.map { $0.stop + 1 }
            seen.formUnion(page)
            pages.append(page)
            driver.press(.pageDown)
        }
        #expect(total > 20)
        #expect(seen == Set(1...total), "missing: \(Set(1...max(1, total)).subtracting(seen).sorted())")
        // PgDn moves the selection a page of events, as the live log's does, and PgUp as far back: Home, PgDn, PgUp
        // comes back to the first event (PgDn went to the bottom of the next page, and PgUp did not come back).
        let rows = pages[0].count
        func selected() -> Int? {
            if case .transcript(let transcript, _) = driver.app.state.screen { return transcript.scroll }
            return nil
        }
        driver.press(.home, .pageDown)
        #expect(selected() == rows, "a page down from the first event: the one after the page")
        driver.press(.pageUp)
        #expect(selected() == 0)
    }

    /// The list moves as the home menu does: j k, Home End (only ↑↓ did).
    @Test func theListTakesJKHomeAndEnd() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter)
        for _ in 0..<2 { driver.press(.character("3"), .enter); driver.pump { _ in driver.isResult }; driver.press(.enter) }
        driver.press(.character("h"))
        func selection() -> Int? { if case .history(let history) = driver.app.state.screen { history.selection } else { nil } }
        driver.press(.end)
        #expect(selection() == 2)
        driver.press(.character("k"))
        #expect(selection() == 1)
        driver.press(.home)
        #expect(selection() == 0)
        driver.press(.character("j"))
        #expect(selection() == 1)
        // PgUp pages the list (it paged the event log below, as on the home menu: HistoryFilterTests).
        driver.press(.pageUp)
        #expect(selection() == 0 && driver.app.state.logScroll == 0)
    }

    /// The transcript's header goes on to a second line between its parts rather than end in "… · 26 even…".
    @Test func theTranscriptHeaderIsWhole() throws {
        let driver = AppDriver()
        payUnavailable(driver)
        driver.press(.enter)
        let lines = driver.app.render().text.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.contains("payer-auth · failure AUTHENTICATION_UNAVAILABLE ·") })
        #expect(lines[header + 1].contains(" events "), "\(lines.joined(separator: "\n"))")
        #expect(!lines[header].contains("…") && !lines[header + 1].contains("…"))
        // Then the result's error and next step, wrapped at words, as `history show` prints them; then the events.
        #expect(lines[header + 2].contains("error: transStatus U: authentication could not be performed"), "\(lines.joined(separator: "\n"))")
        let next = try #require(lines.firstIndex { $0.contains("│ next: ") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.dropFirst(next + 1).contains { $0.hasPrefix("│ → Safepay") && $0.contains("configure") }, "\(lines.joined(separator: "\n"))")
        #expect(!lines[header + 2..<next].contains { $0.contains("…") })
    }

    /// At 60 columns a payment's "payer-auth · success AUTHENTICATED · <time>" fills the 56 columns exactly: the
    /// " ·" that says the header goes on was added after it, and cut the time to "17:46:4…".
    @Test func theTranscriptHeaderIsWholeAt60Columns() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.payWithAChallenge()
        #expect(driver.result?.status == "AUTHENTICATED")
        driver.press(.escape, .character("h"), .enter)
        let lines = driver.app.render().text.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.contains("payer-auth · success AUTHENTICATED") }, "\(lines.joined(separator: "\n"))")
        #expect(!lines[header].contains("…") && !lines[header + 1].contains("…"), "\(lines.joined(separator: "\n"))")
        #expect(lines[header + 1].contains(" events "), "\(lines.joined(separator: "\n"))")
    }
}
