import FlowEngine
import FlowRecords
import IdentityProvider
import IdpFlows
import LegacyFlows
import PaymentFlows
import Q2Flows
import Simulation

/// Every flow family idp-tui runs, registered in one place: adding a family is one module and one line here
/// (its settings are its own type, kept in ``FlowConfiguration`` by that type).
public enum FlowCatalog {
    /// A family's type and how a service makes its instance (from the environment, its settings and the families
    /// made before it). `settings`: the type of the settings the family is made with (the KSSIDP wrapper's are the
    /// IdpSdk's), which its kinds then join in an option's reach; `make` is handed a value of that type, and of
    /// no other, so a family cannot read settings other than those it names.
    struct Registration: Sendable {
        let type: any FlowFamily.Type
        let settings: any FamilySettings.Type
        let make: @Sendable (SimulationEnvironment, FlowConfiguration, [any FlowFamily]) -> any FlowFamily

        init<Settings: FamilySettings>(
            _ type: any FlowFamily.Type, settings: Settings.Type,
            make: @escaping @Sendable (SimulationEnvironment, Settings, [any FlowFamily]) -> any FlowFamily
        ) {
            self.type = type
            self.settings = settings
            self.make = { environment, configuration, made in make(environment, configuration[Settings.self], made) }
        }
    }

    /// The families, in the order `run --help` lists their kinds and the terminal's menu offers them.
    static let registry: [Registration] = [
        Registration(IdpSdkFamily.self, settings: IdpSettings.self) { environment, settings, _ in
            IdpSdkFamily(environment: environment, settings: settings)
        },
        Registration(PaymentFamily.self, settings: PaymentSettings.self) { _, settings, _ in PaymentFamily(settings: settings) },
        Registration(Q2Family.self, settings: Q2Settings.self) { environment, settings, _ in
            Q2Family(world: environment.world, deviceQueue: environment.deviceQueue, settings: settings)
        },
        Registration(LegacyFamily.self, settings: IdpSettings.self) { _, _, made in LegacyFamily(idp: made.first(IdpSdkFamily.self)) },
    ]

    /// The families of a service on `environment`, configured as `configuration` says.
    public static func families(_ environment: SimulationEnvironment, _ configuration: FlowConfiguration) -> [any FlowFamily] {
        registry.reduce(into: []) { made, registration in made.append(registration.make(environment, configuration, made)) }
    }

    /// The families' types, in the registry's order (the front ends find their own part of a family from its type).
    public static let familyTypes: [any FlowFamily.Type] = registry.map { registration in registration.type }

    /// Every kind of flow, in the registry's order.
    public static let kinds: [FlowKind] = registry.flatMap { $0.type.kinds }

    /// The flows the terminal UI's menu offers, in the registry's order.
    public static let menuKinds: [FlowKind] = registry.flatMap { $0.type.menuKinds }

    /// The kinds that settings of type `settings` can change (what a command-line option that sets them can reach).
    public static func kinds(changedBy settings: any FamilySettings.Type) -> [FlowKind] {
        registry.filter { ObjectIdentifier($0.settings) == ObjectIdentifier(settings) }.flatMap { registration in registration.type.kinds.filter(registration.type.isChangedBySettings) }
    }

    /// The kinds any of the faults of `keys` (a scenario's `faults` keys) can reach.
    public static func kinds(reachedByAnyOf keys: [String]) -> [FlowKind] {
        registry.flatMap { registration in
            registration.type.kinds.filter { registration.type.faultKeys(reaching: $0).contains(where: keys.contains) }
        }
    }

    /// The kind `run` names `name`.
    public static func kind(named name: String) -> FlowKind? { kinds.first { $0.rawValue == name } }
}

extension [any FlowFamily] {
    /// The family of type `T` made already (a family that wraps another, as KSSIDP wraps the IdpSdk, is
    /// registered after it).
    func first<T: FlowFamily>(_ type: T.Type) -> T {
        guard let family = lazy.compactMap({ $0 as? T }).first else { preconditionFailure("\(T.self) is registered later") }
        return family
    }
}

extension FlowService {
    /// A service on `environment` with every family of the catalog: what the terminal UI, the headless runner
    /// and the benchmark run.
    public convenience init(
        environment: SimulationEnvironment, configuration: FlowConfiguration = FlowConfiguration(),
        history: (any FlowHistory)? = MemoryFlowHistory()
    ) {
        self.init(
            world: environment.world, deviceQueue: environment.deviceQueue, families: FlowCatalog.families(environment, configuration),
            promptTimeout: configuration.promptTimeout, history: history)
    }

    /// The IdpSdk family: the device's master controller and its state.
    public var idp: IdpSdkFamily {
        guard let idp = family(IdpSdkFamily.self) else { preconditionFailure("every catalog service has the IdpSdk family") }
        return idp
    }

    /// The device's simulation: the world, its master controller and queue.
    public var environment: SimulationEnvironment { idp.environment }

    /// How a shell command names this service's state file (``SimulationStores/stateOption``); nil in memory, and
    /// for a service without the IdpSdk family (a test's), which has no device of the catalog's.
    public var stateOption: String? { family(IdpSdkFamily.self)?.environment.stateOption }

    /// The Q2 family: the platform and the saved credential.
    public var q2: Q2Family {
        guard let q2 = family(Q2Family.self) else { preconditionFailure("every catalog service has the Q2 family") }
        return q2
    }
}
