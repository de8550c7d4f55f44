import IdpTuiWorld

/// A family of flows that drive one SDK (the IdpSdk on the MC-SDK, the KSSIDP wrapper, Safepay Drops, the Q2
/// module): its kinds, how each runs, and what its results add. The engine knows flows only through this; a
/// catalog makes one family object per service and hands them to it.
public protocol FlowFamily: AnyObject, Sendable {
    /// The flows of this family, in menu order.
    static var kinds: [FlowKind] { get }

    /// The flows the terminal UI's home menu offers, in its order, under their titles: by default every kind.
    static var menuKinds: [FlowKind] { get }

    /// Runs `run`'s flow to its result, awaiting its calls (``FlowRun/call(_:atCancel:onCancel:late:_:)``) and prompts
    /// (``FlowRun/ask(_:)``); nil when a cancel ended it (the engine then reported the result).
    func run(_ run: FlowRun) async -> FlowResult?

    /// What every result of `kind` adds, at the moment it is made (a cancelled one's too): the device after an
    /// IdpSdk flow.
    func details(of kind: FlowKind) -> [any FlowResultDetail]

    /// What to try next after a flow of this family ended with `status` and `error` (its code; its message, which says
    /// how long a lock lasts) at `step`.
    func advice(for kind: FlowKind, status: String, error: FlowError?, step: FlowStep?) -> String?

    /// What to know after a flow of `kind` was cancelled at `step` (its call under way or its prompt left), when
    /// the cancel may have left something behind: an activation cancelled at SetAuthorisationCode may have spent
    /// its code at the IdP. Nil by default.
    func cancelAdvice(for kind: FlowKind, step: FlowStep?) -> String?

    /// The same when a signal ended the process there: by default a cancel's. A family whose cancel leaves a call
    /// going on (KSSIDP's wrapper) says what the process's end left instead: the call went no further.
    func interruptedAdvice(for kind: FlowKind, step: FlowStep?) -> String?

    /// The keys (as a scenario's `faults` names them: `serverError`, `bridge.loseAcks`) of the faults that can reach a
    /// flow of `kind`, its family's own included: by default the identity side's (the network's, the IdP's, the
    /// device's; ``SimulatedWorld/identityFaultKeys``). A flow's log lists those that are on as it starts; a headless
    /// answer that switches on another is refused (an identity fault, or the bridge's and 3-D Secure's in a flow
    /// none of whose kinds they reach): it would do nothing; so is a command-line option that sets one for a run
    /// of no such flow.
    static func faultKeys(reaching kind: FlowKind) -> [String]

    /// Whether the settings this family is made with can change a flow of `kind` (by default, yes): a command-line
    /// option that sets them is refused for a run of no such flow (`--auth-mode` on a payment bit nothing).
    static func isChangedBySettings(_ kind: FlowKind) -> Bool

    /// The faults of the family's own simulator that are on and can reach a flow of `kind`, in words, for the log's
    /// `faults on` as the flow starts, after the world's (none by default: the world words its own faults).
    func ownFaultsOn(for kind: FlowKind) -> [String]

    /// Called once, when the service is made: where a family starts observing its SDK's servers into the log of
    /// the running flow (``FlowService/runningFlow``).
    func attach(to service: FlowService)

    /// The faults a person can switch while the program runs, in the faults panel's order (none by default).
    var faultSwitches: [FaultSwitch] { get }

    /// The switches (of any family) this family's settings hold on for the session (none by default).
    var heldFaults: [HeldFault] { get }

    /// What a status line says of this family's state (the device), or nil.
    var statusLine: String? { get }

    /// Reads again what the family keeps between runs (the device, in the state file another process may have
    /// changed), so that ``statusLine`` says what is stored. Called only while no flow runs.
    func reloadStoredState()
}

extension FlowFamily {
    public static var menuKinds: [FlowKind] { kinds }
    public func details(of kind: FlowKind) -> [any FlowResultDetail] { [] }
    public func advice(for kind: FlowKind, status: String, error: FlowError?, step: FlowStep?) -> String? { nil }
    public func cancelAdvice(for kind: FlowKind, step: FlowStep?) -> String? { nil }
    public func interruptedAdvice(for kind: FlowKind, step: FlowStep?) -> String? { cancelAdvice(for: kind, step: step) }
    public static func faultKeys(reaching kind: FlowKind) -> [String] { SimulatedWorld.identityFaultKeys }
    public static func isChangedBySettings(_ kind: FlowKind) -> Bool { true }
    public func ownFaultsOn(for kind: FlowKind) -> [String] { [] }
    public func attach(to service: FlowService) {}
    public var faultSwitches: [FaultSwitch] { [] }
    public var heldFaults: [HeldFault] { [] }
    public var statusLine: String? { nil }
    public func reloadStoredState() {}
}
