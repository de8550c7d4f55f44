import DropsWeb
import Foundation
import Scenario
import Secrets
import ThreeDSecure
import Threading

/// What the person at the Drops page does, for app code that runs a payment with no one to type: the card
/// they enter and how they answer a challenge. Set it on ``SimulatedWorld/cardholder`` before `configure`.
///
/// ```swift
/// SimulatedWorld.current.cardholder = try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCode: "1234")
/// ```
///
/// The one-time code is kept as a secret: it prints redacted. Without one, the cardholder types the scenario's (1234
/// unless the world's scenario sets its own `challenge.oneTimeCode`); `oneTimeCodes:` types several in turn, one
/// per code screen, the last again on any screen after:
///
/// ```swift
/// SimulatedWorld.current.cardholder = try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCodes: ["9999", "1234"])
/// ```
public struct ScriptedCardholder: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The card entered on the form (a test card of the scenario: docs/payer-authentication.md).
    public let cardNumber: String
    public let expiryMonth: Int
    public let expiryYear: Int
    /// The order the merchant's tracker stands for.
    public let amountMinorUnits: Int
    public let currency: String
    public let merchantName: String
    private let card: CardNumber
    /// Typed in turn, one per code screen; the last again on any after. Nil: the scenario's code, of the world the
    /// payment runs in.
    private let oneTimeCodes: [Secret]?
    /// Single- and multi-select challenges: the options chosen, 1-based.
    public let choices: [Int]
    /// Out-of-band challenges: whether the cardholder approves on the other device.
    public let approvesOutOfBand: Bool
    /// Cancels the challenge instead of answering it (challengeCancel 01).
    public let cancelsChallenge: Bool

    /// Why a cardholder could not be made: its one-time code is one no challenge screen takes (empty, longer
    /// than ``ChallengePolicy/codeMaximumBytes``, a control character). The code itself is never in it.
    public struct InvalidOneTimeCode: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `oneTimeCode`: nil types the scenario's code, that of the world the payment runs in (a literal 1234 failed
    /// every challenge of a scenario with its own code).
    /// - Throws: when `cardNumber` is not a card number (wrong length, brand or Luhn check digit), or
    ///   ``InvalidOneTimeCode`` when `oneTimeCode` is one no challenge screen takes.
    public init(
        cardNumber: String, expiryMonth: Int = 12, expiryYear: Int = 2030, oneTimeCode: String? = nil, choices: [Int] = [1],
        approvesOutOfBand: Bool = true, cancelsChallenge: Bool = false, amountMinorUnits: Int = 4999, currency: String = "EUR",
        merchantName: String = "Demo Shop"
    ) throws {
        // The card first, as the form reads it.
        let card = try CardNumber(cardNumber)
        let codes = try oneTimeCode.map { try Self.checked([$0], "oneTimeCode") }
        self.init(card: card, expiryMonth: expiryMonth, expiryYear: expiryYear, oneTimeCodes: codes,
                  choices: choices, approvesOutOfBand: approvesOutOfBand, cancelsChallenge: cancelsChallenge,
                  amountMinorUnits: amountMinorUnits, currency: currency, merchantName: merchantName)
    }

    /// A cardholder who types `oneTimeCodes` in turn, one per code screen (a wrong code, then the right one), as the
    /// answers' `"otp": ["9999", "1234"]` does, and the last again on any screen after (where the answers' array,
    /// run out, is refused).
    /// - Throws: as the other initializer, and ``InvalidOneTimeCode`` when `oneTimeCodes` is empty.
    public init(
        cardNumber: String, expiryMonth: Int = 12, expiryYear: Int = 2030, oneTimeCodes: [String], choices: [Int] = [1],
        approvesOutOfBand: Bool = true, cancelsChallenge: Bool = false, amountMinorUnits: Int = 4999, currency: String = "EUR",
        merchantName: String = "Demo Shop"
    ) throws {
        let card = try CardNumber(cardNumber)
        self.init(card: card, expiryMonth: expiryMonth, expiryYear: expiryYear, oneTimeCodes: try Self.checked(oneTimeCodes, "oneTimeCodes"),
                  choices: choices, approvesOutOfBand: approvesOutOfBand, cancelsChallenge: cancelsChallenge,
                  amountMinorUnits: amountMinorUnits, currency: currency, merchantName: merchantName)
    }

    /// The codes as secrets, or the first problem one has (never the code itself).
    private static func checked(_ codes: [String], _ name: String) throws -> [Secret] {
        guard !codes.isEmpty else { throw InvalidOneTimeCode(description: "\(name) is empty: give at least one code") }
        for (index, code) in codes.enumerated() {
            if let problem = ChallengePolicy.codeProblem(code) {
                throw InvalidOneTimeCode(description: codes.count == 1 && name == "oneTimeCode" ? "\(name) \(problem)" : "\(name)[\(index)] \(problem)")
            }
        }
        return codes.map { Secret($0) }
    }

    /// Cardinal's Test Case 1 Visa card: frictionless, authenticated.
    public init() {
        self.init(card: .frictionlessTestCard)
    }

    /// A world's cardholder until the app sets its own: the scenario's first card that passes frictionless (Y),
    /// else its first card, else Cardinal's Test Case 1 Visa card; and the scenario's own one-time code.
    package init(defaultFor scenario: Scenario) {
        let frictionless = scenario.cards.first { card in
            if case .frictionless(.authenticated, _) = card.scenario { true } else { false }
        } ?? scenario.cards.first
        let card = frictionless.flatMap { try? CardNumber($0.number) } ?? .frictionlessTestCard
        self.init(card: card)
    }

    private init(
        card: CardNumber, expiryMonth: Int = 12, expiryYear: Int = 2030, oneTimeCodes: [Secret]? = nil, choices: [Int] = [1],
        approvesOutOfBand: Bool = true, cancelsChallenge: Bool = false, amountMinorUnits: Int = 4999, currency: String = "EUR",
        merchantName: String = "Demo Shop"
    ) {
        self.card = card
        cardNumber = card.digits
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear
        self.oneTimeCodes = oneTimeCodes
        self.choices = choices
        self.approvesOutOfBand = approvesOutOfBand
        self.cancelsChallenge = cancelsChallenge
        self.amountMinorUnits = amountMinorUnits
        self.currency = currency
        self.merchantName = merchantName
    }

    public var description: String {
        "ScriptedCardholder(card: \(card), expiry: \(expiryMonth)/\(expiryYear), oneTimeCode: <redacted>)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["card": card.description, "expiry": "\(expiryMonth)/\(expiryYear)", "oneTimeCode": "<redacted>"])
    }

    /// The page's side: the form and each challenge screen answered as scripted.
    package func makeDropsCardholder(in world: SimulatedWorld) -> any DropsCardholder {
        Scripted(script: self, codes: oneTimeCodes ?? [world.scenario.challengePolicy.oneTimeCode])
    }

    private final class Scripted: DropsCardholder {
        let script: ScriptedCardholder
        let codes: [Secret]
        /// The code screens answered so far.
        private let codesTyped = Locked(0)

        init(script: ScriptedCardholder, codes: [Secret]) {
            self.script = script
            self.codes = codes
        }

        func enterPaymentDetails() async -> PaymentDetails? {
            PaymentDetails(
                card: script.card, expiryMonth: script.expiryMonth, expiryYear: script.expiryYear,
                amountMinorUnits: script.amountMinorUnits, currency: script.currency, merchantName: script.merchantName)
        }

        func respond(to screen: ChallengeScreen) async -> CardholderAction {
            if script.cancelsChallenge { return .answer(.cancel) }
            switch screen.uiType {
            case .text:
                let index = codesTyped.withLock { typed in defer { typed += 1 }; return min(typed, codes.count - 1) }
                return .answer(.code(codes[index]))
            // A choice below 1 is option "0", out of range, which the ACS refuses as any other (`Int.min - 1` trapped).
            case .singleSelect, .multiSelect: return .answer(.select(Set(script.choices.map { $0 > 0 ? $0 - 1 : -1 })))
            case .outOfBand: return .decideOnOtherDevice(approve: script.approvesOutOfBand)
            case .htmlOther: return .answer(.unsupportedInterface)
            }
        }
    }
}

/// `localizedDescription` is ``description``, which never holds the code.
extension ScriptedCardholder.InvalidOneTimeCode: LocalizedError {
    public var errorDescription: String? { description }
}
