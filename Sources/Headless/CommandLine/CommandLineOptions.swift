import FlowCatalog
import FlowEngine

/// What the command line's options set (``ParsedCommandLine``), for every command: the engine's settings
/// for the terminal UI and `run`, and the few that belong to one command.
public struct CommandLineOptions: Sendable {
    /// `run`'s flows, in order.
    public var flows: [FlowKind] = []
    /// `--theme NAME|FILE`.
    public var theme: String?
    /// False after `--no-mouse`: the terminal UI does not ask for mouse reports.
    public var mouse = true
    /// `--plain`: the line-by-line front end.
    public var plain = false
    /// `--answers FILE|-`; `-` for standard input.
    public var answersPath = "-"
    /// Whether `--answers` was given (a run of only logouts reads a pipe on standard input only then).
    public var answersNamed = false
    public var seed: UInt64 = 1
    public var promptTimeout: Duration = .seconds(300)
    /// The families' settings, as their options set them (`--auth-mode` the IdpSdk's, `--bridge-fault` the
    /// payment's, `--launch` the Q2 module's: each family's options are its own, in its ``FamilyAnswering``).
    public var settings = FlowConfiguration()
    /// What a family's options keep until the command line is whole (the file `--certificate-chain` names, read
    /// only then), by type.
    private var held: [ObjectIdentifier: any Sendable] = [:]
    /// `--scenario FILE`; nil runs the embedded default.
    public var scenarioPath: String?
    /// `--tenant ID`: the tenant the app is configured for, instead of the scenario's `app.tenant`.
    public var tenant: String?
    /// `--state FILE`; nil is the default file.
    public var statePath: String?
    /// `--ephemeral`: keep state in memory only.
    public var ephemeral = false
    /// `compare --variant`.
    public var variant = ParityCheck.Variant.guide
    /// `compare --json`, `history --json`.
    public var json = false
    /// `history --limit N` (nil: not given; the list shows 50).
    public var limit: Int?
    /// `history --before ID`: only flows older than it (the next page of a long history).
    public var before: Int?
    /// `history --filter TEXT`: only flows whose row holds it, as the terminal UI's `/` finds them.
    public var filter: String?
    /// `history export --format mermaid|json`.
    public var format: String?
    /// `history prune --keep-flows N`.
    public var keepFlows: Int?
    /// `history prune --keep-days D`.
    public var keepDays: Int?
    /// `reset --yes`: no question, even at a terminal.
    public var yes = false

    public init() {}

    /// What a family's options keep for later, of type `Value` (its own).
    subscript<Value: HeldOptionValues>(_ type: Value.Type) -> Value {
        get { held[ObjectIdentifier(type)] as? Value ?? Value() }
        set { held[ObjectIdentifier(type)] = newValue }
    }
}

/// What a family's options keep until the command line is whole (``CommandLineOptions/subscript(_:)``).
protocol HeldOptionValues: Sendable {
    init()
}
