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
        // Safepay's own market (a payments tester's plan started with rupees), and its neighbours'.
        "PKR": "586", "BDT": "050", "LKR": "144", "EGP": "818", "NGN": "566", "KES": "404", "QAR": "634", "IDR": "360",
    ]

    /// ISO 4217's currencies with no minor unit or three decimals, which idp-tui's two-decimal amounts cannot carry:
    /// a form says why it refuses them.
    public static let otherExponents: [String: Int] = [
        "JPY": 0, "KRW": 0, "VND": 0, "CLP": 0, "ISK": 0, "UGX": 0, "XOF": 0, "XAF": 0,
        "KWD": 3, "BHD": 3, "OMR": 3, "JOD": 3, "TND": 3, "IQD": 3, "LYD": 3,
    ]

    /// Every currency idp-tui takes, in alphabetical order.
    public static var codes: [String] { numericCodes.keys.sorted() }
}
