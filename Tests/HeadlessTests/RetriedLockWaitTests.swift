import Foundation
import Testing
@testable import StateStore

/// The one wait for another process's lock that SQLite's busy handler does not see: a statement SQLite fails with
/// SQLITE_BUSY at once (switching a new file to WAL while another process opens it), retried by idp-tui itself.
@Suite struct RetriedLockWaitTests {
    /// While it retries, the wait is shown as any other is (the status line's "another process locks the state file ·
    /// 1.7 s", the working screen's "Esc stops waiting"); it was neither shown nor stoppable.
    @Test func aRetriedWaitIsShownWhileItLasts() throws {
        let path = scratchPath("retried", ".sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try Database(path: path)
        defer { database.close() }
        var calls = 0
        var shown: ContinuousClock.Instant?
        try database.retryingWhileBusy { () throws(StateError) in
            calls += 1
            if calls == 5 { shown = StateFile.lockWaitSince }
            if calls < 6 { throw StateError("busy", reason: .busy) }
        }
        #expect(calls == 6)
        #expect(shown != nil, "the retried wait was not reported")
    }
}
