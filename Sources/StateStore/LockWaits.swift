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
        /// Cut short: an earlier wait of this connection ran out the busy timeout, and this one has waited
        /// ``LockWaits/briefWait``.
        var cutShort = false
    }

    private struct State {
        /// Set by ``stop()``, until ``resume()``: every wait ends at once.
        var stopped = false
        /// By connection (its handle's address): one wait at a time each, as a connection runs one statement at a time.
        var waits: [UInt: Wait] = [:]
        /// The connections of which a wait ran out the busy timeout, with no write committed since (nor, in the
        /// terminal UI and plain mode, a flow's result): their waits are brief (``briefWait``).
        var ranOut: Set<UInt> = []
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
            // After a wait that ran out, a lock is waited for a moment only, as long as another process's ordinary
            // write takes (without it, one of those ended the run's every store at once).
            let over = state.ranOut.contains(connection) && now - (state.waits[connection]?.since ?? now) >= briefWait
            state.waits[connection]?.cutShort = over
            return !state.stopped && !over
        }
    }

    /// How long a connection waits for a lock after one of its waits ran out: a `run` whose lock was taken after its
    /// first write waited 10 s at each of its stores (a minute for three flows), a login in the terminal UI 10 s at its
    /// device and 10 s more for its record; another process's ordinary write is still waited out.
    static let briefWait: Duration = .milliseconds(500)

    /// `connection` is closed: what was kept for it goes (another connection may be opened at its address).
    static func forget(_ connection: UInt) {
        state.withLock { state in
            state.waits[connection] = nil
            state.ranOut.remove(connection)
        }
    }

    /// A wait of `connection`'s ran out the busy timeout.
    static func ranOut(_ connection: UInt) {
        state.withLock { _ = $0.ranOut.insert(connection) }
    }

    /// `connection` committed a write: the lock was free, and its next wait runs its course again.
    static func lockWasFree(_ connection: UInt) {
        state.withLock { _ = $0.ranOut.remove(connection) }
    }

    /// The error of `connection`'s statement that another process's lock on the file at `path` failed.
    static func lockedError(_ connection: UInt, path: String, timeout: Duration) -> StateError {
        let wait = state.withLock { $0.waits[connection] }
        return if wait?.stopped == true {
            StateError("the state file \(path) was locked by another process, and you stopped waiting for it", reason: .busy)
        } else if wait?.cutShort == true {
            StateError("the state file \(path) is locked by another process (a wait for its lock already ran out after \(timeout.components.seconds) s; this one waited half a second)", reason: .busy)
        } else {
            StateError("the state file \(path) stayed locked by another process for \(timeout.components.seconds) s", reason: .busy)
        }
    }

    /// Since when the oldest wait in progress has waited; nil when none is.
    static var since: ContinuousClock.Instant? {
        let now = ContinuousClock.now
        return state.withLock { state in
            state.stopped ? nil : state.waits.values.filter { now - $0.last < ended }.map(\.since).min()
        }
    }

    /// Ends every wait, now and until ``resume()``: what waits fails as locked ("… and you stopped waiting for it").
    static func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Waits for the lock again, up to the busy timeout (a flow's result has come, in the terminal UI or plain mode):
    /// after an Esc that stopped the waits, and after a wait that ran out (each flow waits its 10 s once).
    static func resume() {
        state.withLock { state in
            state.stopped = false
            state.ranOut.removeAll()
            // A connection's busy error after this (the process exiting on a signal) is not said to be the stop's.
            for connection in state.waits.keys { state.waits[connection]?.stopped = false }
        }
    }
}

extension Database {
    /// Its connection's handle's address, as the busy handler is given it: which connection waits.
    var connection: UInt { UInt(bitPattern: UnsafeMutableRawPointer(handle)) }
}
