import Threading

/// A device's flows, started and not yet running, in order, for the task that runs them in turn
/// (``FlowService``). One task runs every flow waiting, and ends when none is left: flows started together (a
/// benchmark's activation and login) run in one task, so the frames they await in stay in its
/// allocator's slabs from one flow to the next instead of being allocated anew with a task for each flow.
final class FlowLineup: Sendable {
    private let state = Locked<(waiting: [FlowRun], running: Bool)>(([], false))

    /// Adds `run` behind the flows waiting. True when no task is running the lineup: the caller starts one.
    func add(_ run: FlowRun) -> Bool {
        state.withLock { state in
            state.waiting.append(run)
            defer { state.running = true }
            return !state.running
        }
    }

    /// The next flow to run; nil when none is waiting, and then the task that asked must end (the next
    /// ``add(_:)`` starts another).
    func next() -> FlowRun? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.running = false
                return nil
            }
            return state.waiting.removeFirst()
        }
    }
}
