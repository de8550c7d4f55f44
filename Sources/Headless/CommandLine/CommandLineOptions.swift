import DropsWeb
import FlowCatalog
import FlowEngine
import KSMasterController
import Q2ModuleInterfaces

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
    public var authenticationMode: KSMAuthenticationMode = .no
    public var shouldHashPin = false
    public var certificateChainPath: String?
    /// `--bridge-fault`, repeatable: faults the simulated Drops page shows in every payment.
    public var bridgeFaults = BridgeFaults.none
    /// `--bridge-timing swift|web`.
    public var bridgeTiming = BridgeTiming.swiftHost
    /// `--scenario FILE`; nil runs the embedded default.
    public var scenarioPath: String?
    /// `--tenant ID`: the tenant the app is configured for, instead of the scenario's `app.tenant`.
    public var tenant: String?
    /// `--state FILE`; nil is the default file.
    public var statePath: String?
    /// `--ephemeral`: keep state in memory only.
    public var ephemeral = false
    /// `--launch normal|deep-link|push`: how the app was opened (the Q2 module).
    public var launch = Q2Launch.normal
    /// `--insecure-device REASON`: the security module denies Q2 logins.
    public var insecureDeviceReason: String?
    /// `compare --variant`.
    public var variant = ParityCheck.Variant.guide
    /// `compare --json`, `history --json`.
    public var json = false
    /// `history --limit N` (nil: not given; the list shows 50).
    public var limit: Int?
    /// `history export --format mermaid|json`.
    public var format: String?
    /// `history prune --keep-flows N`.
    public var keepFlows: Int?
    /// `history prune --keep-days D`.
    public var keepDays: Int?
    /// `reset --yes`: no question, even at a terminal.
    public var yes = false

    public init() {}
}
