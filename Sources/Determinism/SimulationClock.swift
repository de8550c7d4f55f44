import Dispatch

/// The clock every simulator and timer reads, so that tests can replace real time with ``ManualClock``.
public protocol SimulationClock: Sendable {
    /// The current simulated time.
    var now: SimulationInstant { get }

    /// Runs `action` once, after `delay` has passed on this clock, unless the returned timer is cancelled first.
    /// `action` runs on an arbitrary thread.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer
}

extension SimulationClock {
    /// Blocks the calling thread until `delay` has passed on this clock (the synchronous SDKs' network wait).
    @available(*, noasync, message: "a flow's async code suspends instead")
    public func sleep(for delay: Duration) {
        guard delay > .zero else { return }
        let woken = DispatchSemaphore(value: 0)
        schedule(after: delay) { woken.signal() }
        woken.wait()
    }

    /// Suspends until `delay` has passed on this clock, holding no thread (the Drops page's payment: its fault
    /// waits, the ACS's lookup and first-CReq timers).
    public func sleep(for delay: Duration) async {
        guard delay > .zero else { return }
        await withCheckedContinuation { (woken: CheckedContinuation<Void, Never>) in
            schedule(after: delay) { woken.resume() }
        }
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
