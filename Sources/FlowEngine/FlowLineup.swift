import Threading

/// A device's flows, started and not yet running, in order, for the one task that runs them in turn
/// (``FlowService``): that task lives as long as the service, so the frames its flows await in stay in the
/// task allocator's slabs from one flow to the next instead of being allocated with a new task for each.
final class FlowLineup: Sendable {
    private struct State {
        var waiting: [FlowRun] = []
        /// The runner, parked until a flow is added (or the lineup closes).
        var parked: UnsafeContinuation<FlowRun?, Never>?
        var runnerStarted = false
        var closed = false
    }

    private let state = Locked(State())

    /// Adds `run` behind the flows waiting. True when no task runs the lineup yet: the caller starts it.
    func add(_ run: FlowRun) -> Bool {
        let (parked, startRunner) = state.withLock { state -> (UnsafeContinuation<FlowRun?, Never>?, Bool) in
            let startRunner = !state.runnerStarted
            state.runnerStarted = true
            guard let parked = state.parked else {
                state.waiting.append(run)
                return (nil, startRunner)
            }
            state.parked = nil
            return (parked, startRunner)
        }
        parked?.resume(returning: run)
        return startRunner
    }

    /// The next flow to run, waiting for one to be added; nil once the lineup is closed.
    func next() async -> FlowRun? {
        await withUnsafeContinuation { continuation in
            let ready = state.withLock { state -> FlowRun?? in
                if !state.waiting.isEmpty { return .some(state.waiting.removeFirst()) }
                if state.closed { return .some(nil) }
                state.parked = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Ends the runner once the flows waiting have run (its service is gone).
    func close() {
        let parked = state.withLock { state -> UnsafeContinuation<FlowRun?, Never>? in
            state.closed = true
            defer { state.parked = nil }
            return state.parked
        }
        parked?.resume(returning: nil)
    }
}
