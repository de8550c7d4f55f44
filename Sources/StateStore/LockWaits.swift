import Threading

/// The waits of this process's connections for another process's lock on the state file, which SQLite's busy
/// handler reports: how long the oldest has waited, for the screen ("the state file is locked by another
/// process · 4.2 s"), and a way to stop waiting, for the person who will not wait (an Esc). A tester held the
/// file's lock with `sqlite3` during a login: the screen said "waiting for MC-SDK: Start", then "cancelling…", and
/// the second Esc, which promised to end it at once, did nothing for 20 s (the device's read, then the flow's record,
/// each waited out the busy timeout).
enum LockWaits {
    private struct Wait {
        var since: ContinuousClock.Instant
        var last: ContinuousClock.Instant
        /// Ended by ``LockWaits/stop()``, not by the busy timeout.
        var stopped = false
    }

    private struct State {
        /// Set by ``stop()``, until ``resume()``: every wait ends at once.
        var stopped = false
        /// By connection (its handle's address): one wait at a time each, as a connection runs one statement at a time.
        var waits: [UInt: Wait] = [:]
    }

    private static let state = Locked(State())

    /// A wait whose handler has not been called for this long has ended (the handler runs every few milliseconds
    /// while it waits, and is not told when the lock comes).
    private static let ended: Duration = .milliseconds(100)

    /// The busy handler's report for `connection`, its `count`th call for one wait (0: the wait begins). False: stop
    /// waiting (``stop()``).
    static func waiting(_ connection: UInt, count: Int32) -> Bool {
        let now = ContinuousClock.now
        return state.withLock { state in
            if count == 0 || state.waits[connection] == nil { state.waits[connection] = Wait(since: now, last: now) }
            state.waits[connection]?.last = now
            state.waits[connection]?.stopped = state.stopped
            return !state.stopped
        }
    }

    /// Since when the oldest wait in progress has waited; nil when none is.
    static var since: ContinuousClock.Instant? {
        let now = ContinuousClock.now
        return state.withLock { state in
            state.stopped ? nil : state.waits.values.filter { now - $0.last < ended }.map(\.since).min()
        }
    }

    /// Whether `connection`'s last wait was ended by ``stop()``: its error then says so, not that the lock stayed
    /// for the whole busy timeout.
    static func wasStopped(_ connection: UInt) -> Bool {
        state.withLock { $0.waits[connection]?.stopped == true }
    }

    /// Ends every wait, now and until ``resume()``: what waits fails as locked ("… and you stopped waiting for it").
    static func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Waits for the lock again, up to the busy timeout (the stopped flow's result has come).
    static func resume() {
        state.withLock { state in
            state.stopped = false
            // A connection's busy error after this (the process exiting on a signal) is not said to be the stop's.
            for connection in state.waits.keys { state.waits[connection]?.stopped = false }
        }
    }
}
