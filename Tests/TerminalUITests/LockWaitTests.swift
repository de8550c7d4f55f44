import Determinism
import FlowRecords
import Synchronization
import Testing

@testable import TerminalUI

/// The working screen while another process holds the state file's lock, on a history that says it waits when a test
/// says so (the end-to-end tests in SharedStateTests take a real lock; these reach what they cannot time).
@Suite struct LockWaitTests {
    /// A history kept in memory whose wait for another process's lock a test sets, and which counts the stops.
    final class WaitingHistory: FlowHistory {
        let kept = MemoryFlowHistory()
        private let wait = Mutex<(since: ContinuousClock.Instant?, stops: Int)>((nil, 0))

        var lockedSince: ContinuousClock.Instant? { wait.withLock { $0.since } }
        var stops: Int { wait.withLock { $0.stops } }
        func waitsSince(_ since: ContinuousClock.Instant?) { wait.withLock { $0.since = since } }
        func stopWaitingForLock() { wait.withLock { $0.stops += 1 } }
        func waitForLockAgain() {}

        func record(_ record: HistoryRecord) throws(StoreFailure) -> Int { try kept.record(record) }
        func list(limit: Int) throws(StoreFailure) -> [HistorySummary] { try kept.list(limit: limit) }
        func record(id: Int) throws(StoreFailure) -> HistoryRecord? { try kept.record(id: id) }
        func append(_ events: [RecordedEvent], toFlow id: Int) throws(StoreFailure) { try kept.append(events, toFlow: id) }
    }

    /// An activation sent its code, its working screen up, waiting for the lock since `since` (the screen's clock
    /// moved on, as the session loop's tick does).
    private func activationWaiting(since: Duration) -> (AppDriver, WaitingHistory) {
        let history = WaitingHistory()
        let driver = AppDriver(history: history)
        driver.openActivation()
        driver.fill()
        driver.press(.enter)
        #expect(driver.pump { _ in driver.formPage == 2 })
        driver.type("123456")
        driver.press(.enter)
        history.waitsSince(.now - since)
        driver.app.tick()
        return (driver, history)
    }

    /// A result that comes just after a wait the screen showed: the Esc meant to stop the wait, pressed as the result
    /// came, leaves the result in view and says so; the next Esc goes back.
    @Test func aResultJustAfterAShownLockWaitSurvivesALateEsc() {
        let (driver, _) = activationWaiting(since: .seconds(1))
        #expect(driver.app.render().text.contains(AppState.lockWaitText))
        #expect(driver.pump { _ in driver.isResult })
        driver.press(.escape)
        #expect(driver.isResult, "the late Esc leaves the result in view")
        #expect(driver.app.render().text.contains("the flow had ended: here is its result (esc goes back)"))
        driver.press(.escape)
        #expect(!driver.isResult)
    }

    /// A wait the screen has not shown yet (its first half second): the result's Esc goes back, as after any flow.
    @Test func aResultAfterAnUnshownLockWaitGoesBackOnEsc() {
        let (driver, history) = activationWaiting(since: .milliseconds(100))
        #expect(!driver.app.render().text.contains(AppState.lockWaitText))
        // The wait began a moment before each delivery, however long the flow takes here.
        #expect(driver.pump { _ in
            history.waitsSince(.now - .milliseconds(100))
            driver.app.tick()
            return driver.isResult
        })
        driver.press(.escape)
        #expect(!driver.isResult)
    }

    /// Quitting (q, Ctrl-C, a signal) while the flow waits for the lock stops the wait: the process does not wait out
    /// the busy timeout (a Ctrl-C took the 2 s given to flows).
    @Test func quittingStopsAWaitForTheLock() {
        let (waiting, history) = activationWaiting(since: .seconds(1))
        waiting.app.quit(130)
        #expect(history.stops > 0)
    }
}
