import DropsWeb
import Foundation
import JSONText
import PaymentFlows
import Secrets
import ThreeDSecure

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
    /// How long the cardholder takes over each challenge screen, in real time: longer than the scenario's
    /// challenge limit (`payments.challenge.timeoutSeconds`), and the ACS ends the challenge (challengeCancel 04).
    public var challengeDelay: Duration = .zero
    /// Where each card-form field was written, so that the form's own checks (Luhn, expiry …) name the place.
    var written: [PaymentField: TextPosition] = [:]
    /// Where the answers object starts, and its `choices`: for an error about what they lack or hold.
    var object = TextPosition.unplaced
    var choicesPosition = TextPosition.unplaced
    /// Where `otp`'s value is: a challenge that asks for more codes than it holds says so there.
    var otpPosition = TextPosition.unplaced
    /// Where each of `choices` was written.
    var choicePositions: [TextPosition] = []

    public enum Choice: Sendable, Equatable {
        case number(Int)
        case text(String)

        /// The same choice written again: the same number, or the same text in any case (as options are matched).
        func sameAs(_ other: Choice) -> Bool {
            switch (self, other) {
            case (.number(let one), .number(let two)): one == two
            case (.text(let one), .text(let two)): one.caseInsensitiveCompare(two) == .orderedSame
            default: false
            }
        }
    }

    public init() {}

    public static let keys = [
        "card", "expiry", "amount", "currency", "merchant", "otp", "resend", "choices", "approve", "cancel", "delay", "challengeDelay",
        "faults",
    ]

    /// A JSON number's text as its value, written out: its exponent applied (`1e2` → `100`, `4.999e1` → `49.99`),
    /// zeros that end its fraction dropped (`12.500` → `12.5`: the same number, which the amount's check refused for
    /// its three decimals while it took `0.001e3`); a number too large or small to write out, as it was written,
    /// for the amount's check to refuse.
    static func writtenOut(_ written: String) -> String {
        // Decimal keeps 38 digits and rounds the rest away: a longer mantissa (4.999…0001e1) stays as written, refused.
        let mantissa = written.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber)
        guard written.contains(where: { $0 == "e" || $0 == "E" || $0 == "." }), mantissa.count <= 30,
            let value = Decimal(string: written, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN
        else { return written }
        return "\(value)"
    }

    static func parseObject(_ node: JSONNode, at place: String) throws(UsageError) -> FlowAnswers {
        guard let members = node.members else { throw UsageError("\(place) must be an object (\(node.position))") }
        var answers = FlowAnswers()
        answers.position = node.position
        var payment = PaymentAnswers()
        payment.object = node.position
        for (key, value) in members {
            let at = " (\(value.position))"
            func text(_ limit: Int = 64, or other: String = "") throws(UsageError) -> String {
                try FlowAnswers.text(value, at: "\(place).\(key)", limit: limit, or: other)
            }
            if let field = PaymentField(rawValue: key) { payment.written[field] = value.position }
            switch key {
            case "card": payment.card = try text()
            case "expiry": payment.expiry = try text()
            // A number as written (49.99) or a string ("49.99"): the amount's own check then reads it. A number
            // written with an exponent (1e2, as some JSON writers put 100) is the same number written out.
            case "amount":
                if case .number(let written, _) = value.value { payment.amount = Self.writtenOut(written) } else { payment.amount = try text(or: " or a number") }
            case "currency": payment.currency = try text()
            case "merchant": payment.merchant = try text()
            case "otp":
                payment.otpPosition = value.position
                // Each code held to the one rule the challenge screen, a scenario and a scripted cardholder keep
                // (an empty code included), said in its words.
                if let code = value.string {
                    if let problem = ChallengePolicy.codeProblem(code) { throw UsageError("\(place).otp \(problem)\(at)") }
                    payment.otp = [Secret(code)]
                    payment.otpRepeats = true
                } else if let codes = value.array, !codes.isEmpty, codes.count <= 16 {
                    for (index, node) in codes.enumerated() {
                        guard let code = node.string else { throw UsageError("\(place).otp[\(index)] must be a string (\(node.position))") }
                        if let problem = ChallengePolicy.codeProblem(code) { throw UsageError("\(place).otp[\(index)] \(problem) (\(node.position))") }
                        payment.otp.append(Secret(code))
                    }
                } else {
                    throw UsageError("\(place).otp must be a string, or an array of 1 to 16 strings (one per challenge screen)\(at)")
                }
            case "resend":
                guard let count = value.integer, (0...10).contains(count) else {
                    // As a scenario's whole numbers say it: `1e0` read "must be a whole number", as if it were not one.
                    throw UsageError("\(place).resend \(value.integerProblem(0...10))\(at)")
                }
                payment.resend = count
            case "choices":
                payment.choicesPosition = value.position
                guard let list = value.array, !list.isEmpty, list.count <= 16 else {
                    throw UsageError("\(place).choices must be an array of 1 to 16 option numbers (from 1) or option texts\(at)")
                }
                for (index, item) in list.enumerated() {
                    payment.choicePositions.append(item.position)
                    let choice: Choice
                    if let number = item.integer, number >= 1 {
                        choice = .number(number)
                    } else if let option = item.string, !option.isEmpty, option.utf8.count <= 64 {
                        choice = .text(option)
                    } else {
                        throw UsageError("\(place).choices[\(index)] must be an option number from 1 or an option's text (\(item.position))")
                    }
                    // Written twice, whatever the card's challenge (a text challenge never reads `choices`).
                    if let first = payment.choices.firstIndex(where: { $0.sameAs(choice) }) {
                        throw UsageError("\(place).choices[\(index)] picks the same option as choices[\(first)]; give each option once (\(item.position))")
                    }
                    payment.choices.append(choice)
                }
            case "faults":
                answers.faultsGiven = try FlowAnswers.parseFaults(value, at: place)
            case "delay":
                guard let seconds = value.number, (0...60).contains(seconds) else {
                    throw UsageError("\(place).delay must be a number of seconds from 0 to 60\(at)")
                }
                payment.delay = .milliseconds(Int64((seconds * 1000).rounded()))
            case "challengeDelay":
                // Past the longest challenge timeout a scenario can set (3600 s), so that its challengeCancel 04 can
                // always be reached.
                guard let seconds = value.number, (0...3700).contains(seconds) else {
                    throw UsageError("\(place).challengeDelay must be a number of seconds from 0 to 3700\(at)")
                }
                payment.challengeDelay = .milliseconds(Int64((seconds * 1000).rounded()))
            case "approve":
                guard let flag = value.bool else { throw UsageError("\(place).approve must be true or false\(at)") }
                payment.approve = flag
            case "cancel":
                if let flag = value.bool {
                    answers.cancel = flag
                } else if value.string == "challenge" {
                    payment.cancelChallenge = true
                } else {
                    throw UsageError("\(place).cancel must be true (cancel at the card form) or \"challenge\" (cancel on the challenge)\(at)")
                }
            default:
                if let foreign = AnswerKeys.foreign(key, for: .payerAuth, at: place, before: value) { throw foreign }
                throw FlowAnswers.unknownKey(key, in: "\(place) (payer-auth)", before: value, known: keys)
            }
        }
        answers.own = payment
        return answers
    }
}

