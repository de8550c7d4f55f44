import FlowEngine
import JSONText
import LegacyFlows
import PaymentFlows
import Q2Flows

/// Which flows take each answers key. A key another flow takes is refused by its name (one of these, never a
/// value), so that `"autoLogin"` given to `login`, or a card given to `activate`, is not ignored in silence.
enum AnswerKeys {
    /// The flows that ask for a username and a password: the IdP's and the Q2 sign-in screen.
    private static let signIns: [FlowKind] = [.activate, .login, .legacyActivate, .legacyLogin, .q2Login]

    /// Every key a flow may take, with the flows that take it, in the order known keys are listed.
    static let table: [(key: String, flows: [FlowKind]?)] = [
        ("username", signIns),
        ("password", signIns),
        // Only activation's second page asks for the code (KnownClient.enrollment; the legacy app collects it up front).
        ("activation-code", [.activate, .legacyActivate]),
        // Fields the IdP's form may name; the IdpSdk asks for whatever its form holds (the legacy app's fields are fixed).
        ("new-password", [.activate, .login]),
        ("current-password", [.activate, .login]),
        ("autoLogin", [.q2Login]),
        // nil: every flow.
        ("cancel", nil),
        ("faults", nil),
    ] + PaymentAnswers.keys.filter { $0 != "cancel" && $0 != "faults" }.map { ($0, [FlowKind.payerAuth]) }

    /// The answers' keys as `run --help` lists them: the keys that the same flows take on one line each.
    static var help: [String] {
        var groups: [(keys: [String], flows: [FlowKind]?)] = []
        for (key, flows) in table {
            if let last = groups.indices.last, groups[last].flows == flows { groups[last].keys.append(key) } else { groups.append(([key], flows)) }
        }
        return ["answers: JSON, one object per flow (an array of them for several flows; {} for logout), with the keys:"]
            + groups.map { "  \($0.keys.joined(separator: " ")) (\($0.flows.map { $0.map(\.rawValue).joined(separator: ", ") } ?? "every flow"))" }
            + ["  e.g. idp-tui run activate --answers answers.json (secrets in a file, never on the command line)"]
    }

    /// The keys `kind` takes, in the table's order.
    static func keys(for kind: FlowKind) -> [String] {
        table.filter { $0.flows?.contains(kind) ?? true }.map(\.key)
    }

    /// The usage error for a key that other flows take but `kind` does not; nil for a key `kind` takes or one no
    /// flow knows (which the caller refuses without naming it).
    static func foreign(_ key: String, for kind: FlowKind, at place: String, before value: JSONNode) -> UsageError? {
        guard let entry = table.first(where: { $0.key == key }), let flows = entry.flows, !flows.contains(kind) else { return nil }
        let names = flows.map(\.rawValue)
        let takers = names.count == 1 ? "only \(names[0]) takes" : "\(names.dropLast().joined(separator: ", ")) and \(names.last ?? "") take"
        return UsageError("\(place) (\(kind.rawValue)) has \"\(key)\", which \(takers) (\(value.position))")
    }
}
