import DropsWeb
import SafepayDropsSDK
import ThreeDSecure

/// A field of the card form.
public enum PaymentField: String, Sendable, CaseIterable {
    case card, expiry, amount, currency, merchant

    /// The label on screen.
    public var label: String {
        switch self {
        case .card: "Card number"
        case .expiry: "Expiry (MM/YY)"
        case .amount: "Amount"
        case .currency: "Currency"
        case .merchant: "Merchant"
        }
    }
}

/// Why the card form cannot be submitted: the field and what is wrong, in plain words (never the value).
public struct PaymentFormProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: PaymentField
    public let message: String

    public var description: String { "\(field.rawValue): \(message)" }
}

/// Reads the card form's text fields into ``PaymentDetails``: the terminal's form and the headless answers
/// both come here, so they accept and refuse the same input.
public enum PaymentForm {
    public static let maximumMerchantLength = 40
    /// The largest amount, in minor units (9,999,999.99).
    public static let maximumAmount = 999_999_999

    public static func details(card: String, expiry: String, amount: String, currency: String, merchant: String)
        throws(PaymentFormProblem) -> PaymentDetails
    {
        let number = try parseCard(card)
        let (month, year) = try parseExpiry(expiry)
        let minorUnits = try parseAmount(amount)
        let code = try parseCurrency(currency)
        let name = try parseMerchant(merchant)
        return PaymentDetails(card: number, expiryMonth: month, expiryYear: year, amountMinorUnits: minorUnits,
                              currency: code, merchantName: name)
    }

    /// Every field's problem, each field checked on its own, in the form's order: a form marks them all at once
    /// (a tester met them one Pay at a time). ``details(card:expiry:amount:currency:merchant:)`` names the first.
    public static func problems(card: String, expiry: String, amount: String, currency: String, merchant: String) -> [PaymentFormProblem] {
        var found: [PaymentFormProblem] = []
        do { _ = try parseCard(card) } catch { found.append(error) }
        do { _ = try parseExpiry(expiry) } catch { found.append(error) }
        do { _ = try parseAmount(amount) } catch { found.append(error) }
        do { _ = try parseCurrency(currency) } catch { found.append(error) }
        do { _ = try parseMerchant(merchant) } catch { found.append(error) }
        return found
    }

    static func parseCard(_ text: String) throws(PaymentFormProblem) -> CardNumber {
        do {
            return try CardNumber(text)
        } catch {
            throw PaymentFormProblem(field: .card, message: error.description)
        }
    }

