import Dispatch
import Synchronization
import Threading

/// A value set once, by whichever of several parties comes first, and taken by one waiter: a flow's code
/// awaits it (``value()``, suspending), an SDK's synchronous callback blocks its thread for it (``wait()``).
final class OneShot<Value: Sendable>: Sendable {
    private let state = Locked<(value: Value?, waiter: CheckedContinuation<Value, Never>?)>((nil, nil))
    private let ready = DispatchSemaphore(value: 0)

    /// Sets the value unless one is set already. Returns whether this call set it.
    @discardableResult
    func fulfil(_ newValue: Value) -> Bool {
        let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Value, Never>?) in
            guard state.value == nil else { return (false, nil) }
            state.value = newValue
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        guard first else { return false }
        if let waiter { waiter.resume(returning: newValue) } else { ready.signal() }
        return true
    }

    /// Suspends until a value is set, then returns it.
    func value() async -> Value {
        await withCheckedContinuation { continuation in
            let set = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiter = continuation
                return nil
            }
            if let set { continuation.resume(returning: set) }
        }
    }

    /// Blocks this thread until a value is set, then returns it. Only for the SDKs' synchronous callbacks
    /// (`provideCredentials`, the Drops page's form), whose vendor APIs block their thread.
    func wait() -> Value {
        ready.wait()
        ready.signal()  // let any later wait() through too
        return state.withLock { $0.value! }
    }

    var isFulfilled: Bool { state.withLock { $0.value != nil } }
}

/// True for the first call of ``claim()`` only.
public final class OneTimeClaim: Sendable {
    private let claimed = Atomic(false)

    public init() {}

    public func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }
}
