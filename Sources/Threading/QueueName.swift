import Dispatch
import Foundation

/// Names the thread that code runs on, so that flow events can show where each step ran
/// (for instance that `provideCredentials` is called off the main thread).
///
/// Linux has no public way to read the current Dispatch queue's label, so queues that matter
/// are tagged with a queue-specific value instead.
public enum QueueName {
    private static let key = DispatchSpecificKey<String>()

    /// A serial queue whose name ``current`` reports.
    public static func makeSerialQueue(_ name: String, qos: DispatchQoS = .userInitiated) -> DispatchQueue {
        let queue = DispatchQueue(label: name, qos: qos)
        queue.setSpecific(key: key, value: name)
        return queue
    }

    /// `main` on the main thread, the tagged queue's name on such a queue, else `background`.
    public static var current: String {
        if Thread.isMainThread { return "main" }
        return DispatchQueue.getSpecific(key: key) ?? "background"
    }
}
