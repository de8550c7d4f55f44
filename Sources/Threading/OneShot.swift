import Dispatch
import Synchronization

/// A value set once, by whichever of several parties comes first, and taken by one waiter: a flow's code
/// awaits it (``value()``, suspending), or an SDK's synchronous callback blocks its thread for it (``wait()``);
/// a simulated round trip waits for its timer or its abandonment the same two ways.
package final class OneShot<Value: Sendable>: Sendable {
    private enum Waiter {
        case task(CheckedContinuation<Value, Never>)
        /// Made only when a thread blocks: most waits are awaits.
        case thread(DispatchSemaphore)
    }

    private let state = Locked<(value: Value?, waiter: Waiter?)>((nil, nil))

    /// Sets the value unless one is set already. Returns whether this call set it.
    package init() {}

    @discardableResult
    package func fulfil(_ newValue: Value) -> Bool {
        let (first, waiter) = state.withLock { state -> (Bool, Waiter?) in
            guard state.value == nil else { return (false, nil) }
            state.value = newValue
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        switch waiter {
        case .task(let continuation): continuation.resume(returning: newValue)
        case .thread(let semaphore): semaphore.signal()
        case nil: break
        }
        return first
    }

    /// Suspends until a value is set, then returns it.
    package func value() async -> Value {
        await withCheckedContinuation { continuation in
            let set = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiter = .task(continuation)
                return nil
            }
            if let set { continuation.resume(returning: set) }
        }
    }

    /// Blocks this thread until a value is set, then returns it. Only for the SDKs' synchronous callbacks
    /// (`provideCredentials`, the Drops page's form), whose vendor APIs block their thread.
    package func wait() -> Value {
        let semaphore = state.withLock { state -> DispatchSemaphore? in
            guard state.value == nil else { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            state.waiter = .thread(semaphore)
            return semaphore
        }
        semaphore?.wait()
        return state.withLock { $0.value! }
    }

    package var isFulfilled: Bool { state.withLock { $0.value != nil } }
}

/// True for the first call of ``claim()`` only.
public final class OneTimeClaim: Sendable {
    private let claimed = Atomic(false)

    public init() {}

    public func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }
}
