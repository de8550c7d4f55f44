import Threading
import Foundation

/// A clock that moves only when told to, so that a test of a ten-minute timeout takes milliseconds.
///
/// Scheduled actions run on the thread that calls ``advance(by:)``, in deadline order.
public final class ManualClock: SimulationClock {
    private struct Pending {
        let id: Int
        let deadline: SimulationInstant
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: SimulationInstant
        var pending: [Pending] = []
        var nextID = 0
    }

    private let state: Locked<State>
    /// What the simulation on this clock can still run before only this clock or the test can move it, for a test
    /// that runs until quiet (``PendingWork``); nil unless asked for.
    public let pendingWork: PendingWork?
    /// Signalled whenever a timer is scheduled, for ``waitForPendingTimers(atLeast:timeout:)``.
    private let scheduled = NSCondition()

    /// Starts at `start`, by default 2030-01-01T00:00:00Z. `countingWork`: the simulation counts what it still has
    /// to run (``pendingWork``), for a test that runs until quiet; every wait on it must then be made by counted
    /// work (a flow, an SDK's queue), not by the test's own thread.
    public init(start: SimulationInstant = SimulationInstant(nanosecondsSinceEpoch: 1_893_456_000_000_000_000), countingWork: Bool = false) {
        state = Locked(State(now: start))
        pendingWork = countingWork ? PendingWork() : nil
    }

    public var now: SimulationInstant { state.withLock { $0.now } }

    /// How many scheduled actions have not run yet.
    public var pendingTimerCount: Int { state.withLock { $0.pending.count } }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.pending.append(Pending(id: id, deadline: state.now.advanced(by: max(delay, .zero)), action: action))
            return id
        }
        scheduled.lock()
        scheduled.broadcast()
        scheduled.unlock()
        return ScheduledTimer { [weak self] in
            self?.state.withLock { $0.pending.removeAll { $0.id == id } }
        }
    }

    /// Moves time forward by `duration`, running every action that falls due on the way.
    public func advance(by duration: Duration) {
        let target = now.advanced(by: duration)
        while let due = takeNextDue(upTo: target) {
            due.action()
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Moves time to the earliest pending deadline and runs what falls due there; false when nothing is pending.
    @discardableResult
    public func advanceToNextDeadline() -> Bool {
        guard let next = state.withLock({ $0.pending.map(\.deadline).min() }) else { return false }
        advance(by: now.duration(to: next))
        return true
    }

    /// Blocks until at least `count` actions are pending (a background thread has gone to sleep on this
    /// clock), or `timeout` of real time passes. Returns whether the count was reached.
    @discardableResult
    public func waitForPendingTimers(atLeast count: Int, timeout: Duration = .seconds(10)) -> Bool {
        let deadline = Date().addingTimeInterval(Double(timeout.nanoseconds) / 1e9)
        scheduled.lock()
        defer { scheduled.unlock() }
        while pendingTimerCount < count {
            if !scheduled.wait(until: deadline) { return pendingTimerCount >= count }
        }
        return true
    }

    private func takeNextDue(upTo target: SimulationInstant) -> Pending? {
        state.withLock { state in
            let due = state.pending.enumerated()
                .filter { $0.element.deadline <= target }
                .min { ($0.element.deadline, $0.element.id) < ($1.element.deadline, $1.element.id) }
            guard let due else { return nil }
            state.pending.remove(at: due.offset)
            state.now = max(state.now, due.element.deadline)
            return due.element
        }
    }
}
