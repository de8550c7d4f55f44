import FlowEngine
import FlowRecords
@testable import TerminalUI
import Testing

/// Paging the focused log through logs of many shapes: flows of one to nine events, views of one to fifteen rows.
/// PgDn from the top and PgUp from the bottom each show every event and every flow's rule on some page, and the
/// view is the page itself (the selection kept in it, so that nothing moves it after): a reviewer's model of the
/// first paging found an event, and a flow's rule, that went by unseen.
@Suite struct LogPagingTests {
    /// A log of flows of `sizes` events each: logouts, as the log holds them.
    static func log(_ sizes: [Int]) -> [FlowEvent] {
        var events: [FlowEvent] = []
        for (flow, size) in sizes.enumerated() {
            for _ in 0..<size {
                let recorded = RecordedEvent(sequence: events.count + 1, step: "Start", from: "App", to: "MC-SDK", thread: "idp-tui.flow",
                                             time: "2030-01-01T00:00:00.000Z", duration: nil, status: nil, detail: "event \(events.count)")
                events.append(FlowEvent(recorded: recorded, flowID: flow + 1, flow: .logout))
            }
        }
        return events
    }

    /// The shapes: seeded, so that a failure names one that can be run again.
    static let shapes: [[Int]] = {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        return [[1], [9], [1, 1, 1, 1], [8, 8, 8, 8], [3, 1, 4, 1, 5]] + (0..<60).map { _ in (0...next(6)).map { _ in 1 + next(9) } }
    }()

    /// What each page shows: the events and the flows whose rule is on it. `down`: Home, then PgDn to the newest;
    /// else End, then PgUp to the first. `filter`: typed with `/` first, so that the pages are of the events it lists.
    /// Each press goes to the page ``LogPane/page(_:from:down:rows:)`` gives, drawn as it is (nothing moves it to
    /// show the selection), with the selection on its row.
    func pages(_ sizes: [Int], height: Int, down: Bool, filter: String = "") throws -> (events: Set<Int>, rules: Set<Int>, listed: [FlowEvent], rows: Int) {
        let driver = AppDriver(height: height)
        driver.app.state.log = Self.log(sizes)
        driver.press(.tab)
        if !filter.isEmpty {
            driver.press(.character("/"))
            driver.type(filter)
            driver.press(.enter)
        }
        driver.press(down ? .home : .end)
        let events = driver.app.state.listedEvents
        let rows = AppView.logRows(driver.app.state)
        var seen: (events: Set<Int>, rules: Set<Int>, listed: [FlowEvent], rows: Int) = ([], [], events, rows)
        var expected: (scroll: Int, row: Int)?
        for _ in 0...events.count + 2 where !events.isEmpty {
            let focus = try #require(driver.app.state.logFocus)
            let selected = AppState.selectedIndex(focus, in: events)
            let drawn = LogPane.scroll(keeping: selected, from: focus.scroll, events, rows: rows)
            let lines = LogPane.lines(events, scroll: drawn, rows: rows)
            let row = try #require(lines.firstIndex { $0.index == selected && !$0.isRule }, "the selection in view")
            if let expected {
                #expect(drawn == expected.scroll, "\(sizes) at \(rows) rows: the page drawn")
                // Its row; the row under it where its row is a rule, or where its row's event is the first, whose rule
                // this page does not show; the last where the page (the log's top) has fewer lines.
                let kept = min(expected.row, lines.count - 1)
                let under = lines[kept].isRule || (selected == 1 && lines[kept].index == 0)
                #expect(row == kept + (under ? 1 : 0), "\(sizes) at \(rows) rows: row \(row), was \(expected.row)")
            }
            for line in lines {
                if line.isRule { seen.rules.insert(line.index) } else { seen.events.insert(line.index) }
            }
            if down ? focus.selected == nil : selected == 0 { break }
            let to = LogPane.page(events, from: drawn, down: down, rows: rows)
            // At either end the selection goes to the end: no row to keep.
            expected = to == drawn ? nil : (to, row)
            driver.press(down ? .pageDown : .pageUp)
        }
        return seen
    }

    @Test(arguments: [true, false])
    func everyEventAndEveryRuleIsOnSomePage(down: Bool) throws {
        // From the smallest terminal (a log of a row) to a tall one: every log height from 1 to 15 rows.
        for height in 18...38 {
            for sizes in Self.shapes {
                let seen = try pages(sizes, height: height, down: down)
                expectWhole(seen, sizes)
            }
        }
    }

    /// With a filter on, the pages are of the events it lists, each flow's group under its rule.
    @Test(arguments: [true, false])
    func aFilteredLogPagesThroughWhatItLists(down: Bool) throws {
        for height in [19, 22, 24, 29] {
            for sizes in Self.shapes.prefix(30) {
                let seen = try pages(sizes, height: height, down: down, filter: "event 1")
                #expect(seen.listed.allSatisfy { $0.detail.contains("event 1") })
                expectWhole(seen, sizes)
            }
        }
    }

    private func expectWhole(_ seen: (events: Set<Int>, rules: Set<Int>, listed: [FlowEvent], rows: Int), _ sizes: [Int]) {
        let listed = seen.listed
        // A log of one row has no room for a rule: its one event shows.
        let flowStarts = seen.rows < 2 ? [] : Set(listed.indices.filter { LogPane.startsFlow(listed, $0, rows: seen.rows) })
        #expect(seen.events == Set(listed.indices), "\(sizes) at \(seen.rows) rows: unseen \(Set(listed.indices).subtracting(seen.events).sorted())")
        #expect(seen.rules == flowStarts, "\(sizes) at \(seen.rows) rows: rules unseen \(flowStarts.subtracting(seen.rules).sorted())")
    }

    /// A log of one row (a result at 60×18) has no room for a rule: its title names the flow of the event shown, so
    /// that paging from one flow into the next says so.
    @Test func aOneRowLogsTitleNamesTheFlow() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.app.state.log = Self.log([2, 2])
        driver.press(.tab, .home)
        #expect(AppView.logRows(driver.app.state) == 1)
        func title() -> String { driver.app.render().text.split(separator: "\n").first { $0.contains("SDK events") }.map(String.init) ?? "" }
        #expect(title().contains("SDK events · flow 1"), "\(title())")
        driver.press(.down, .down)
        #expect(title().contains("SDK events · flow 2"), "\(title())")
    }
}
