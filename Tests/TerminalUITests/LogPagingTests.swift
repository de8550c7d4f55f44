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
    /// else End, then PgUp to the first.
    func pages(_ sizes: [Int], height: Int, down: Bool) throws -> (events: Set<Int>, rules: Set<Int>, moved: [String], rows: Int) {
        let driver = AppDriver(height: height)
        let events = Self.log(sizes)
        driver.app.state.log = events
        driver.press(.tab, down ? .home : .end)
        let rows = AppView.logRows(driver.app.state)
        var seen: (events: Set<Int>, rules: Set<Int>, moved: [String], rows: Int) = ([], [], [], rows)
        for _ in 0...events.count + 2 {
            let focus = try #require(driver.app.state.logFocus)
            let selected = AppState.selectedIndex(focus, in: events)
            // The view drawn is the page (nothing moves it to show the selection).
            let drawn = LogPane.scroll(keeping: selected, from: focus.scroll, events, rows: rows)
            if drawn != focus.scroll { seen.moved.append("scroll \(focus.scroll) drawn at \(drawn), selection \(selected)") }
            for line in LogPane.lines(events, scroll: drawn, rows: rows) {
                if line.isRule { seen.rules.insert(line.index) } else { seen.events.insert(line.index) }
            }
            if down ? focus.selected == nil : selected == 0 { break }
            driver.press(down ? .pageDown : .pageUp)
        }
        return seen
    }

    @Test(arguments: [true, false])
    func everyEventAndEveryRuleIsOnSomePage(down: Bool) throws {
        // From the smallest terminal (a log of a row or two) to a tall one.
        for height in [18, 19, 20, 22, 24, 25, 26, 27, 29, 32, 38] {
            for sizes in Self.shapes {
                let events = Self.log(sizes)
                let seen = try pages(sizes, height: height, down: down)
                // A log of one row has no room for a rule: its one event shows.
                let flowStarts = seen.rows < 2 ? [] : Set(events.indices.filter { LogPane.startsFlow(events, $0, rows: seen.rows) })
                #expect(seen.events == Set(events.indices), "\(sizes) at \(seen.rows) rows: unseen \(Set(events.indices).subtracting(seen.events).sorted())")
                #expect(seen.rules == flowStarts, "\(sizes) at \(seen.rows) rows: rules unseen \(flowStarts.subtracting(seen.rules).sorted())")
                #expect(seen.moved.isEmpty, "\(sizes) at \(seen.rows) rows: \(seen.moved)")
            }
        }
    }
}
