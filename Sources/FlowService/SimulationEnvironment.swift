import Determinism
import Dispatch
import IdentityProvider
import KSMasterController
import Q2Core
import Scenario
import ThreeDSecure

/// Where a simulation keeps what outlives a process: the IdP's counters and bindings, and the device.
public struct SimulationStores: Sendable {
    public var identityProvider: any IdentityProviderStore
    public var device: any DeviceStore

    public init(identityProvider: any IdentityProviderStore, device: any DeviceStore) {
        self.identityProvider = identityProvider
        self.device = device
    }

    /// Stores that last as long as the process.
    public static func memory() -> SimulationStores {
        SimulationStores(identityProvider: MemoryIdentityProviderStore(), device: MemoryDeviceStore())
    }
}

/// One simulated world: a clock, a seeded random source, the network, the IdP, one device's master
/// controller, and the 3-D Secure directory server and issuer ACS.
public struct SimulationEnvironment: Sendable {
    public let clock: any SimulationClock
    public let random: RandomSource
    public let network: SimulatedNetwork
    public let identityProvider: IdentityProvider
    public let masterController: MasterController
    /// The serial queue this device's work runs on: the master controller's queue, the IdpSdk's and the
    /// service's flow queue all target it, so that a flow's steps, its SDK calls and their completions follow
    /// one another on one thread (docs/architecture.md).
    public let deviceQueue: DispatchQueue
    public let tenantId: String
    public let accessControlServer: AccessControlServer
    /// The identity faults that are on; the terminal's faults panel and headless answers switch them live.
    public let faults: FaultSwitchboard
    /// The institution's Q2 Core (its users are the app tenant's users).
    public let q2Core: Q2CoreServer
    /// The scenario this world was built from, when it was built from one.
    public private(set) var scenario: Scenario?

    /// The same seed and the same inputs replay the same codes, ids and tokens.
    public init(
        identityProvider configuration: IdentityProviderConfiguration = .demo(), tenantId: String = "demo",
        clock: any SimulationClock = SystemClock(), seed: UInt64 = 1, cards: [TestCard] = CardCatalog.defaults,
        challengePolicy: ChallengePolicy = ChallengePolicy(), latency: Duration = .zero, faults: IdentityFaults = .none,
        stores: SimulationStores = .memory()
    ) {
        self.clock = clock
        self.tenantId = tenantId
        self.faults = FaultSwitchboard(faults)
        random = RandomSource(seed: seed)
        accessControlServer = AccessControlServer(cards: cards, policy: challengePolicy, clock: clock, random: random)
        network = SimulatedNetwork(clock: clock, faults: self.faults)
        network.latency = latency
        identityProvider = IdentityProvider(
            configuration: configuration, clock: clock, random: random, store: stores.identityProvider, faults: self.faults)
        network.register(identityProvider)
        deviceQueue = Self.makeDeviceQueue()
        q2Core = Q2CoreServer(
            tenant: tenantId, users: configuration.tenants.first { $0.id == tenantId }?.users ?? [], lockout: configuration.lockout,
            store: stores.identityProvider, network: network, random: random, clock: clock, faults: self.faults,
            passwordHashIterations: configuration.passwordHashIterations)
        masterController = MasterController(configuration: MasterControllerConfiguration(
            idpUrl: configuration.baseURL, network: network, random: random,
            clientDataKey: identityProvider.clientDataKey, store: stores.device, faults: self.faults,
            targetQueue: deviceQueue))
        masterController.loadStoredDevice()
    }

    /// The world a scenario describes.
    public init(scenario: Scenario, clock: any SimulationClock = SystemClock(), seed: UInt64 = 1, stores: SimulationStores = .memory()) {
        self.init(
            identityProvider: scenario.identityProvider, tenantId: scenario.appTenant, clock: clock, seed: seed,
            cards: scenario.cards, challengePolicy: scenario.challengePolicy, latency: scenario.networkLatency,
            faults: scenario.identityFaults, stores: stores)
        self.scenario = scenario
    }

    private init(sharing other: SimulationEnvironment) {
        clock = other.clock
        faults = other.faults
        random = other.random
        network = other.network
        identityProvider = other.identityProvider
        tenantId = other.tenantId
        accessControlServer = other.accessControlServer
        q2Core = other.q2Core
        scenario = other.scenario
        deviceQueue = Self.makeDeviceQueue()
        masterController = MasterController(configuration: MasterControllerConfiguration(
            idpUrl: other.identityProvider.baseURL, network: network, random: random,
            clientDataKey: identityProvider.clientDataKey, faults: faults, targetQueue: deviceQueue))
    }

    /// A second device (a fresh master controller) on the same IdP, clock and network.
    public func anotherDevice() -> SimulationEnvironment {
        SimulationEnvironment(sharing: self)
    }

    public var idpUrl: String { identityProvider.baseURL }

    private static func makeDeviceQueue() -> DispatchQueue {
        DispatchQueue(label: "idp-tui.device", qos: .userInitiated)
    }
}
