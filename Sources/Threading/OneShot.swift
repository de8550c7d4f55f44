import Dispatch
import Synchronization

/// A value set once, by whichever of several parties comes first, and taken by one waiter: a flow's code
/// awaits it (``value()``, suspending), or an SDK's synchronous callback blocks its thread for it (``wait()``);
/// a simulated round trip waits for its timer or its abandonment the same two ways.
///
/// Public and inlinable, so that each user gets it specialized: unspecialized, each call looked up the generic
/// metadata of its state at run time, 13 k instructions an IdpSdk flow (docs/performance.md, session 22).
/// (`package` with `@inlinable` compiled, but callers in other modules still called the generic code.)
public final class OneShot<Value: Sendable>: Sendable {
    @usableFromInline enum Waiter: Sendable {
        case task(CheckedContinuation<Value, Never>)
        /// Made only when a thread blocks: most waits are awaits.
        case thread(DispatchSemaphore)
    }

    @usableFromInline let state = Locked<(value: Value?, waiter: Waiter?)>((nil, nil))
    /// A test's count of what can still run: a waiter counts as nothing until the value wakes it.
    @usableFromInline let pending: PendingWork?

    /// `pending`: a test's count (``PendingWork``), when whatever sets the value is counted too (the clock, the
    /// front end, counted work); nil for a wait on anything else.
    @inlinable public init(counting pending: PendingWork? = nil) {
        self.pending = pending
    }

    /// Sets the value unless one is set already. Returns whether this call set it.
    @discardableResult @inlinable
    public func fulfil(_ newValue: Value) -> Bool {
        let (first, waiter) = state.withLock { state -> (Bool, Waiter?) in
            guard state.value == nil else { return (false, nil) }
            state.value = newValue
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        if waiter != nil { pending?.begin() }
        switch waiter {
        case .task(let continuation): continuation.resume(returning: newValue)
        case .thread(let semaphore): semaphore.signal()
        case nil: break
        }
        return first
    }

    /// Suspends until a value is set, then returns it.
    @inlinable public func value() async -> Value {
        await withCheckedContinuation { continuation in
            let set = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiter = .task(continuation)
                return nil
            }
            if let set { continuation.resume(returning: set) } else { pending?.end() }
        }
    }

    /// Blocks this thread until a value is set, then returns it. Only for the SDKs' synchronous callbacks
    /// (`provideCredentials`), whose vendor APIs block their thread.
    @available(*, noasync, message: "await value()")
    @inlinable public func wait() -> Value {
        let semaphore = state.withLock { state -> DispatchSemaphore? in
            guard state.value == nil else { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            state.waiter = .thread(semaphore)
            return semaphore
        }
        guard let semaphore else { return state.withLock { $0.value! } }
        pending?.end()
        semaphore.wait()
        return state.withLock { $0.value! }
    }
}

/// True for the first call of ``claim()`` only.
public final class OneTimeClaim: Sendable {
    private let claimed = Atomic(false)

    public init() {}

    public func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }
}