    static func parseCurrency(_ text: String) throws(PaymentFormProblem) -> String {
        let code = text.trimmingCharacters(in: .whitespaces).uppercased()
        guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw PaymentFormProblem(field: .currency, message: "give a three-letter ISO 4217 code such as EUR or USD")
        }
        guard Currency(code: code) != nil else {
            // One whose decimals are not two is said so (JPY was refused as unknown).
            if let exponent = Currency.otherExponents[code] {
                throw PaymentFormProblem(field: .currency, message: "\(code) has \(exponent == 0 ? "no decimals" : "\(exponent) decimals"); idp-tui's amounts have two, so it takes EUR, USD, GBP, PKR and other two-decimal currencies")
            }
            throw PaymentFormProblem(field: .currency, message: "not a currency taken here; try EUR, USD, GBP or PKR (docs/payer-authentication.md lists all \(Currency.codes.count))")
        }
        return code
    }

    static func parseMerchant(_ text: String) throws(PaymentFormProblem) -> String {
        let name = text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw PaymentFormProblem(field: .merchant, message: "give the merchant's name") }
        guard name.count <= maximumMerchantLength else {
            throw PaymentFormProblem(field: .merchant, message: "at most \(maximumMerchantLength) characters")
        }
        guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw PaymentFormProblem(field: .merchant, message: "contains a control character")
        }
        return name
    }

    /// `MM/YY` or `MM/YYYY` (or the digits alone, `1230`). A date in the past is accepted: the issuer answers it
    /// (N, reason 05), as a real one would.
    static func parseExpiry(_ text: String) throws(PaymentFormProblem) -> (month: Int, year: Int) {
        let parts = formatExpiry(text.trimmingCharacters(in: .whitespaces)).split(separator: "/", omittingEmptySubsequences: false)
        // A month past 12 is said first, as the form said it while it was typed (Pay on `13` said "write it as
        // MM/YY" after the form had said the month).
        if hasImpossibleMonth(text) { throw PaymentFormProblem(field: .expiry, message: monthProblem) }
        // Digits only (Int takes a sign: 12/-1 was sent as 9912).
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let month = Int(parts[0]), parts[0].count <= 2, let year = Int(parts[1]), parts[1].count == 2 || parts[1].count == 4
        else { throw PaymentFormProblem(field: .expiry, message: "write it as MM/YY, e.g. 12/30") }
        guard (1...12).contains(month) else { throw PaymentFormProblem(field: .expiry, message: monthProblem) }
        // EMV 3-D Secure's cardExpiryDate is YYMM: a four-digit year is one of 2000–2099 (01/2912, typed into a
        // filled field, was taken and sent as 12; 12/0030 as 2030).
        guard parts[1].count == 2 || (2000...2099).contains(year) else {
            throw PaymentFormProblem(field: .expiry, message: "the year must be 2000 to 2099, e.g. 12/30 or 12/2030")
        }
        return (month, parts[1].count == 2 ? 2000 + year : year)
    }

    /// A decimal amount with at most two decimals, e.g. `49.99`, in minor units.
    static func parseAmount(_ text: String) throws(PaymentFormProblem) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("-") { throw PaymentFormProblem(field: .amount, message: "the amount must be above zero") }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        let digitsOnly = parts.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isNumber } }
        // Too many whole digits is too large, not badly written.
        if digitsOnly, parts[0].drop(while: { $0 == "0" }).count > 9 {
            throw PaymentFormProblem(field: .amount, message: "at most 9999999.99")
        }
        guard (1...2).contains(parts.count), digitsOnly, !parts[0].isEmpty,
            parts.count == 1 || (1...2).contains(parts[1].count), let whole = Int(parts[0])
        else { throw PaymentFormProblem(field: .amount, message: "write it as a number with at most two decimals, e.g. 49.99") }
        var cents = 0
        if parts.count == 2, let fraction = Int(parts[1]) { cents = parts[1].count == 1 ? fraction * 10 : fraction }
        let minorUnits = whole * 100 + cents
        guard minorUnits > 0 else { throw PaymentFormProblem(field: .amount, message: "the amount must be above zero") }
        guard minorUnits <= maximumAmount else { throw PaymentFormProblem(field: .amount, message: "at most 9999999.99") }
        return minorUnits
    }

    /// What a form says while a field is typed when it holds a character its value can never have (a letter in an
    /// expiry or an amount, a digit in a currency code), or nil. The card number says so in its own hint, and the
    /// merchant takes any text.
    public static func strayCharacterProblem(_ field: PaymentField, _ text: String) -> String? {
        let fits: (Character) -> Bool
        let message: String
        switch field {
        case .expiry:
            fits = { ($0.isASCII && $0.isNumber) || $0 == "/" || $0 == " " }
            message = "digits only, e.g. 12/30"
        case .amount:
            fits = { ($0.isASCII && $0.isNumber) || $0 == "." || $0 == " " }
            message = "digits and a decimal point only, e.g. 49.99"
        case .currency:
            fits = { ($0.isASCII && $0.isLetter) || $0 == " " }
            message = "letters only, e.g. EUR"
        case .card, .merchant: return nil
        }
        // A minus is no stray character: the amount is below zero, as Pay says of it (the two said two things).
        if field == .amount, text.trimmingCharacters(in: .whitespaces).hasPrefix("-") { return "must be above zero" }
        guard text.allSatisfy(fits) else { return message }
        // A month past 12 (or 00) is said once its two digits are in, not only when Pay is pressed.
        return field == .expiry && hasImpossibleMonth(text) ? monthProblem : nil
    }

    static let monthProblem = "the month must be 01 to 12"

    /// An expiry of digits, spaces and a slash whose month (its two digits before the slash, spaces aside) is no
    /// month: the form says it as it is typed and at Pay alike (`1 3/30` was said as typed, and at Pay "write it as
    /// MM/YY").
    static func hasImpossibleMonth(_ text: String) -> Bool {
        guard text.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "/" || $0 == " " }) else { return false }
        let month = text.prefix { $0 != "/" }.filter { $0 != " " }
        guard month.count == 2, let number = Int(month) else { return false }
        return !(1...12).contains(number)
    }

    /// A card number as a form shows it while it is typed: its digits in groups (4-6-5 on American Express,
    /// 4-4-4-4 otherwise). Text that is not digits and spaces stays as it is, for the check to name.
    public static func formatCardNumber(_ text: String) -> String {
        // A number pasted with dashes (`4000-0000-0000-2503`, as a bank's page prints it) is grouped too.
        let digits = text.filter { $0 != " " && $0 != "-" }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return text }
        let groups = CardBrand.detect(digits) == .amex ? [4, 6, 5] : [4, 4, 4, 4, 4]
        var rest = Substring(digits)
        var parts: [Substring] = []
        for size in groups where !rest.isEmpty {
            parts.append(rest.prefix(size))
            rest = rest.dropFirst(size)
        }
        if !rest.isEmpty { parts.append(rest) }
        return parts.joined(separator: " ")
    }

    /// An expiry as a form shows it while it is typed: `1230` becomes `12/30` once the year begins.
    public static func formatExpiry(_ text: String) -> String {
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), text.count >= 3, text.count <= 6 else { return text }
        return text.prefix(2) + "/" + text.dropFirst(2)
    }

    /// What the form says beside a card number as it is typed: the brand, and whether the number is complete
    /// and passes the Luhn check.
    public static func cardHint(_ text: String) -> (text: String, valid: Bool?) {
        let digits = text.filter { $0 != " " && $0 != "-" }
        guard !digits.isEmpty else { return ("Visa, Mastercard, Amex or Discover", nil) }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return ("digits only", false) }
        // A network idp-tui's issuer does not run says so as it is typed (an Elo 6505… read "Discover").
        if digits.count >= 4, let network = CardBrand.notSimulated(digits) { return ("\(network): not simulated", false) }
        guard let brand = CardBrand.detect(digits) else { return ("unknown brand", digits.count < 2 ? nil : false) }
        // Counted towards the usual length (every test card's), and past it towards the brand's longest (a 19-digit
        // Visa). A shorter or longer length the brand issues (a 13-digit Visa) is complete when it passes the Luhn
        // check, else still being typed: only at the usual and the longest length is a failed check said.
        let lengths = brand.panLengths, longest = lengths.max() ?? brand.panLength
        let count = digits.count
        guard count <= longest else { return ("\(brand.rawValue) · too long", false) }
        let luhn = CardNumber.passesLuhn(digits)
        if lengths.contains(count) && (luhn || count == brand.panLength || count == longest) {
            return luhn ? ("\(brand.rawValue) · Luhn ✓", true) : ("\(brand.rawValue) · fails Luhn", false)
        }
        let next = count < brand.panLength ? brand.panLength : lengths.first { $0 > count } ?? longest
        return ("\(brand.rawValue) · \(count)/\(next)", nil)
    }
}
