import FlowEngine
import JSONText

/// Which flows take each answers key, from every family's answer decoding (``AnswerFamilies``). A key another flow
/// takes is refused by its name (one of these, never a value), so that `"autoLogin"` given to `login`, or a card
/// given to `activate`, is not ignored in silence.
enum AnswerKeys {
    /// Every key a flow may take, with the flows that take it (nil: every flow), in the order known keys are listed:
    /// the families' in their order, a key that several take where the first lists it, then `cancel` and `faults`.
    static let table: [(key: String, flows: [FlowKind]?)] = {
        var merged: [(key: String, flows: [FlowKind]?)] = []
        for family in AnswerFamilies.all {
            for (key, flows) in family.keys {
                if let index = merged.firstIndex(where: { $0.key == key }) {
                    let known = merged[index].flows ?? []
                    merged[index].flows = known + flows.filter { !known.contains($0) }
                } else {
                    merged.append((key, flows))
                }
            }
        }
        return merged + [("cancel", nil), ("faults", nil)]
    }()

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
        return UsageError("\(place) (\(kind.rawValue)) has \"\(key)\", which \(takers(flows)) (\(value.position))")
    }

    /// `only payer-auth takes`, `activate, login and q2-login take`.
    static func takers(_ flows: [FlowKind]) -> String {
        let names = flows.map(\.rawValue)
        return names.count == 1 ? "only \(names[0]) takes" : "\(names.dropLast().joined(separator: ", ")) and \(names.last ?? "") take"
    }
}
