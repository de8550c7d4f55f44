import FlowEngine
import LegacyFlows

/// The KSSIDP app's answers: it collects every field before it calls the wrapper, so they are checked before
/// anything runs.
final class LegacyAnswering: FamilyAnswering {
    static let kinds = LegacyFamily.kinds
    static let keys: [(key: String, flows: [FlowKind])] = kinds.flatMap { kind in keys(of: LegacyFamily.credentialFields(for: kind), for: [kind]) }
    static let asker: String? = "the KSSIDP app collects before it calls the wrapper"

    init(service: FlowService) {}

    /// Every field, unless the device is insecure: StartEvent then fails before the app asks.
    func check(_ run: AnswerPlan, at position: Int, _ stage: AnswerCheck) throws(UsageError) {
        guard stage == .fields, !run.answers[position].faults(over: run.baseFaults).identity.insecureDevice else { return }
        try require(LegacyFamily.credentialFields(for: run.flows[position]), run, at: position)
    }
}

extension LegacyFamily: AnsweredFamily {
    static var answering: any FamilyAnswering.Type { LegacyAnswering.self }
}
