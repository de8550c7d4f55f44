/// A card network, as far as 3-D Secure cares: which directory server, and which ECI values.
public enum CardBrand: String, Sendable, CaseIterable, Codable {
    case visa = "Visa"
    case mastercard = "Mastercard"
    case amex = "American Express"
    case discover = "Discover"

    /// The brand of a card number by its leading digits, or nil for a network the simulation does not run.
    public static func detect(_ digits: String) -> CardBrand? {
        let prefix2 = Int(digits.prefix(2)) ?? 0
        let prefix4 = Int(digits.prefix(4)) ?? 0
        if digits.hasPrefix("4") { return .visa }
        if (51...55).contains(prefix2) || (2221...2720).contains(prefix4) { return .mastercard }
        if prefix2 == 34 || prefix2 == 37 { return .amex }
        if digits.hasPrefix("6011") || digits.hasPrefix("65") || (644...649).contains(Int(digits.prefix(3)) ?? 0) { return .discover }
        return nil
    }

    /// The electronic commerce indicator for a final transStatus: Visa, American Express and Discover use 05/06/07,
    /// Mastercard 02/01/00 (fully authenticated / attempted / not authenticated).
    public func eci(for status: TransStatus) -> String {
        switch (self, status) {
        case (.mastercard, .authenticated): "02"
        case (.mastercard, .attempted): "01"
        case (.mastercard, _): "00"
        case (_, .authenticated): "05"
        case (_, .attempted): "06"
        case (_, _): "07"
        }
    }

    /// Card numbers have 15 digits on American Express, 16 on the others here.
    public var panLength: Int { self == .amex ? 15 : 16 }
}