// MARK: Checked before the run

extension PaymentAnswers {
    /// The card form these answers fill in, or the usage error that names the field.
    func cardForm(_ defaults: PaymentDefaults, at place: String) throws(UsageError) -> PaymentDetails {
        guard let card, let expiry else { throw UsageError("\(place) (payer-auth) needs \"card\" and \"expiry\" for the card form\(placed(object))") }
        do {
            return try PaymentForm.details(
                card: card, expiry: expiry, amount: amount ?? defaults.amount, currency: currency ?? defaults.currency,
                merchant: merchant ?? defaults.merchant)
        } catch {
            throw UsageError("\(place).\(error.field.rawValue): \(error.message)\(written[error.field].map { " (\($0))" } ?? "")")
        }
    }

    /// The options `choices` picks on a select screen, by index.
    func chosen(from options: [String], at place: String) throws(UsageError) -> Set<Int> {
        var chosen = Set<Int>()
        var firstPicking: [Int: Int] = [:]
        for (index, choice) in choices.enumerated() {
            let found: Int? = switch choice {
            case .number(let number): number <= options.count ? number - 1 : nil
            case .text(let text): options.firstIndex { $0.caseInsensitiveCompare(text) == .orderedSame }
            }
            guard let found else {
                throw UsageError("\(place).choices: the challenge's options are \(options.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: ", "))\(placed(choicesPosition))")
            }
            // The same option twice (by number or by text) is a mistake, not one choice: [3,3] passed as one.
            if let first = firstPicking[found] {
                let position = index < choicePositions.count ? placed(choicePositions[index]) : ""
                throw UsageError("\(place).choices[\(index)] picks the same option as choices[\(first)]; give each option once\(position)")
            }
            firstPicking[found] = index
            chosen.insert(found)
        }
        return chosen
    }

