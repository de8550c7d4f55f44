import Threading
import Determinism

/// The simulated network between the SDKs and the IdP: which IdP answers at which URL, and how long a
/// round trip takes on the simulation clock.
public final class SimulatedNetwork: Sendable {
    public let clock: any SimulationClock
    /// Network faults: unavailable, added latency, a request that times out.
    public let faults: FaultSwitchboard
    private let state = Locked(State())

    private struct State {
        var hosts: [String: IdentityProvider] = [:]
        var latency: Duration = .zero
    }

    public init(clock: any SimulationClock, faults: FaultSwitchboard = FaultSwitchboard()) {
        self.clock = clock
        self.faults = faults
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
        let host = state.withLock { $0.hosts[url] }
        try roundTrip()
        guard let host else { throw .unreachable(url) }
        return host
    }

    /// One more round trip to an IdP already connected: latency, or a fault.
    public func roundTrip() throws(NetworkError) {
        let faults = faults.faults
        if faults.networkUnavailable {
            self.faults.triggered("network unavailable: the request never leaves the device")
            throw .offline
        }
        if faults.requestTimeout {
            self.faults.triggered("request timeout: the IdP does not answer within \(FaultSwitchboard.requestTimeout.components.seconds) s")
            clock.sleep(for: FaultSwitchboard.requestTimeout)
            throw .timedOut(FaultSwitchboard.requestTimeout)
        }
        var delay = latency
        if faults.addedLatency > .zero {
            self.faults.triggered("added latency: +\(faults.addedLatency.milliseconds) ms on this round trip")
            delay += faults.addedLatency
        }
        clock.sleep(for: delay)
    }
}

/// Why the network could not reach a host.
public enum NetworkError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreachable(String)
    /// The device has no network.
    case offline
    case timedOut(Duration)

    public var description: String {
        switch self {
        case .unreachable(let url): "no identity provider answers at \(url)"
        case .offline: "the network is unavailable: the device is offline"
        case .timedOut(let after): "the request timed out after \(after.components.seconds) s without an answer"
        }
    }
}
