import CDispatch
import Dispatch

/// Names the thread that code runs on, so that flow events can show where each step ran
/// (for instance that `provideCredentials` is called off the main thread).
///
/// The name is the label of the Dispatch queue whose work is running (the innermost queue when queues
/// target one another). Not a queue-specific value: a queue that holds one wakes a worker thread when it
/// is released, to run the value's destructor, and a benchmark that makes a device per login made
/// thousands of them a second (docs/performance.md).
public enum QueueName {
    /// A serial queue whose label ``current`` reports. Queues given the same `target` run their work one item
    /// at a time on the target's thread: work handed from one of them to another continues on the same thread,
    /// without waking another (each keeps its own name).
    public static func makeSerialQueue(
        _ name: String, qos: DispatchQoS = .userInitiated, target: DispatchQueue? = nil
    ) -> DispatchQueue {
        DispatchQueue(label: name, qos: qos, target: target)
    }

    /// The running queue's label; `main` on the main thread when it runs no queue of ours, `background` on
    /// Dispatch's own worker queues and on threads Dispatch did not start.
    public static var current: String {
        let name = String(cString: dispatch_queue_get_label(nil))
        guard name.hasPrefix("com.apple.") else { return name }
        return name == "com.apple.main-thread" ? "main" : "background"
    }
}
