/// What the terminal UI asks of the state file while it opens, before any service exists to ask: since when it has
/// waited for another process's lock, and a way to stop waiting.
public struct StartupLock: Sendable {
    public let since: @Sendable () -> ContinuousClock.Instant?
    public let stop: @Sendable () -> Void

    public init(since: @escaping @Sendable () -> ContinuousClock.Instant?, stop: @escaping @Sendable () -> Void) {
        self.since = since
        self.stop = stop
    }
}
