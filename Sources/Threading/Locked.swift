#if canImport(Glibc)
    import Glibc
#endif

/// A value guarded by a pthread mutex, with the same `withLock` shape as `Synchronization.Mutex`.
///
/// Why not `Mutex`: on Linux, ThreadSanitizer does not see the standard library's futex-based lock and
/// reports races inside its critical sections (seen here on Swift 6.3.1 in the mailbox and the credential
/// channel). CI runs the channel and service tests under `--sanitize=thread`, so shared state uses a lock
/// that the sanitizer intercepts.
public final class Locked<Value> {
    // Internal rather than private only so that the inlinable `withLock` may reach them.
    @usableFromInline var value: Value
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Inlinable, so that each caller gets it specialized and its
    /// `body` inlined: every flow step takes several locks, and the unspecialized call was the busiest of the
    /// engine's own functions in idp-bench's profile.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
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
