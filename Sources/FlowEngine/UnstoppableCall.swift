/// A run's call that goes on after a cancel (KSSIDP's, which cannot be stopped), while it is in flight: its step,
/// and who waits for its end (the next flow, which starts after it). Kept under the run's lock (a value: no
/// allocation for the runs that never make such a call).
struct UnstoppableCall {
    /// The call's step while it is in flight (`.some(nil)`: a call without one); nil when none is.
    var step: FlowStep??
    private var waiting: [@Sendable () -> Void] = []
    /// The run's history entry, once recorded: what the call does after the cancel is added to it.
    var historyID: Int?

    /// Ends the call and returns who waited for its end, to be told.
    mutating func end() -> [@Sendable () -> Void] {
        step = nil
        defer { waiting = [] }
        return waiting
    }

    /// Keeps `then` for the call's end; false when no call is in flight (`then` is then the caller's to call).
    mutating func wait(_ then: @escaping @Sendable () -> Void) -> Bool {
        guard step != nil else { return false }
        waiting.append(then)
        return true
    }
}
