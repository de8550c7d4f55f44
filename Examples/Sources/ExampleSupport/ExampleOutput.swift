import Dispatch
import Foundation

/// Every line the examples print, in order: the documents' code prints (`print("success: \(data)")`), and the
/// tests read what it printed.
public enum ExampleOutput {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var lines: [String] = []
    private static let printed = DispatchSemaphore(value: 0)

    /// Prints `line` and keeps it.
    public static func write(_ line: String) {
        Swift.print(line)
        lock.withLock { lines.append(line) }
        printed.signal()
    }

    /// The lines printed so far.
    public static var all: [String] { lock.withLock { lines } }

    /// Forgets the lines printed so far.
    public static func clear() { lock.withLock { lines.removeAll() } }

    /// Waits until a printed line starts with `prefix` (10 s at most) and returns it.
    public static func waitForLine(startingWith prefix: String, seconds: Int = 10) -> String? {
        let deadline = DispatchTime.now() + .seconds(seconds)
        while true {
            if let line = all.first(where: { $0.hasPrefix(prefix) }) { return line }
            if printed.wait(timeout: deadline) == .timedOut { return nil }
        }
    }
}

extension ExampleOutput {
    /// ``waitForLine(startingWith:seconds:)`` for async code: the wait happens on a Dispatch thread, so that
    /// neither the main actor nor the cooperative pool is held.
    public static func line(startingWith prefix: String, seconds: Int = 10) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: waitForLine(startingWith: prefix, seconds: seconds)) }
        }
    }
}
