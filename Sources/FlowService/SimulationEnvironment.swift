import Determinism
import IdentityProvider
import MCSDK

/// One simulated world: a clock, a seeded random source, the network, the IdP and one device's master
/// controller.
public struct SimulationEnvironment: Sendable {
    public let clock: any SimulationClock
    public let random: RandomSource
    public let network: SimulatedNetwork
    public let identityProvider: IdentityProvider
    public let masterController: MasterController
    public let tenantId: String

    /// The same seed and the same inputs replay the same codes, ids and tokens.
    public init(
        identityProvider configuration: IdentityProviderConfiguration = .demo(), tenantId: String = "demo",
        clock: any SimulationClock = SystemClock(), seed: UInt64 = 1
    ) {
        self.clock = clock
        self.tenantId = tenantId
        random = RandomSource(seed: seed)
        network = SimulatedNetwork(clock: clock)
        identityProvider = IdentityProvider(configuration: configuration, clock: clock, random: random)
        network.register(identityProvider)
        masterController = MasterController(configuration: MasterControllerConfiguration(
            idpUrl: configuration.baseURL, network: network, random: random,
            clientDataKey: identityProvider.clientDataKey))
    }

    private init(sharing other: SimulationEnvironment) {
        clock = other.clock
        random = other.random
        network = other.network
        identityProvider = other.identityProvider
        tenantId = other.tenantId
        masterController = MasterController(configuration: MasterControllerConfiguration(
            idpUrl: other.identityProvider.baseURL, network: network, random: random,
            clientDataKey: identityProvider.clientDataKey))
    }

    /// A second device (a fresh master controller) on the same IdP, clock and network.
    public func anotherDevice() -> SimulationEnvironment {
        SimulationEnvironment(sharing: self)
    }

    public var idpUrl: String { identityProvider.baseURL }
}
