import Determinism
import Dispatch
import IdentityProvider
import IdpTuiWorld
import KSMasterController
import Scenario

/// Where a simulation keeps what outlives a process: the IdP's counters and bindings, and the device.
public struct SimulationStores: Sendable {
    public var identityProvider: any IdentityProviderStore
    package var device: any DeviceStore
    /// What gives the scenario's activation codes back with these stores, as advice names it ("idp-tui reset gives
    /// the scenario's codes back"): the `idp-tui reset` that names their file, or restarting idp-tui for stores
    /// in memory, which `idp-tui reset` refuses.
    public var startOver: String
    /// The `--state` option a command names their file with, after a space (" --state=FILE"; empty for the default
    /// file); nil for stores in memory, whose flows no command reaches.
    public var stateOption: String?

    package init(identityProvider: any IdentityProviderStore, device: any DeviceStore, startOver: String, stateOption: String? = nil) {
        self.identityProvider = identityProvider
        self.device = device
        self.startOver = startOver
        self.stateOption = stateOption
    }

    /// Stores that last as long as the process.
    public static func memory() -> SimulationStores {
        SimulationStores(identityProvider: MemoryIdentityProviderStore(), device: MemoryDeviceStore(), startOver: memoryStartOver)
    }

    /// ``startOver`` for stores in memory (`--ephemeral`), said plainly: it was "starting again (this state is in
    /// memory only)", which advice put in brackets of its own ("(here: starting again (this state …) gives …)").
    public static let memoryStartOver = "restarting idp-tui with --ephemeral"
}

/// One simulated device in a simulated world: the world (IdP, ACS, Q2 Core, network, clock, randomness,
/// faults) and this device's master controller.
public struct SimulationEnvironment: Sendable {
    public let world: SimulatedWorld
    public let masterController: MCSDK
    /// The serial queue this device's work runs on: the master controller's queue, the IdpSdk's and the
    /// service's flow queue all target it, so that a flow's steps, its SDK calls and their completions follow
    /// one another on one thread (docs/architecture.md).
    public let deviceQueue: DispatchQueue
    /// This device's line onto the world's network: its SDKs' round trips, which a cancelled flow abandons
    /// (``SimulatedNetwork/abandonWaits()``).
    public let network: SimulatedNetwork
    /// What gives the scenario's activation codes back: ``SimulationStores/startOver``.
    public let startOver: String
    /// ``SimulationStores/stateOption``: how a command names this device's state file, if it has one.
    public let stateOption: String?

    /// The world a scenario describes (the embedded demo by default), with one device. The same seed and the
    /// same inputs replay the same codes, ids and tokens.
    public init(
        scenario: Scenario = .embeddedDefault, clock: any SimulationClock = SystemClock(), seed: UInt64 = 1,
        stores: SimulationStores = .memory()
    ) {
        let world = SimulatedWorld(scenario: scenario, clock: clock, seed: seed, identityProviderStore: stores.identityProvider)
        self.init(world: world, deviceStore: stores.device, startOver: stores.startOver, stateOption: stores.stateOption)
        masterController.loadStoredDevice()
    }

    private init(world: SimulatedWorld, deviceStore: any DeviceStore, startOver: String, stateOption: String?) {
        self.world = world
        self.startOver = startOver
        self.stateOption = stateOption
        deviceQueue = DispatchQueue(label: "idp-tui.device", qos: .userInitiated)
        network = world.network.line()
        masterController = MCSDK(configuration: MasterControllerConfiguration(
            world: world, store: deviceStore, targetQueue: deviceQueue, network: network))
    }

    /// A second device (a fresh master controller) on the same IdP, clock and network.
    public func anotherDevice() -> SimulationEnvironment {
        SimulationEnvironment(world: world, deviceStore: MemoryDeviceStore(), startOver: startOver, stateOption: stateOption)
    }

    public var clock: any SimulationClock { world.clock }
    public var tenantId: String { world.tenantId }
    public var idpUrl: String { world.idpUrl }
    /// The identity faults that are on; the terminal's faults panel and headless answers switch them live.
    public var faults: FaultSwitchboard { world.faults }
}
