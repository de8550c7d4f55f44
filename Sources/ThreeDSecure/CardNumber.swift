import Foundation

/// A primary account number: digits only, of the brand's length, passing the Luhn check. It prints masked
/// (`•••• 2701`): logs and screens show the last four digits only.
/// A card number (PAN): checked when made, and redacting: printing it, `debugPrint`, `dump` and string
/// interpolation all show `•••• 2503`. Only ``digits`` gives the number, for the issuer's and the ACS's lookups.
public struct CardNumber: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let digits: String
    public let brand: CardBrand

    /// Why a card number is not accepted.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        case notDigits
        case unknownBrand
        /// A network the simulation knows but does not run (Elo, JCB).
        case brandNotSimulated(String)
        case wrongLength(brand: CardBrand, expected: [Int])
        case failsLuhnCheck

        /// `16`, `13, 16 or 19`, `16 to 19`.
        static func lengths(_ lengths: [Int]) -> String {
            guard let first = lengths.first, let last = lengths.last, lengths.count > 1 else { return lengths.first.map(String.init) ?? "" }
            if lengths.count > 2, lengths == Array(first...last) { return "\(first) to \(last)" }
            return lengths.dropLast().map(String.init).joined(separator: ", ") + " or \(last)"
        }

        public var description: String {
            switch self {
            case .empty: "type the card number"
            case .notDigits: "the card number must be digits (spaces or dashes may separate them)"
            case .unknownBrand:
                // Every brand the simulation runs, from the list that detects them: "Visa, … or Discover".
                "the card number is not a \(CardBrand.allCases.dropLast().map(\.rawValue).joined(separator: ", ")) or \(CardBrand.allCases.last!.rawValue) number"
            case .brandNotSimulated(let network):
                "\("AEIOU".contains(network.prefix(1)) ? "an" : "a") \(network) card: idp-tui's issuer runs \(CardBrand.allCases.dropLast().map(\.rawValue).joined(separator: ", ")) and \(CardBrand.allCases.last!.rawValue) cards only"
            case .wrongLength(let brand, let expected):
                "\("AEIOU".contains(brand.rawValue.prefix(1)) ? "an" : "a") \(brand.rawValue) card number has \(Self.lengths(expected)) digits"
            case .failsLuhnCheck: "the card number fails the Luhn check; check for a mistyped digit"
            }
        }
    }

    /// Accepts digits with spaces or dashes between them.
    public init(_ text: String) throws(Problem) {
        let digits = text.filter { $0 != " " && $0 != "-" }
        guard !digits.isEmpty else { throw .empty }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .notDigits }
        if let network = CardBrand.notSimulated(digits) { throw .brandNotSimulated(network) }
        guard let brand = CardBrand.detect(digits) else { throw .unknownBrand }
        guard brand.panLengths.contains(digits.count) else { throw .wrongLength(brand: brand, expected: brand.panLengths) }
        guard Self.passesLuhn(digits) else { throw .failsLuhnCheck }
        self.digits = digits
        self.brand = brand
    }

    /// Cardinal's Test Case 1 Visa card: frictionless and authenticated (a test checks that it passes ``init(_:)``).
    public static let frictionlessTestCard = CardNumber(digits: "4000000000002701", brand: .visa)

    private init(digits: String, brand: CardBrand) {
        self.digits = digits
        self.brand = brand
    }

    /// The Luhn (mod 10) check digit test.
    public static func passesLuhn(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            guard var digit = character.wholeNumberValue else { return false }
            if index % 2 == 1 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return sum % 10 == 0
    }

    public var lastFour: String { String(digits.suffix(4)) }
    public var description: String { "•••• \(lastFour)" }
    public var debugDescription: String { "CardNumber(\(brand.rawValue) •••• \(lastFour))" }
    public var customMirror: Mirror { Mirror(self, children: ["brand": brand, "lastFour": lastFour]) }
}

/// `localizedDescription` is ``description``, which never holds the number (app code gets it from
/// `ScriptedCardholder`'s initializers).
extension CardNumber.Problem: LocalizedError {
    public var errorDescription: String? { description }
}
