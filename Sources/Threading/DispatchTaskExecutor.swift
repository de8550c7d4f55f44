import Dispatch

/// Runs a task's jobs on a serial dispatch queue: a flow's code, and the async SDK calls it makes (Q2's
/// `authenticate(using:)`), run on the device's queue, and progress even when every thread of the cooperative
/// pool is blocked elsewhere.
public final class DispatchTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}

extension DispatchTaskExecutor {
    /// Starts `operation` as a task on this executor, counted in `pending` (a test's ``PendingWork``) from now until
    /// it has run to its end: how the simulation and the engine start every task, as ``DispatchQueue/async(counting:execute:)``
    /// queues every job.
    public func startTask(counting pending: PendingWork?, _ operation: @escaping @Sendable () async -> Void) {
        pending?.begin()
        Task(executorPreference: self) {
            await operation()
            pending?.end()
        }
    }
}
