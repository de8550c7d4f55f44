import DropsWeb
import IdentityProvider

extension SimulatedWorld {
    /// The world's network as the Drops page crosses it: the same latency and network faults as the IdP's
    /// round trips, and faults reported to the same switchboard (the flow's log).
    package var pageNetwork: any PageNetwork { WorldPageNetwork(network: network) }
}

private struct WorldPageNetwork: PageNetwork {
    let network: SimulatedNetwork

    func roundTrip() throws(PageNetworkFailure) {
        do {
            // The page's servers: Drops, the directory server, the ACS.
            try network.roundTrip(to: "the server")
        } catch {
            switch error {
            // The world's network is no device's line: nothing abandons its waits.
            case .offline, .unreachable, .abandoned: throw .offline
            case .timedOut(let after): throw .timedOut(after)
            }
        }
    }

    func reportFault(_ what: String) {
        network.faults.triggered(what)
    }
}
