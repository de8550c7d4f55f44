import DropsWeb
import FlowCatalog
import FlowEngine
import IdentityProvider
import JSONText

/// A flow family's part of `run`, its answer decoding: the answers keys its flows take, how it reads what is its
/// own in an answers object, what it checks before anything runs, how it answers its own kinds of prompt, and what
/// it notes when a flow ends. The runner knows a family only through this; its family names it (``AnsweredFamily``).
protocol FamilyAnswering: AnyObject {
    /// The flows it answers for.
    static var kinds: [FlowKind] { get }
    /// Its answers keys, credential fields included, each with the flows of this family that take it, in the order
    /// errors and `run --help` list them. `cancel` and `faults` are every flow's, and not listed.
    static var keys: [(key: String, flows: [FlowKind])] { get }
    /// Who asks for a form's fields when the flow fixes them ("the Q2 sign-in screen asks for"); nil, the default,
    /// when the scenario's IdP decides.
    static var asker: String? { get }
    /// Who asked for `prompt`'s fields, for an answer that lacks one: ``asker`` by default; the IdP's form names its
    /// page.
    static func asker(of prompt: FlowPrompt) -> String?

    /// Its command-line options, in the order `--help` lists them: each sets its settings in
    /// ``CommandLineOptions/settings`` (or keeps a value for ``finish(_:from:for:)``). None by default.
    static var options: [OptionSpec] { get }
    /// Finishes its settings once the command line is whole and a command is to run flows: reads what its options
    /// named (a certificate chain's file). Nothing by default.
    static func finish(_ configuration: inout FlowConfiguration, from options: CommandLineOptions, for command: Command) throws(UsageError)

    /// Reads an answers object of `kind` whole; nil, the default: the common reading (the credential keys of
    /// ``keys``, `cancel`, `faults`), with ``read(_:_:into:at:)`` for the rest of its keys.
    static func parseObject(_ node: JSONNode, at place: String, for kind: FlowKind) throws(UsageError) -> FlowAnswers?
    /// Reads a key of its own that is not a credential field (Q2's `autoLogin`) in the common reading; false: not one.
    static func read(_ key: String, _ value: JSONNode, into answers: inout FlowAnswers, at place: String) throws(UsageError) -> Bool

    init(service: FlowService)

    /// Refuses, before anything runs, the answers for the flow at `position` that cannot do, at `stage`: what they
    /// ask for that cannot happen (an auto-login), a field its form always asks for and they lack, an answer to a
    /// challenge that will come and that they lack. Every flow is checked at one stage before any at the next.
    func check(_ run: AnswerPlan, at position: Int, _ stage: AnswerCheck) throws(UsageError)
    /// A flow of this family starts: what it remembers of the last one is forgotten.
    func flowStarts()
    /// How long the answers take before cancelling `prompt` (the card form's `delay`); zero by default.
    func delayBeforeCancelling(_ prompt: FlowPrompt, _ given: FlowAnswers) -> Duration
    /// Answers `prompt` when it is a kind of prompt of its own; false, the default, for a credential form, which the
    /// runner answers from the answers' values.
    func answer(_ prompt: FlowPrompt, _ given: FlowAnswers, through runner: HeadlessRunner) -> Bool
    /// Lines for standard error after a flow of its family ended (whether it asked anything or not): answers it
    /// never used.
    func notes(on result: FlowResult, _ given: FlowAnswers) -> [String]
}

extension FamilyAnswering {
    static var asker: String? { nil }
    static func asker(of prompt: FlowPrompt) -> String? { asker }
    static var options: [OptionSpec] { [] }
    static func finish(_ configuration: inout FlowConfiguration, from options: CommandLineOptions, for command: Command) throws(UsageError) {}
    static func parseObject(_ node: JSONNode, at place: String, for kind: FlowKind) throws(UsageError) -> FlowAnswers? { nil }
    static func read(_ key: String, _ value: JSONNode, into answers: inout FlowAnswers, at place: String) throws(UsageError) -> Bool {
        false
    }
    func check(_ run: AnswerPlan, at position: Int, _ stage: AnswerCheck) throws(UsageError) {}
    func flowStarts() {}
    func delayBeforeCancelling(_ prompt: FlowPrompt, _ given: FlowAnswers) -> Duration { .zero }
    func answer(_ prompt: FlowPrompt, _ given: FlowAnswers, through runner: HeadlessRunner) -> Bool { false }
    func notes(on result: FlowResult, _ given: FlowAnswers) -> [String] { [] }

    /// The credential keys of `fields`, taken by `kinds`.
    static func keys(of fields: [CredentialField], for kinds: [FlowKind]) -> [(key: String, flows: [FlowKind])] {
        fields.map { ($0.key, kinds) }
    }

    /// Refuses answers for the flow at `position` that lack one of `fields`, which its form always asks for.
    func require(_ fields: [CredentialField], _ run: AnswerPlan, at position: Int) throws(UsageError) {
        let given = run.answers[position]
        if let missing = fields.first(where: { given.values[$0.key] == nil }) {
            throw FlowAnswers.missing(missing, run.flows[position], asker: Self.asker, at: run.place(position), given)
        }
    }
}

/// The stages of the check before anything runs, in order: what cannot happen whatever the earlier flows do, then
/// the fields a form always asks for, then what the flow's data (a card) needs.
enum AnswerCheck: CaseIterable {
    case requests, fields, data
}

/// What a run is asked to do, as a family checks its answers before anything runs.
struct AnswerPlan {
    let flows: [FlowKind]
    let answers: [FlowAnswers]
    /// The faults of the scenario and the command line, which every flow starts from.
    let baseFaults: (identity: IdentityFaults, bridge: BridgeFaults)

    /// `answers[2]`, or `answers` for a run of one flow: where an error points.
    func place(_ position: Int) -> String { flows.count == 1 ? "answers" : "answers[\(position)]" }
}

/// A family whose flows `run` answers: its answer decoding, declared in its ``FamilyAnswering``'s file
/// (`extension PaymentFamily: AnsweredFamily`), so that ``FlowCatalog``'s registration stays the one list of
/// families. A family that does not conform takes no answers keys.
protocol AnsweredFamily: FlowFamily {
    static var answering: any FamilyAnswering.Type { get }
}

/// Every family's answer decoding, in the catalog's order.
enum AnswerFamilies {
    static var all: [any FamilyAnswering.Type] {
        FlowCatalog.familyTypes.compactMap { type in (type as? any AnsweredFamily.Type)?.answering }
    }

    /// The answering of `kind`'s family.
    static func type(of kind: FlowKind) -> (any FamilyAnswering.Type)? { all.first { $0.kinds.contains(kind) } }

    /// The flows the bridge's and 3-D Secure's faults reach (``FlowFamily/faultKeys(reaching:)``), which alone take
    /// them in their answers (`faults.bridge`, `faults.threeDS`).
    static var bridgeFaultKinds: [FlowKind] { FlowCatalog.kinds(reachedByAnyOf: BridgeFaults.Fault.keys) }
}
