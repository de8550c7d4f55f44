import Dispatch
import Foundation
import Synchronization
import Threading

/// Real time: the wall clock for `now`, Dispatch for scheduling. Timers fire on a queue named `timer`, so that
/// what a timer does (a bridge resend, a prompt timeout) says so in the log's thread column.
public struct SystemClock: SimulationClock {
    private static let timers = QueueName.makeSerialQueue("timer", qos: .userInitiated)

    public init() {}

    public var now: SimulationInstant { SimulationInstant(Date()) }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let flag = CancelFlag()
        let nanoseconds = Int(max(0, delay.nanoseconds))
        Self.timers.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
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
