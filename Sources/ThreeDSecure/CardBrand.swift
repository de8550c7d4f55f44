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
        // Elo's ranges come before Visa's 4 and Discover's 65: Cardinal's Elo test card 6505290000002000 read as
        // Discover, and Elo's 4389 35… as Visa.
        if notSimulated(digits) != nil { return nil }
        if digits.hasPrefix("4") { return .visa }
        if (51...55).contains(prefix2) || (2221...2720).contains(prefix4) { return .mastercard }
        if prefix2 == 34 || prefix2 == 37 { return .amex }
        if digits.hasPrefix("6011") || digits.hasPrefix("65") || (644...649).contains(Int(digits.prefix(3)) ?? 0) { return .discover }
        return nil
    }

    /// The network of a card number the simulation knows but does not run: Elo (its 4…, 50…, 509…, 636…, 627… and
    /// 65… ranges) and JCB (3528–3589, and the 308…–3349 ranges
    /// Cardinal's JCB test cards use, such as 3338000000000296). Cardinal lists test cards for both; idp-tui's
    /// issuer has Visa, Mastercard, American Express and Discover.
    public static func notSimulated(_ digits: String) -> String? {
        let prefix4 = Int(digits.prefix(4)) ?? 0
        let prefix6 = Int(digits.prefix(6)) ?? 0
        let elo: [ClosedRange<Int>] = [
            401178...401179, 431274...431274, 438935...438935, 451416...451416, 457393...457393, 457631...457632, 504175...504175, 506699...506778, 509000...509999, 627780...627780, 636297...636297, 636368...636368,
            650031...650033, 650035...650051, 650405...650439, 650485...650538, 650541...650598, 650700...650718,
            650720...650727, 650901...650978, 651652...651679, 655000...655019, 655021...655058,
        ]
        if elo.contains(where: { $0.contains(prefix6) }) { return "Elo" }
        let jcb: [ClosedRange<Int>] = [3528...3589, 3088...3094, 3096...3102, 3112...3120, 3158...3159, 3337...3349]
        if jcb.contains(where: { $0.contains(prefix4) }) { return "JCB" }
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

    /// The usual length of the brand's numbers, which every test card has: 15 digits on American Express, 16 on
    /// the others. A form counts the digits typed towards it.
    public var panLength: Int { self == .amex ? 15 : 16 }

    /// Every length the brand issues (ISO/IEC 7812 as the networks use it): Visa 13, 16 and 19, Discover 16 to 19
    /// (a tester's real 19-digit Visa was refused, "a Visa card number has 16 digits").
    public var panLengths: [Int] {
        switch self {
        case .visa: [13, 16, 19]
        case .mastercard: [16]
        case .amex: [15]
        case .discover: [16, 17, 18, 19]
        }
    }
}
