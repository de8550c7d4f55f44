/// How long the native host waits for an ack and how often it resends. The Swift host uses 1.5 s and 3
/// retries; the web and React Native hosts 1000 ms and 2 (``webHosts``).
public struct BridgeTiming: Sendable, Equatable {
    public var ackTimeout: Duration
    public var maxRetries: Int
    /// How long the host waits for `safepay-inframe__ready` before it reports an error. The public hosts do
    /// not say; without a limit a page that never gets ready would hang the payment (idp-tui's choice).
    public var readyTimeout: Duration

    public init(ackTimeout: Duration = .milliseconds(1500), maxRetries: Int = 3, readyTimeout: Duration = .seconds(10)) {
        self.ackTimeout = ackTimeout
        self.maxRetries = maxRetries
        self.readyTimeout = readyTimeout
    }

    public static let swiftHost = BridgeTiming()
    public static let webHosts = BridgeTiming(ackTimeout: .milliseconds(1000), maxRetries: 2)
}
