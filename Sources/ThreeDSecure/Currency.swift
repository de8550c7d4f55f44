/// A currency as the AReq carries it: ISO 4217's numeric code (`purchaseCurrency`) and minor-unit exponent
/// (`purchaseExponent`). idp-tui's amounts have two decimals, so it knows the currencies whose exponent is 2.
public struct Currency: Sendable, Equatable {
    /// The alphabetic code, as forms and screens show it: `EUR`.
    public let code: String
    /// The numeric code, as the AReq's `purchaseCurrency`: `978`.
    public let numeric: String
    public let exponent: Int

    /// The currency with this alphabetic code (upper case), if idp-tui knows it.
    public init?(code: String) {
        guard let numeric = Self.numericCodes[code] else { return nil }
        self.code = code
        self.numeric = numeric
        exponent = 2
    }

    /// ISO 4217's numeric codes of common currencies with two decimals.
    private static let numericCodes: [String: String] = [
        "EUR": "978", "USD": "840", "GBP": "826", "CHF": "756", "SEK": "752", "NOK": "578", "DKK": "208", "PLN": "985",
        "CZK": "203", "HUF": "348", "RON": "946", "CAD": "124", "AUD": "036", "NZD": "554", "SGD": "702",
        "HKD": "344", "CNY": "156", "INR": "356", "BRL": "986", "MXN": "484", "ZAR": "710", "TRY": "949", "ILS": "376",
        "AED": "784", "SAR": "682", "THB": "764", "MYR": "458", "PHP": "608",
    ]
}
