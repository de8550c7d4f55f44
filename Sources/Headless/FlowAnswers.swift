import DropsWeb
import FlowEngine
import FlowRecords
import IdentityProvider
import JSONText
import SafepayDropsSDK
import Scenario
import Secrets

/// ` (line 1, column 2)`: where a value of the answers was written, for an error about it; nothing for answers
/// built in code.
func placed(_ position: TextPosition) -> String {
    position == .unplaced ? "" : " (\(position))"
}

/// The answers for one flow: credential values by key, or the card and challenge answers of a payment; or a
/// cancel at the first prompt (or, for a payment, at the first challenge screen).
public struct FlowAnswers: Sendable {
    public var values: [String: Secret]
    public var cancel: Bool
    /// What the flow's family reads beyond credential values (``FamilyAnswering``): a payment's card and challenge
    /// answers, Q2's `autoLogin`.
    var own: (any Sendable)?
    /// The `faults` object for this flow only (as in a scenario file), checked when the answers were read: each key
    /// given sets its fault for this flow (`true` or a number switches it on, `false`, 0 or, for a server fault, null off), over the
    /// faults of the run (the scenario's and the command line's); a key left out keeps the run's.
    public var faultsGiven: JSONNode?
    /// Where the object starts in the answers, for an error about what it lacks.
    public var position = TextPosition.unplaced

    /// ` (line 1, column 2)`: where the object starts, for an error about what it lacks.
    var at: String { placed(position) }

    public init(values: [String: Secret] = [:], cancel: Bool = false) {
        self.values = values
        self.cancel = cancel
    }

    /// What the family read of its own, when it is a `T`.
    func own<T>(_ type: T.Type) -> T? { own as? T }

    /// The faults this flow runs with: the run's, with the answer's `faults` set over them.
    public func faults(over run: (identity: IdentityFaults, bridge: BridgeFaults)) -> (identity: IdentityFaults, bridge: BridgeFaults) {
        guard let faultsGiven, case .success(let faults) = ScenarioFile.faults(faultsGiven, at: "faults", over: run) else { return run }
        return faults
    }

    /// The `faults` member of an answers object, checked as a scenario's `faults` are; kept to be applied over the
    /// run's faults when the flow starts.
    static func parseFaults(_ node: JSONNode, at place: String) throws(UsageError) -> JSONNode {
        switch ScenarioFile.faults(node, at: "\(place).faults") {
        case .success: return node
        case .failure(let failure):
            let problem = failure.inFileOrder.first.map { "\($0.path): \($0.message)\($0.position.map { " (\($0))" } ?? "")" }
                ?? "\(place).faults is not valid"
            throw UsageError(problem.replacingOccurrences(of: "known keys here", with: "known keys"))
        }
    }

    /// The keys an answers object of `kind` may hold, in the order errors list them.
    public static func keys(for kind: FlowKind) -> [String] { AnswerKeys.keys(for: kind) }

    public static let maximumLength = 256
    /// The largest answers document read.
    public static let maximumDocumentSize = 1 << 20

