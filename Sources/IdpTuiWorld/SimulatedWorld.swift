import Determinism
import DropsWeb
import Foundation
import IdentityProvider
import Q2Core
import Scenario
import Threading
import ThreeDSecure

/// The simulated world that the SDKs talk to: the identity provider and its tenants, the 3-D Secure directory
/// server and issuer ACS, Q2's Core, the network between them, the clock and the seeded randomness, all built
/// from one scenario.
///
/// App code gets it with ``current`` (the embedded demo scenario) or starts a fresh one, from a scenario file
/// or the demo, with ``use(scenarioFile:seed:)``. The vendors' own initializers need nothing else:
///
/// ```swift
/// let world = SimulatedWorld.current
/// let idpSdk = IdpSdkService(tenantId: world.tenantId, idpUrl: world.idpUrl,
///                            certificateChain: world.certificateChain, shouldHashPin: false)
/// ```
///
/// What the simulators hold (keys, random sources, the ACS) is visible to idp-tui's own modules only.
public final class SimulatedWorld: Sendable {
    package let scenario: Scenario
    package let clock: any SimulationClock
    package let random: RandomSource
    package let network: SimulatedNetwork
    package let identityProvider: IdentityProvider
    package let accessControlServer: AccessControlServer
    /// The identity faults that are on; the terminal's faults panel and headless answers switch them live.
    package let faults: FaultSwitchboard
    /// The institution's Q2 Core (its users are the app tenant's users).
    package let q2Core: Q2CoreServer
    private let people: Locked<People>

    private let bridge: Locked<BridgeFaults>

    private struct People {
        var cardholder: ScriptedCardholder
    }

    /// The same scenario, seed and inputs replay the same codes, ids and tokens.
    package init(
        scenario: Scenario = .embeddedDefault, clock: any SimulationClock = SystemClock(), seed: UInt64 = 1,
        identityProviderStore: any IdentityProviderStore = MemoryIdentityProviderStore()
    ) {
        self.scenario = scenario
        self.clock = clock
        random = RandomSource(seed: seed)
        faults = FaultSwitchboard(scenario.identityFaults)
        accessControlServer = AccessControlServer(
            cards: scenario.cards, policy: scenario.challengePolicy, timers: scenario.threeDSTimers, clock: clock, random: random)
        network = SimulatedNetwork(clock: clock, faults: faults)
        network.latency = scenario.networkLatency
        network.requestTimeout = scenario.requestTimeout
        identityProvider = IdentityProvider(
            configuration: scenario.identityProvider, clock: clock, random: random, store: identityProviderStore, faults: faults)
        network.register(identityProvider)
        let configuration = scenario.identityProvider
        q2Core = Q2CoreServer(
            tenant: scenario.appTenant, usersOf: configuration.tenants.first { $0.id == scenario.appTenant },
            lockout: configuration.lockout, store: identityProviderStore, network: network, random: random, clock: clock,
            faults: faults, passwordHashIterations: configuration.passwordHashIterations)
        people = Locked(People(cardholder: ScriptedCardholder(defaultFor: scenario)))
        bridge = Locked(scenario.bridgeFaults)
    }

    // MARK: Faults

    /// The identity side's faults on now (network, IdP, device); whoever they bite reports it through ``faults``.
    /// Switched live by the terminal's faults panel and per flow by headless answers.
    package var identityFaults: IdentityFaults {
        get { faults.faults }
        set { faults.faults = newValue }
    }

    /// Changes both sides' faults in one step (the faults panel's switches): see ``FaultSwitchboard/update(_:)``.
    package func updateFaults<Result>(_ change: (inout IdentityFaults, inout BridgeFaults) -> Result) -> Result {
        faults.update { identity in bridge.withLock { bridge in change(&identity, &bridge) } }
    }

    /// A host's bridge timing (`--bridge-timing`'s), with the scenario's ready timer where it sets one
    /// (`payments.timers.bridgeReadySeconds`).
    package func bridgeTiming(_ host: BridgeTiming = .swiftHost) -> BridgeTiming {
        var timing = host
        if let ready = scenario.bridgeReadyTimeout { timing.readyTimeout = ready }
        return timing
    }

    /// The bridge faults the next Drops page shows; the scenario's at first.
    package var bridgeFaults: BridgeFaults {
        get { bridge.withLock { $0 } }
        set { bridge.withLock { $0 = newValue } }
    }

    /// The identity side's fault keys (the network's, the IdP's, the device's): what every flow that drives an SDK
    /// against the IdP or Core may meet, and a family's default (``FlowFamily/faultKeys(reaching:)``).
    package static let identityFaultKeys: [String] = IdentityFaults.Fault.keys

    /// The faults among `keys` that are on, in words, the identity side's in ``IdentityFaults/Fault``'s order, then
    /// the bridge's and 3-D Secure's in ``BridgeFaults/Fault``'s: what a flow only those can reach
    /// lists as it starts ("network unavailable", "every bridge ack lost").
    package func activeFaultNames(of keys: [String]) -> [String] {
        identityFaults.activeNames { keys.contains($0.key) } + bridgeFaults.activeNames { keys.contains($0.key) }
    }

    /// Whether the faults on are the scenario's own: each on or off as the scenario has it (whatever its value), none
    /// switched by the faults panel, a setting or a command-line option since the world was made.
    package var hasTheScenariosFaults: Bool {
        func switches(_ identity: IdentityFaults, _ bridge: BridgeFaults) -> [Bool] {
            IdentityFaults.Fault.allCases.map(identity.isOn) + BridgeFaults.Fault.allCases.map(bridge.isOn)
        }
        return updateFaults { identity, bridge in switches(identity, bridge) == switches(scenario.identityFaults, scenario.bridgeFaults) }
    }

