import FlowRecords
import FlowService
import Foundation
import IdentityProvider
import JSONText
import DropsWeb
import SafepayDropsSDK
import Scenario
import Secrets

/// The answers for one flow: credential values by key, or the card and challenge answers of a payment; or a
/// cancel at the first prompt (or, for a payment, at the first challenge screen).
public struct FlowAnswers: Sendable {
    public var values: [String: Secret]
    public var cancel: Bool
    /// Q2: sign in with the saved credential when the module allows auto-login.
    public var autoLogin = false
    public var payment: PaymentAnswers
    /// Faults switched on for this flow only (`"faults": {…}`, as in a scenario file).
    public var faults: (identity: IdentityFaults, bridge: BridgeFaults)?

    public init(values: [String: Secret] = [:], cancel: Bool = false, payment: PaymentAnswers = PaymentAnswers()) {
        self.values = values
        self.cancel = cancel
        self.payment = payment
    }

    /// The `faults` member of an answers object.
    static func parseFaults(_ value: Any?, at place: String) throws(UsageError) -> (IdentityFaults, BridgeFaults) {
        guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]),
            let node = try? JSONParser.parse(Array(data))
        else { throw UsageError("\(place).faults must be an object") }
        switch ScenarioFile.faults(node, at: "\(place).faults") {
        case .success(let faults): return faults
        case .failure(let failure):
            let problem = failure.problems.first.map { "\($0.path): \($0.message)" } ?? "\(place).faults is not valid"
            throw UsageError(problem.replacingOccurrences(of: "known keys here", with: "known keys"))
        }
    }

    /// The keys an answers object may hold.
    public static let credentialKeys = ["username", "password", "activation-code", "new-password", "current-password"]
    public static let maximumLength = 256
    /// The largest answers document read.
    public static let maximumDocumentSize = 1 << 20

    /// Parses the answers document: one object for one flow, or an array with one object per flow.
    /// Errors name the place at fault and never the value.
    public static func parse(_ bytes: [UInt8], flows: [FlowKind]) throws(UsageError) -> [FlowAnswers] {
        let flowCount = flows.count
        guard bytes.count <= maximumDocumentSize else {
            throw UsageError("answers: larger than \(maximumDocumentSize / 1024) KiB")
        }
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            throw UsageError("answers are not valid JSON: \(describe(error, in: bytes))")
        }
        let objects: [Any]
        switch document {
        case let array as [Any]:
            objects = array
            guard objects.count == flowCount else {
                throw UsageError("answers: \(objects.count) \(objects.count == 1 ? "object" : "objects") for \(flowCount) \(flowCount == 1 ? "flow" : "flows"); give one object per flow, in order")
            }
        case is [String: Any]:
            guard flowCount == 1 else {
                throw UsageError("answers: one object for \(flowCount) flows; give an array with one object per flow, in order")
            }
            objects = [document]
        default:
            throw UsageError("answers must be a JSON object, or an array with one object per flow")
        }
        var parsed: [FlowAnswers] = []
        for (index, element) in objects.enumerated() {
            let place = flowCount == 1 && !(document is [Any]) ? "answers" : "answers[\(index)]"
            parsed.append(flows[index] == .payerAuth
                ? try PaymentAnswers.parseObject(element, at: place)
                : try parseObject(element, at: place))
        }
        return parsed
    }

    private static func parseObject(_ element: Any, at place: String) throws(UsageError) -> FlowAnswers {
        guard let object = element as? [String: Any] else { throw UsageError("\(place) must be an object") }
        var answers = FlowAnswers()
        for key in object.keys.sorted() {
            let value = object[key]
            if key == "faults" {
                answers.faults = try parseFaults(value, at: place)
                continue
            }
            if key == "cancel" || key == "autoLogin" {
                guard let flag = value as? Bool, isBoolean(value) else {
                    throw UsageError("\(place).\(key) must be true or false")
                }
                if key == "cancel" { answers.cancel = flag } else { answers.autoLogin = flag }
                continue
            }
            guard credentialKeys.contains(key) else {
                throw UsageError("\(place) has unknown key \"\(printable(key))\"; known keys: \((credentialKeys + ["cancel", "autoLogin", "faults"]).joined(separator: ", "))")
            }
            guard let text = value as? String else { throw UsageError("\(place).\(key) must be a string") }
            guard text.utf8.count <= maximumLength else {
                throw UsageError("\(place).\(key) is longer than \(maximumLength) bytes")
            }
            guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
                throw UsageError("\(place).\(key) contains a control character")
            }
            answers.values[key] = Secret(text)
        }
        return answers
    }

    /// NSNumber bridges booleans and numbers (`1 as? Bool` succeeds); only a JSON true or false counts.
    static func isBoolean(_ value: Any?) -> Bool {
        guard let value else { return false }
        return type(of: value) == booleanType
    }

    private static let booleanType: Any.Type = type(of: NSNumber(value: true))

    /// A key as it may be shown: truncated and without control characters.
    static func printable(_ key: String) -> String {
        let cleaned = String(key.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0) })
        return cleaned.count > 40 ? String(cleaned.prefix(40)) + "…" : cleaned
    }

    /// JSONSerialization reports a character offset; users want a line and a column.
    private static func describe(_ error: any Error, in bytes: [UInt8]) -> String {
        let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        guard let range = text.range(of: #"around character (\d+)"#, options: .regularExpression),
            let offset = Int(text[range].split(separator: " ").last ?? "")
        else { return text.lowercasedFirst }
        let before = bytes.prefix(offset)
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return text.replacingCharacters(in: range, with: "at line \(line), column \(column)").lowercasedFirst
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}

extension String {
    fileprivate var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