    /// Parses the answers document: one object for one flow, or an array with one object per flow, read by the
    /// position-keeping parser (duplicate keys are refused). Every error names the place at fault and its line
    /// and column, and never a value, nor a key that is not a known one.
    public static func parse(_ bytes: [UInt8], flows: [FlowKind]) throws(UsageError) -> [FlowAnswers] {
        let flowCount = flows.count
        guard bytes.count <= maximumDocumentSize else {
            throw UsageError("answers: larger than \(maximumDocumentSize / 1024) KiB")
        }
        guard !isBlank(bytes) else {
            throw UsageError("answers: the input is empty (give one answers object for each flow, as JSON, on standard input or with --answers FILE)")
        }
        let document: JSONNode
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            // Objects one a line (JSON Lines, as the output is) are one document here: said how to give them.
            let lines = error.message == "unexpected text after the JSON value" && Self.holdsObjectsOneALine(bytes)
                ? "; several answers objects go in one array, one object per flow (JSON Lines: wrap them with jq -s .)" : ""
            throw UsageError(error.isNumberOutOfRange ? "answers: \(error.description)" : "answers are not valid JSON: \(error.description)\(lines)")
        }
        let objects: [JSONNode]
        let single: Bool
        switch document.value {
        case .array(let items):
            objects = items
            single = false
            guard objects.count == flowCount else {
                throw UsageError("answers: \(objects.count) \(objects.count == 1 ? "object" : "objects") for \(flowCount) \(flowCount == 1 ? "flow" : "flows"); give one object per flow, in order (\(document.position))")
            }
        case .object:
            guard flowCount == 1 else {
                throw UsageError("answers: one object for \(flowCount) flows; give an array with one object per flow, in order (\(document.position)); objects one a line are not read one a flow: wrap them with jq -s .")
            }
            objects = [document]
            single = true
        default:
            throw UsageError("answers must be a JSON object, or an array with one object per flow (\(document.position))")
        }
        var parsed: [FlowAnswers] = []
        for (index, element) in objects.enumerated() {
            let place = single ? "answers" : "answers[\(index)]"
            let family = AnswerFamilies.type(of: flows[index])
            if let own = try family?.parseObject(element, at: place, for: flows[index]) {
                parsed.append(own)
            } else {
                parsed.append(try parseObject(element, at: place, for: flows[index], family))
            }
        }
        return parsed
    }

    /// Whether the text is objects one after another (`{…}` then `{`, whitespace between): JSON Lines, not junk
    /// after one object.
    static func holdsObjectsOneALine(_ bytes: [UInt8]) -> Bool {
        let blank: (UInt8) -> Bool = { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard bytes.first(where: { !blank($0) && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) == UInt8(ascii: "{") else { return false }
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "}") {
            if bytes[(index + 1)...].first(where: { !blank($0) }) == UInt8(ascii: "{") { return true }
        }
        return false
    }

    /// Whether the document holds nothing but JSON whitespace, after a byte order mark if it starts with one (an
    /// editor's empty file: it was "not valid JSON: the text ends where a value should be").
    static func isBlank(_ bytes: [UInt8]) -> Bool {
        !bytes.dropFirst(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0).contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) })
    }

    /// The common reading: the credential keys `kind` takes, `cancel`, `faults`, and the rest of its family's keys.
    private static func parseObject(
        _ node: JSONNode, at place: String, for kind: FlowKind, _ family: (any FamilyAnswering.Type)?
    ) throws(UsageError) -> FlowAnswers {
        guard let members = node.members else { throw UsageError("\(place) must be an object (\(node.position))") }
        var answers = FlowAnswers()
        answers.position = node.position
        for (key, value) in members {
            let at = " (\(value.position))"
            if let foreign = AnswerKeys.foreign(key, for: kind, at: place, before: value) { throw foreign }
            if key == "faults" {
                // The bridge's and 3-D Secure's faults bite a payment only: in another flow's answers they would
                // be switched on and do nothing.
                if !AnswerFamilies.bridgeFaultKinds.contains(kind), let (inner, node) = value.members?.first(where: { $0.key == "bridge" || $0.key == "threeDS" }) {
                    throw UsageError("\(place) (\(kind.rawValue)) has \"faults.\(inner)\", which \(AnswerKeys.takers(AnswerFamilies.bridgeFaultKinds)) (\(node.position))")
                }
                answers.faultsGiven = try parseFaults(value, at: place)
                continue
            }
            if key == "cancel" {
                guard let flag = value.bool else { throw UsageError("\(place).\(key) must be true or false\(at)") }
                answers.cancel = flag
                continue
            }
            if try family?.read(key, value, into: &answers, at: place) == true { continue }
            guard AnswerKeys.keys(for: kind).contains(key) else {
                throw unknownKey(key, in: place, before: value, known: AnswerKeys.keys(for: kind))
            }
            answers.values[key] = Secret(try text(value, at: "\(place).\(key)", limit: maximumLength))
        }
        return answers
    }

    static func missing(_ field: CredentialField, _ kind: FlowKind, asker: String?, at place: String, _ given: FlowAnswers) -> UsageError {
        UsageError("\(place) (\(kind.rawValue)) has no \"\(field.key)\", which \(asker ?? "the flow asks for")\(given.at)")
    }

    /// A string answer: a string, of at most `limit` bytes, with no control character (C0, DEL or C1), as a
    /// scenario's strings and secrets hold none. A bidirectional control is taken (a QA tester may try one on the
    /// IdP), and shown escaped wherever the text is printed. `other` names what else the key takes, for the
    /// message when it is not a string (" or a number").
    static func text(_ node: JSONNode, at place: String, limit: Int, or other: String = "") throws(UsageError) -> String {
        guard let text = node.string else { throw UsageError("\(place) must be a string\(other) (\(node.position))") }
        guard text.utf8.count <= limit else { throw UsageError("\(place) is longer than \(limit) bytes (\(node.position))") }
        guard !text.unicodeScalars.contains(where: \.isControlCharacter) else {
            throw UsageError("\(place) contains a control character (\(node.position))")
        }
        return text
    }

    /// A key that is not one of `known`: named by where its value starts, never by itself (a password typed in
    /// the wrong place must not be printed); the known key it was likely meant to be, if one is close.
    static func unknownKey(_ key: String, in place: String, before value: JSONNode, known: [String]) -> UsageError {
        UsageError("\(place) has a key it does not know, before the value at \(value.position)\(KeySuggestion.hint(for: key, among: known)); known keys: \(known.joined(separator: ", "))")
    }
}