    /// Finds, before anything runs, what these answers lack for the card they give: the card form's fields,
    /// and the answer its challenge asks for (the issuer's card list says which), so that exit 2 means no flow ran.
    func check(_ defaults: PaymentDefaults, issuer: AccessControlServer, challengeMayCome: Bool, at place: String) throws(UsageError) {
        let details = try cardForm(defaults, at: place)
        guard challengeMayCome, !cancelChallenge, let design = Self.challenge(of: details, issuer: issuer) else { return }
        switch design.uiType {
        case .text:
            if otp.isEmpty { throw Self.noCode(at: place, object) }
        case .singleSelect, .multiSelect:
            guard !choices.isEmpty else { throw Self.noChoices(design.uiType, design.options, at: place, object) }
            let chosen = try chosen(from: design.options, at: place)
            if design.uiType == .singleSelect && chosen.count != 1 {
                throw UsageError("\(place).choices: the single-select challenge takes exactly one choice, not \(chosen.count)\(placed(choicesPosition))")
            }
        case .outOfBand:
            if approve == nil { throw Self.noApproval(at: place, object) }
        case .htmlOther:
            break
        }
    }

    static func noCode(at place: String, _ object: TextPosition) -> UsageError {
        UsageError("\(place) (payer-auth) has no \"otp\", which the one-time-code challenge asks for\(placed(object))")
    }

    static func noChoices(_ type: AcsUiType, _ options: [String], at place: String, _ object: TextPosition) -> UsageError {
        UsageError("\(place) (payer-auth) has no \"choices\", which the \(type.name) challenge asks for (options: \(options.joined(separator: ", ")))\(placed(object))")
    }

    static func noApproval(at place: String, _ object: TextPosition) -> UsageError {
        UsageError("\(place) (payer-auth) has no \"approve\" (true or false), which the out-of-band challenge asks for\(placed(object))")
    }

}

/// How far a payment went through its answers, for the keys it never used.
struct PaymentProgress {
    var codesUsed = 0
    var resendsAsked = 0
    /// The kinds of challenge screen the payment met.
    var screens: Set<AcsUiType> = []
}

extension PaymentAnswers {
    /// The kind of challenge the card's design has, by the issuer's card list; nil for a card that meets none.
    func designedChallenge(_ defaults: PaymentDefaults, issuer: AccessControlServer) -> AcsUiType? {
        (try? cardForm(defaults, at: "")).flatMap { Self.challenge(of: $0, issuer: issuer) }?.uiType
    }

    /// The challenge the issuer's card list gives the card; nil for one that meets none. An expired card is
    /// answered N at lookup: no challenge comes, and none needs answering.
    static func challenge(of details: PaymentDetails, issuer: AccessControlServer) -> ChallengeDesign? {
        guard !issuer.isExpired(month: details.expiryMonth, year: details.expiryYear),
            case .challenge(let design)? = issuer.card(details.card)?.scenario else { return nil }
        return design
    }

    /// The keys a payment that ended without using them was given for a challenge its card never has, for a note
    /// on stderr (keys only): a script that gave a code for a frictionless card may have counted on a challenge.
    /// Answers for the card's own challenge are not noted when a fault or a failure ended the payment before it
    /// (the answers' check asks for them whatever the faults).
    func unused(_ progress: PaymentProgress, designed: AcsUiType?) -> [String] {
        var keys: [String] = []
        if !otp.isEmpty && progress.codesUsed == 0 && designed != .text { keys.append("otp") }
        if resend > 0 && progress.resendsAsked == 0 && designed != .text { keys.append("resend") }
        if !choices.isEmpty && progress.screens.isDisjoint(with: [.singleSelect, .multiSelect]) && designed != .singleSelect
            && designed != .multiSelect { keys.append("choices") }
        if approve != nil && !progress.screens.contains(.outOfBand) && designed != .outOfBand { keys.append("approve") }
        if challengeDelay > .zero && progress.screens.isEmpty && designed == nil { keys.append("challengeDelay") }
        if cancelChallenge && progress.screens.isEmpty && designed == nil { keys.append("cancel") }
        return keys
    }
}
