import FlowEngine

/// The statuses of a payment's result, after the delegate callback that ended it (docs/payer-authentication.md).
public enum PaymentStatus {
    /// `onPayerAuthenticationFrictionless`: Y or A without a challenge.
    public static let frictionless = "FRICTIONLESS"
    /// `onPayerAuthenticationSuccess`: the challenge ended Y.
    public static let authenticated = "AUTHENTICATED"
    /// `onPayerAuthenticationFailure`: the challenge ended N or U (but not by a cancel).
    public static let authenticationFailed = "AUTHENTICATION_FAILED"
    /// `onPayerAuthenticationUnavailable`: N, R or U before any challenge.
    public static let authenticationUnavailable = "AUTHENTICATION_UNAVAILABLE"
    /// `onSafepayError`: a bad configuration, the bridge, or the directory server refused the AReq.
    public static let safepayError = "SAFEPAY_ERROR"
}

/// What a payment ended in: the callback that fired and the 3-D Secure values it carried.
public struct PaymentOutcome: FlowResultDetail, Equatable, Encodable {
    /// The delegate method, e.g. `onPayerAuthenticationSuccess`; nil when the payment stopped before any.
    public let callback: String?
    public let transStatus: String?
    public let transStatusReason: String?
    public let eci: String?
    public let challengeCancel: String?
    /// The card as screens show it (`•••• 2503`), and its brand.
    public let card: String?
    public let brand: String?
    /// e.g. "EUR 49.99".
    public let amount: String?
    public let merchant: String?

    public init(callback: String?, transStatus: String?, transStatusReason: String?, eci: String?, challengeCancel: String?,
                card: String?, brand: String?, amount: String?, merchant: String?) {
        self.callback = callback
        self.transStatus = transStatus
        self.transStatusReason = transStatusReason
        self.eci = eci
        self.challengeCancel = challengeCancel
        self.card = card
        self.brand = brand
        self.amount = amount
        self.merchant = merchant
    }

    public func encode(to container: inout KeyedEncodingContainer<FlowResult.Key>) throws {
        try container.encode(self, forKey: .init("payment"))
    }
}

extension FlowResult {
    /// For a payment: the 3-D Secure outcome and the delegate callback that reported it.
    public var payment: PaymentOutcome? {
        get { detail(PaymentOutcome.self) }
        set { if let newValue { set(newValue) } else { details.removeAll { $0 is PaymentOutcome } } }
    }
}
