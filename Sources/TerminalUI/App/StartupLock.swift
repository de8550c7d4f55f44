/// What the terminal UI asks of the state file while it opens, before any service exists to ask: since when it has
/// waited for another process's lock, how long it waits at most, and a way to stop waiting.
public struct StartupLock: Sendable {
    public let since: @Sendable () -> ContinuousClock.Instant?
    public let timeout: Duration
    public let stop: @Sendable () -> Void

    public init(since: @escaping @Sendable () -> ContinuousClock.Instant?, timeout: Duration, stop: @escaping @Sendable () -> Void) {
        self.since = since
        self.timeout = timeout
        self.stop = stop
    }
}
