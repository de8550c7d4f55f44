import DropsWeb
import IdentityProvider

extension SimulatedWorld {
    /// The world's network as the Drops page crosses it: the same latency and network faults as the IdP's
    /// round trips, and faults reported to the same switchboard (the flow's log).
    package var pageNetwork: any PageNetwork { WorldPageNetwork(network: network) }
}

private struct WorldPageNetwork: PageNetwork {
    let network: SimulatedNetwork

    func roundTrip() async throws(PageNetworkFailure) {
        do {
            try await network.roundTrip(to: Self.server)
        } catch {
            throw Self.failure(error)
        }
    }

    /// The page's servers: Drops, the directory server, the ACS.
    private static let server = "the server"

    private static func failure(_ error: NetworkError) -> PageNetworkFailure {
        switch error {
        // The world's network is no device's line: nothing abandons its waits.
        case .offline, .unreachable, .abandoned: .offline
        case .timedOut(let after): .timedOut(after)
        }
    }

    var isOffline: Bool { network.faults.faults.networkUnavailable }

    func reportFault(_ what: String) {
        network.faults.triggered(what)
    }
}
