import Dispatch

/// Runs a task's jobs on a serial dispatch queue of its own, so that the async SDK calls a flow makes (Q2's
/// `authenticate(using:)`) progress even when every thread of the cooperative pool is blocked elsewhere.
final class DispatchTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
