/// The settings one family is made with (what the command line sets for its flows): each family declares its own
/// type, kept in a ``FlowConfiguration`` under that type.
public protocol FamilySettings: Sendable {
    /// The settings when nothing sets them.
    static var defaults: Self { get }
}

/// How the app side of the simulation behaves, family by family, and how long a prompt may wait: what the
/// command line sets. A family's settings are kept by their type (`configuration[PaymentSettings.self]`; each family
/// module names its own, `configuration.payment`), so that a new family adds its settings without changing this.
public struct FlowConfiguration: Sendable {
    /// How long a prompt waits for the front end; nil waits for ever.
    public var promptTimeout: Duration?
    private var parts: [ObjectIdentifier: any FamilySettings] = [:]

    public init(promptTimeout: Duration? = .seconds(300)) {
        self.promptTimeout = promptTimeout
    }

    /// One family's settings: those set, else their defaults.
    public subscript<Settings: FamilySettings>(_ type: Settings.Type) -> Settings {
        get { parts[ObjectIdentifier(type)] as? Settings ?? .defaults }
        set { parts[ObjectIdentifier(type)] = newValue }
    }
}
