import Dispatch
import Threading

/// The clock every simulator and timer reads, so that tests can replace real time with ``ManualClock``.
public protocol SimulationClock: Sendable {
    /// The current simulated time.
    var now: SimulationInstant { get }

    /// Runs `action` once, after `delay` has passed on this clock, unless the returned timer is cancelled first.
    /// `action` runs on an arbitrary thread.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer

    /// A test's count of the simulation's work still to run (``ManualClock``'s), through which the simulators and
    /// the flow engine count theirs; nil on the real clock.
    var pendingWork: PendingWork? { get }
}

extension SimulationClock {
    public var pendingWork: PendingWork? { nil }

    /// Suspends until `delay` has passed on this clock, holding no thread (the Drops page's payment: its fault
    /// waits, the ACS's lookup and first-CReq timers).
    public func sleep(for delay: Duration) async {
        guard delay > .zero else { return }
        let woken = OneShot<Void>(counting: pendingWork)
        schedule(after: delay) { woken.fulfil(()) }
        await woken.value()
    }
}

/// A handle on a scheduled action.
public final class ScheduledTimer: Sendable {
    private let onCancel: @Sendable () -> Void

    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops the action from running if it has not run yet. Cancelling twice does nothing.
    public func cancel() { onCancel() }
}
