import Threading
import Dispatch

/// A value that is set once, by whichever of several parties comes first, and waited for by one thread.
final class OneShot<Value: Sendable>: Sendable {
    private let value = Locked<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    /// Sets the value unless one is set already. Returns whether this call set it.
    @discardableResult
    func fulfil(_ newValue: Value) -> Bool {
        let first = value.withLock { value in
            guard value == nil else { return false }
            value = newValue
            return true
        }
        if first { ready.signal() }
        return first
    }

    /// Blocks until a value is set, then returns it.
    func wait() -> Value {
        ready.wait()
        ready.signal()  // let any later wait() through too
        return value.withLock { $0! }
    }

    var isFulfilled: Bool { value.withLock { $0 != nil } }
}
