import FlowService
import Foundation
import Secrets

/// The answers of a `payer-auth` flow: the card form's fields, and how to answer each kind of challenge.
///
/// ```json
/// {"card": "4000000000002503", "expiry": "12/30", "amount": "49.99", "otp": "1234"}
/// ```
public struct PaymentAnswers: Sendable {
    public var card: String?
    public var expiry: String?
    public var amount: String?
    public var currency: String?
    public var merchant: String?
    /// One-time codes: one string answers every text screen; an array answers one screen each, in order.
    public var otp: [Secret] = []
    public var otpRepeats = false
    /// How many new codes to ask for before entering one.
    public var resend = 0
    /// The options to choose on a select screen, by 1-based number or by their text.
    public var choices: [Choice] = []
    /// Out-of-band: approve (true) or refuse (false) on the other device, then continue.
    public var approve: Bool?
    /// Cancel at the first challenge screen (`"cancel": "challenge"`).
    public var cancelChallenge = false
    /// How long the cardholder takes over the card form, in real time: long enough, and a bridge fault
    /// (lost acks, resends) shows before the payment goes on.
    public var delay: Duration = .zero

    public enum Choice: Sendable, Equatable {
        case number(Int)
        case text(String)
    }

    public init() {}

    public static let keys = ["card", "expiry", "amount", "currency", "merchant", "otp", "resend", "choices", "approve", "cancel", "delay", "faults"]

    static func parseObject(_ element: Any, at place: String) throws(UsageError) -> FlowAnswers {
        guard let object = element as? [String: Any] else { throw UsageError("\(place) must be an object") }
        var answers = FlowAnswers()
        var payment = PaymentAnswers()
        for key in object.keys.sorted() {
            let value = object[key]
            func text(_ limit: Int = 64) throws(UsageError) -> String {
                guard let text = value as? String else { throw UsageError("\(place).\(key) must be a string") }
                guard text.utf8.count <= limit else { throw UsageError("\(place).\(key) is longer than \(limit) bytes") }
                guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
                    throw UsageError("\(place).\(key) contains a control character")
                }
                return text
            }
            switch key {
            case "card": payment.card = try text()
            case "expiry": payment.expiry = try text()
            case "amount": payment.amount = try text()
            case "currency": payment.currency = try text()
            case "merchant": payment.merchant = try text()
            case "otp":
                if value is String {
                    payment.otp = [Secret(try text(16))]
                    payment.otpRepeats = true
                } else if let codes = value as? [Any], !codes.isEmpty, codes.count <= 16 {
                    for (index, code) in codes.enumerated() {
                        guard let code = code as? String, code.utf8.count <= 16, !code.isEmpty,
                            !code.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f })
                        else { throw UsageError("\(place).otp[\(index)] must be a code of 1 to 16 characters") }
                        payment.otp.append(Secret(code))
                    }
                } else {
                    throw UsageError("\(place).otp must be a string, or an array of 1 to 16 strings (one per challenge screen)")
                }
            case "resend":
                guard let count = value as? Int, !FlowAnswers.isBoolean(value), (0...10).contains(count) else {
                    throw UsageError("\(place).resend must be a whole number from 0 to 10")
                }
                payment.resend = count
            case "choices":
                guard let list = value as? [Any], !list.isEmpty, list.count <= 16 else {
                    throw UsageError("\(place).choices must be an array of 1 to 16 option numbers (from 1) or option texts")
                }
                for (index, item) in list.enumerated() {
                    if let number = item as? Int, !FlowAnswers.isBoolean(item), number >= 1 {
                        payment.choices.append(.number(number))
                    } else if let option = item as? String, !option.isEmpty, option.utf8.count <= 64 {
                        payment.choices.append(.text(option))
                    } else {
                        throw UsageError("\(place).choices[\(index)] must be an option number from 1 or an option's text")
                    }
                }
            case "faults":
                answers.faults = try FlowAnswers.parseFaults(value, at: place)
            case "delay":
                guard let seconds = value as? Double, !FlowAnswers.isBoolean(value), (0...60).contains(seconds) else {
                    throw UsageError("\(place).delay must be a number of seconds from 0 to 60")
                }
                payment.delay = .milliseconds(Int64(seconds * 1000))
            case "approve":
                guard let flag = value as? Bool, FlowAnswers.isBoolean(value) else {
                    throw UsageError("\(place).approve must be true or false")
                }
                payment.approve = flag
            case "cancel":
                if let flag = value as? Bool, FlowAnswers.isBoolean(value) {
                    answers.cancel = flag
                } else if value as? String == "challenge" {
                    payment.cancelChallenge = true
                } else {
                    throw UsageError("\(place).cancel must be true (cancel at the card form) or \"challenge\" (cancel on the challenge)")
                }
            default:
                throw UsageError("\(place) (payer-auth) has unknown key \"\(FlowAnswers.printable(key))\"; known keys: \(keys.joined(separator: ", "))")
            }
        }
        answers.payment = payment
        return answers
    }
}
