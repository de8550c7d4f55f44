import Dispatch

/// Jobs run one at a time, in the order they were added, each to its end before the next starts, on a serial queue:
/// what that queue is to blocking jobs, for work of which some awaits. A job that awaits (an SDK's work that crosses
/// the simulated network) runs in a task, its thread free while it waits; one that does not runs as a plain job on
/// the queue, at a plain job's cost, with no task made for it.
public final class SerialTaskLane: Sendable {
    private enum Job {
        case plain(@Sendable () -> Void)
        case awaiting(@Sendable () async -> Void)
    }

    private struct Line {
        var jobs: [Job] = []
        var draining = false
    }

    private let queue: DispatchQueue
    private let executor: DispatchTaskExecutor
    private let pending: PendingWork?
    private let line = Locked(Line())

    /// A lane whose jobs run on `queue`, counted in `pending` (a test's ``PendingWork``) while they can run.
    public init(queue: DispatchQueue, counting pending: PendingWork?) {
        self.queue = queue
        executor = DispatchTaskExecutor(queue: queue)
        self.pending = pending
    }

    /// Runs `job` after every job added before it has ended.
    public func add(_ job: @escaping @Sendable () -> Void) { add(.plain(job)) }

    /// Runs `job`, which awaits, after every job added before it has ended, and the jobs after it once it has.
    public func add(_ job: @escaping @Sendable () async -> Void) { add(.awaiting(job)) }

    /// The lane counts its drainer, not each job (``PendingWork``): one count from the moment `add` starts it until
    /// nothing is left, which the task that runs an awaiting job holds, and gives up while that job waits. A job
    /// added behind one waiting on the clock cannot run before the clock moves, and counts as nothing.
    private func add(_ job: Job) {
        let start = line.withLock { line -> Bool in
            line.jobs.append(job)
            defer { line.draining = true }
            return !line.draining
        }
        guard start else { return }
        // Started from here, not from a hop through the queue: the task's first step is queued now, in the order the
        // job was added, as `queue.async` queued it (a cancel's abandon, then the next flow's resume, queued after it).
        if case .awaiting = job {
            executor.startTask(counting: pending) { await self.drainInTask() }
        } else {
            pending?.begin()
            queue.async { self.drain() }
        }
    }

    /// Runs the plain jobs in turn; hands the rest of the line to a task at the first job that awaits.
    private func drain() {
        while let job = next() {
            switch job {
            case .plain(let run):
                run()
            case .awaiting(let run):
                executor.startTask(counting: pending) {
                    await run()
                    await self.drainInTask()
                }
                pending?.end()
                return
            }
        }
        pending?.end()
    }

    /// The line's rest, in a task (counted as the task, whose waits count as nothing while they wait).
    private func drainInTask() async {
        while let job = next() {
            switch job {
            case .plain(let run): run()
            case .awaiting(let run): await run()
            }
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
