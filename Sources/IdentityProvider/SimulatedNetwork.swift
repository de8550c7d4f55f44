import Threading
import Determinism

/// The simulated network between the SDKs and the IdP: which IdP answers at which URL, and how long a
/// round trip takes on the simulation clock.
public final class SimulatedNetwork: Sendable {
    /// A process-wide network, for code that builds an `IdpSdkService` without naming one (as the migration
    /// guide's code does). The flow service always uses a network of its own.
    public static let shared = SimulatedNetwork(clock: SystemClock())

    public let clock: any SimulationClock
    private let state = Locked(State())

    private struct State {
        var hosts: [String: IdentityProvider] = [:]
        var latency: Duration = .zero
    }

    public init(clock: any SimulationClock) {
        self.clock = clock
    }

    /// Makes `provider` answer at its base URL.
    public func register(_ provider: IdentityProvider) {
        state.withLock { $0.hosts[provider.baseURL] = provider }
    }

    /// The time every round trip takes on the simulation clock.
    public var latency: Duration {
        get { state.withLock { $0.latency } }
        set { state.withLock { $0.latency = newValue } }
    }

    /// Connects to the IdP at `url`, taking one round trip of latency.
    public func connect(to url: String) throws(NetworkError) -> IdentityProvider {
        let (host, latency) = state.withLock { ($0.hosts[url], $0.latency) }
        clock.sleep(for: latency)
        guard let host else { throw .unreachable(url) }
        return host
    }

    /// One more round trip to an IdP already connected.
    public func roundTrip() {
        clock.sleep(for: latency)
    }
}

/// Why the network could not reach a host.
public enum NetworkError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreachable(String)

    public var description: String {
        switch self {
        case .unreachable(let url): "no identity provider answers at \(url)"
        }
    }
}
