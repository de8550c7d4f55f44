import FlowRecords

/// Plain mode's warnings before a prompt times out (`--prompt-timeout`): the terminal UI counts the last 30 s down
/// on its status line, and plain mode printed nothing until the timeout itself, which a screen-reader user could
/// not see coming. A line at 30 s and at 10 s left, each once, and only those under the prompt's whole time (a
/// 20 s timeout warns at 10 s only). And a cancel still carried out a second on.
extension TerminalApp {
    static let plainWarningPoints: [Duration] = [.seconds(30), .seconds(10)]

    /// The warning due at `now` ("! 10 s left to answer, then the prompt times out"), once; nil when none is due.
    public func plainTimeWarning(at now: ContinuousClock.Instant) -> String? {
        // A wait for another process's lock on the state file, as the terminal UI's working screen says it.
        if case .working = state.screen, let since = serviceIfReady?.history?.lockedSince, now >= since + AppState.lockShownAfter,
           state.plainSaidLockWait != since {
            state.plainSaidLockWait = since
            return AppState.lockWaitText + "; Esc stops waiting (the flow ends, and is not saved)"
        }
        if let since = plainCancellingUnsaid, now >= since + AppState.cancelShownAfter {
            state.plainSaidCancelling = since
            return "cancelling… the SDK is ending the flow; Esc ends it at once, without the SDK's answer"
        }
        guard let (deadline, left, points) = plainWarningsLeft(at: now), let point = points.last(where: { left <= $0 }) else {
            return nil
        }
        state.plainWarned = (deadline, point)
        let seconds = left.components.seconds + (left.components.attoseconds > 0 ? 1 : 0)
        return "! \(seconds) s left to answer, then the prompt times out"
    }

    /// How long until the next warning is due (zero: now); nil when none is left for the prompt on screen.
    public func plainNextWarning(at now: ContinuousClock.Instant) -> Duration? {
        // A cancel still being carried out a second on (a slow ACS's challengeCancel) is said, as the terminal UI's
        // working screen says it: plain mode printed nothing until the result, and a second Esc was not offered.
        var cancelling = plainCancellingUnsaid.map { max(.zero, now.duration(to: $0 + AppState.cancelShownAfter)) }
        // While a flow works on a state file, its lock is asked after a few times a second (nothing is printed unless
        // a wait has gone on).
        if case .working = state.screen, let history = serviceIfReady?.history, !(history is MemoryFlowHistory) {
            cancelling = min(cancelling ?? .milliseconds(250), .milliseconds(250))
        }
        guard let (_, left, points) = plainWarningsLeft(at: now), let point = points.first else { return cancelling }
        return min(cancelling ?? .seconds(Int64.max), max(.zero, left - point))
    }

    /// When the cancel under way began, while plain mode has not yet said it is still being carried out.
    private var plainCancellingUnsaid: ContinuousClock.Instant? {
        guard state.screen.isCancelling, let since = state.cancellingSince, state.plainSaidCancelling != since else { return nil }
        return since
    }

    /// The prompt's deadline, its time left, and the warning points not yet said for it, largest first.
    private func plainWarningsLeft(at now: ContinuousClock.Instant) -> (ContinuousClock.Instant, Duration, [Duration])? {
        guard let deadline = state.promptDeadline, let left = state.promptTimeLeft(at: now), left > .zero,
              let whole = serviceIfReady?.promptTimeout else { return nil }
        let said = state.plainWarned.flatMap { $0.deadline == deadline ? $0.point : nil }
        return (deadline, left, Self.plainWarningPoints.filter { point in point < whole && (said.map { point < $0 } ?? true) })
    }
}