    // MARK: What app code reads

    /// The scenario's name (`demo` for the embedded one).
    public var scenarioName: String { scenario.name }

    /// The app tenant's users, for the terminal's test-data key (the scenario names them for testers to type).
    package var demoUsers: [UserConfiguration] {
        scenario.identityProvider.tenants.first { $0.id == scenario.appTenant }?.users ?? []
    }

    /// The cards the issuer knows, for the card form's picker.
    package var testCards: [TestCard] { scenario.cards }

    /// The tenant the app is configured for: pass it to `IdpSdkService` and the MC-SDK events.
    public var tenantId: String { scenario.appTenant }

    /// Where the identity provider answers: `IdpSdkService(idpUrl:)`.
    public var idpUrl: String { identityProvider.baseURL }

    /// The identity provider's certificate chain, PEM, leaf first: what an app ships in its assets and passes
    /// to `IdpSdkService(certificateChain:)` to pin.
    public var certificateChain: Data { Data(IdentityProviderCertificates.genuinePEM.utf8) }

    /// The person at the Drops page: the card they type and how they answer a challenge. By default the
    /// scenario's first card that passes frictionless (Y; else its first card) and the scenario's one-time code
    /// (1234 unless its `challenge.oneTimeCode` says otherwise). Read at each `configure`.
    public var cardholder: ScriptedCardholder {
        get { people.withLock { $0.cardholder } }
        set { people.withLock { $0.cardholder = newValue } }
    }

    // MARK: The current world

    private static let shared = Locked<SimulatedWorld?>(nil)

    /// The world the vendors' initializers use when they are given nothing else: the embedded demo scenario
    /// (tenant `demo`, users alice and bob, Cardinal's test cards), until ``use(scenarioFile:seed:)`` starts
    /// another; inside ``withWorld(scenarioFile:seed:isolation:_:)``, that task's own world.
    public static var current: SimulatedWorld {
        if let taskWorld { return taskWorld }
        return shared.withLock { world in
            if let world { return world }
            let made = SimulatedWorld()
            world = made
            return made
        }
    }

    /// Starts a fresh world from a scenario file (nil: the embedded demo) and makes it ``current``. SDK objects
    /// made before keep talking to the world they were made in.
    ///
    /// - Throws: ``SimulatedWorldError`` naming every problem of the file, with its place.
    @discardableResult
    public static func use(scenarioFile path: String? = nil, seed: UInt64 = 1) throws(SimulatedWorldError) -> SimulatedWorld {
        let world = try make(scenarioFile: path, seed: seed)
        shared.withLock { $0 = world }
        return world
    }

    /// Runs `body` in a fresh world of its own (from a scenario file; nil: the embedded demo): inside it, and in
    /// the tasks it starts, ``current`` is that world, while other tasks keep theirs. For tests that run side by
    /// side (Swift Testing runs them in parallel), where ``use(scenarioFile:seed:)`` would swap one world under all
    /// of them:
    ///
    /// ```swift
    /// @Test func wrongPassword() async throws {
    ///     try await SimulatedWorld.withWorld { world in
    ///         let platform = SimulatedQ2Platform()      // a platform of this test's world
    ///         …
    ///     }
    /// }
    /// ```
    ///
    /// SDK objects made inside keep talking to this world after `body` returns.
    public static func withWorld<Result>(
        scenarioFile path: String? = nil, seed: UInt64 = 1, isolation: isolated (any Actor)? = #isolation,
        _ body: (SimulatedWorld) async throws -> Result
    ) async throws -> Result {
        let world = try make(scenarioFile: path, seed: seed)
        return try await $taskWorld.withValue(world, operation: { try await body(world) }, isolation: isolation)
    }

    /// Runs `body` with `world` as the ``current`` one of its task, as ``withWorld(scenarioFile:seed:isolation:_:)``
    /// does with a world it makes: for a test's world made otherwise (another clock).
    package static func withWorld<Result>(
        _ world: SimulatedWorld, isolation: isolated (any Actor)? = #isolation, _ body: (SimulatedWorld) async throws -> Result
    ) async throws -> Result {
        try await $taskWorld.withValue(world, operation: { try await body(world) }, isolation: isolation)
    }

    /// The world of the task inside ``withWorld(scenarioFile:seed:isolation:_:)``, if any.
    @TaskLocal private static var taskWorld: SimulatedWorld?

    private static func make(scenarioFile path: String?, seed: UInt64) throws(SimulatedWorldError) -> SimulatedWorld {
        var scenario = Scenario.embeddedDefault
        if let path {
            switch ScenarioFile.read(path: path) {
            case .success(let read): scenario = read
            case .failure(let problems): throw SimulatedWorldError(path: path, problems: problems.inFileOrder.map(\.description))
            }
        }
        return SimulatedWorld(scenario: scenario, seed: seed)
    }
}

/// Why a scenario file could not become the simulated world.
public struct SimulatedWorldError: Error, Sendable, CustomStringConvertible {
    public let path: String
    /// Each problem with its JSON path, line and column.
    public let problems: [String]

    public var description: String { "\(path): " + problems.joined(separator: "; ") }
}

/// `localizedDescription` is ``description``: the file and each problem (it was Foundation's "The operation could
/// not be completed", which said nothing).
extension SimulatedWorldError: LocalizedError {
    public var errorDescription: String? { description }
}
