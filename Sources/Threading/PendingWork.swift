import Dispatch

/// What a simulation still has to run before only time or a front end's answer can move it: a test's count of
/// queued work and running tasks, so that "run until quiet" is known, not guessed from a quiet window.
///
/// A test that runs until quiet gives one to its ``ManualClock`` (`ManualClock(countingWork: true)`), and the
/// simulators and the flow engine count through it: work queued on a device's or an SDK's queue, a flow's task
/// while it runs. A wait that the clock, the front end or counted work will end counts as nothing (``end()`` as
/// it begins, ``begin()`` by the party that wakes it, before it wakes it), so the count falls to zero exactly
/// when every thread is waiting for the test: to move the clock, or to answer a prompt. The real clock has none, and each place that counts is a branch on nil.
public final class PendingWork: Sendable {
    private let state = Locked<(count: Int, waiters: [DispatchSemaphore])>((0, []))

    public init() {}

    /// One more thing can run.
    public func begin() { state.withLock { $0.count += 1 } }

    /// One thing has run, or is waiting for the clock or the test.
    public func end() {
        let woken = state.withLock { state -> [DispatchSemaphore] in
            state.count -= 1
            precondition(state.count >= 0, "PendingWork: an end without its begin (a wait counted outside counted work)")
            guard state.count == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in woken { waiter.signal() }
    }

    /// How many things can run now.
    public var count: Int { state.withLock { $0.count } }

    /// Blocks until nothing is left that can run; false if something still can after `timeout` of real time.
    public func waitUntilNone(timeout: Duration) -> Bool {
        let waiter = DispatchSemaphore(value: 0)
        let quiet = state.withLock { state -> Bool in
            if state.count == 0 { return true }
            state.waiters.append(waiter)
            return false
        }
        if quiet { return true }
        let nanoseconds = max(0, timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        if waiter.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success { return true }
        return state.withLock { state in
            state.waiters.removeAll { $0 === waiter }
            return state.count == 0
        }
    }
}

extension DispatchQueue {
    /// Queues `work`, counted in `pending` from now until it has run.
    @inlinable
    package func async(counting pending: PendingWork?, execute work: @escaping @Sendable () -> Void) {
        guard let pending else { return async(execute: work) }
        pending.begin()
        async {
            work()
            pending.end()
        }
    }
}
