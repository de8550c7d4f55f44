import Dispatch

/// Async jobs run one at a time, in the order they were added, each to its end (its awaits included) before the
/// next starts, on a serial queue: what that queue is to blocking jobs. An SDK's work that awaits the simulated
/// network keeps its order this way without holding the queue's thread while it waits.
public final class SerialTaskLane: Sendable {
    public typealias Job = @Sendable () async -> Void

    private struct Line {
        var jobs: [Job] = []
        var draining = false
    }

    private let executor: DispatchTaskExecutor
    private let pending: PendingWork?
    private let line = Locked(Line())

    /// A lane whose jobs run on `queue`, each counted in `pending` (a test's ``PendingWork``) from when it is added,
    /// as ``DispatchQueue/async(counting:execute:)`` counts a job.
    public init(queue: DispatchQueue, counting pending: PendingWork?) {
        executor = DispatchTaskExecutor(queue: queue)
        self.pending = pending
    }

    /// Runs `job` after every job added before it has ended.
    public func add(_ job: @escaping Job) {
        pending?.begin()
        let start = line.withLock { line -> Bool in
            line.jobs.append(job)
            defer { line.draining = true }
            return !line.draining
        }
        if start { executor.startTask(counting: pending) { await self.drain() } }
    }

    /// The lane's one task: each job in turn, counted from here as the task (whose waits count as nothing while
    /// they wait), until none is left.
    private func drain() async {
        while let job = next() {
            pending?.end()
            await job()
        }
    }

    private func next() -> Job? {
        line.withLock { line in
            guard !line.jobs.isEmpty else {
                line.draining = false
                return nil
            }
            return line.jobs.removeFirst()
        }
    }
}
