import Dispatch
import Foundation
import Synchronization

/// Real time: the wall clock for `now`, Dispatch for scheduling.
public struct SystemClock: SimulationClock {
    public init() {}

    public var now: SimulationInstant { SimulationInstant(Date()) }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let flag = CancelFlag()
        let nanoseconds = Int(max(0, delay.nanoseconds))
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            if !flag.isCancelled { action() }
        }
        return ScheduledTimer { flag.cancel() }
    }
}

private final class CancelFlag: Sendable {
    private let cancelled = Atomic(false)
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    func cancel() { cancelled.store(true, ordering: .releasing) }
}
