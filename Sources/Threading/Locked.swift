#if canImport(Glibc)
    import Glibc
#endif

/// A value guarded by a pthread mutex, with the same `withLock` shape as `Synchronization.Mutex`.
///
/// Why not `Mutex`: on Linux, ThreadSanitizer does not see the standard library's futex-based lock and
/// reports races inside its critical sections (seen here on Swift 6.3.1 in the mailbox and the credential
/// channel). CI runs the channel and service tests under `--sanitize=thread`, so shared state uses a lock
/// that the sanitizer intercepts.
public struct Locked<Value> {
    // Internal rather than private only so that the inlinable `withLock` may reach it.
    @usableFromInline let storage: Storage

    /// The value and its mutex in one allocation (the mutex in the buffer's tail, where its address stays put): a
    /// mutex allocated on its own doubled the allocations, and every flow makes a dozen locks on one thread that
    /// another frees, which glibc serves from its slow path.
    @usableFromInline final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                mutex.deinitialize(count: 1)
            }
        }
    }

    public init(_ value: Value) {
        // `create` is typed as returning a ManagedBuffer; the instance it makes is of the class it is called on.
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(mutex, nil)
        }
    }

    /// Runs `body` with exclusive access to the value. Inlinable, so that each caller gets it specialized and its
    /// `body` inlined: every flow step takes several locks, and the unspecialized call was the busiest of the
    /// engine's own functions in idp-bench's profile.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try storage.withUnsafeMutablePointers { (value, mutex) throws(Failure) -> Result in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    /// Runs `body` as ``withLock(_:)`` does if the lock comes free within `timeout`; nil, `body` not run, if not:
    /// for a signal's exit, which must not wait forever on a holder stuck in the kernel (a write nobody reads).
    /// Tried every millisecond against the monotonic clock (`pthread_mutex_timedlock` counts on the wall clock, which
    /// a clock stepped back would stretch, and its monotonic twin is not in Swift's Glibc module).
    public func withLock<Result>(waitingAtMost timeout: Duration, _ body: (inout Value) -> Result) -> Result? {
        storage.withUnsafeMutablePointers { value, mutex in
            let deadline = ContinuousClock.now + timeout
            while pthread_mutex_trylock(mutex) != 0 {
                guard ContinuousClock.now < deadline else { return nil }
                usleep(1_000)
            }
            defer { pthread_mutex_unlock(mutex) }
            return body(&value.pointee)
        }
    }
}

// `@unchecked Sendable` is safe: every access to `value` happens inside `withLock`, under the mutex, and a
// `Sendable` value is all that can leave it.
extension Locked: @unchecked Sendable where Value: Sendable {}

/// A value that crosses to another thread although its type is not `Sendable`: only for the callbacks and
/// objects the vendors' SDK APIs take without `Sendable` (their Objective-C-era blocks, an app's interaction
/// object). The SDK calls each exactly once, or only on its own serial queue, as it does on a device; the app's
/// side of that contract (thread safety of what it passes) is the vendor's documented rule.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}
