import FlowEngine
import SafepayDropsSDK
import ThreeDSecure

/// The statuses of a payment's result, after the delegate callback that ended it (docs/payer-authentication.md).
public enum PaymentStatus {
    /// `onPayerAuthenticationFrictionless`: Y or A without a challenge.
    public static let frictionless = "FRICTIONLESS"
    /// `onPayerAuthenticationSuccess`: the challenge ended Y.
    public static let authenticated = "AUTHENTICATED"
    /// `onPayerAuthenticationFailure` after a challenge that ended N, or `onPayerAuthenticationUnavailable` for N
    /// or R before any challenge: the issuer did not authenticate the cardholder.
    public static let authenticationFailed = "AUTHENTICATION_FAILED"
    /// U, or no ARes at all (Enrolled U or B), before or after a challenge, or a challenge the 3DS SDK could not finish
    /// (no final transStatus): authentication could not be performed.
    public static let authenticationUnavailable = "AUTHENTICATION_UNAVAILABLE"
    /// `onSafepayError`: a bad configuration, the bridge, or the directory server refused the AReq.
    public static let safepayError = "SAFEPAY_ERROR"
}

/// What the merchant should do with a payment's outcome, after the card networks' rules and Cardinal's guidance
/// for each of its test cases (docs/payer-authentication.md, "What to do next").
public enum NextAction: String, Sendable, Equatable, Encodable, CaseIterable {
    /// Y or A: authorise, adding the authentication value and ECI; the liability shifts to the issuer.
    case proceedWithLiabilityShift = "proceed-with-liability-shift"
    /// U, Enrolled U or B, or an error on authentication: authorising is allowed, but the merchant keeps the
    /// liability (ECI 07, or 00 on Mastercard).
    case proceedWithoutLiabilityShift = "proceed-without-liability-shift"
    /// The exchange stopped short (a cancel, a timeout, the bridge, a step-up the issuer could not run): start
    /// 3-D Secure again, or authorise without liability shift.
    case retry
    /// N or R: the issuer refused; do not send the payment for authorisation, ask for another payment method.
    case doNotAuthorise = "do-not-authorise"

    /// The advice in words, for the result screen and the result line.
    public var advice: String {
        switch self {
        case .proceedWithLiabilityShift: "Authorise with the CAVV, ECI, dsTransID and messageVersion; the issuer carries liability."
        case .proceedWithoutLiabilityShift: "May authorise, without liability shift: the risk stays yours."
        case .retry: "Run 3-D Secure again, or authorise without liability shift."
        case .doNotAuthorise: "Do not authorise; ask for another payment method."
        }
    }
}

/// What a payment ended in: the callback that fired, the 3-D Secure values it carried (``ThreeDSecureOutcome``:
/// the EMV fields a 3DS Server and a merchant read, and Cardinal's lookup values, read through as
/// `payment.transStatus` …), what to do next, and the payment as screens show it.
@dynamicMemberLookup
public struct PaymentOutcome: FlowResultDetail, Equatable, Encodable {
    /// The delegate method, e.g. `onPayerAuthenticationSuccess`; nil when the payment stopped before any.
    public let callback: String?
    public let threeDSecure: ThreeDSecureOutcome?
    public let nextAction: NextAction?
    /// The card as screens show it (`•••• 2503`), and its brand.
    public let card: String?
    public let brand: String?
    /// e.g. "EUR 49.99".
    public let amount: String?
    public let merchant: String?

    public init(callback: String?, threeDSecure: ThreeDSecureOutcome?, nextAction: NextAction?, card: String?, brand: String?,
                amount: String?, merchant: String?) {
        self.callback = callback
        self.threeDSecure = threeDSecure
        self.nextAction = nextAction
        self.card = card
        self.brand = brand
        self.amount = amount
        self.merchant = merchant
    }

    /// ``nextAction``'s advice, for this outcome: a retry after an N (the cardholder cancelled the challenge, or it
    /// timed out: challengeCancel 01, 04, 05) does not offer to authorise without liability shift, which an
    /// N rules out, and which the screen said under "transStatus N … the transaction is denied".
    /// A retry before the card was taken (the Drops page never got ready) has nothing to authorise: it says so,
    /// rather than offer to authorise a card nobody typed.
    public var advice: String? {
        guard let nextAction else { return nil }
        if nextAction == .retry, card == nil { return Self.retryBeforeTheCard }
        if nextAction == .retry, threeDSecure?.transStatus == "N" || isUnfinishedChallenge { return Self.retryWithoutAuthorising }
        // A lookup that failed on an error (Cardinal's case 7: the directory server's Erro 101) is Cardinal's to put
        // right: its merchant action says so (the advice read as case 6's, the card merely not enrolled).
        if nextAction == .proceedWithoutLiabilityShift, threeDSecure?.errorDetail == LookupOutcome.errorDetail {
            return nextAction.advice + " The lookup failed on an error: contact your support representative to resolve it."
        }
        if nextAction == .proceedWithLiabilityShift, authenticationValueName != "CAVV" {
            return nextAction.advice.replacingOccurrences(of: "the CAVV", with: "the \(authenticationValueName)")
        }
        return nextAction.advice
    }

    /// What the card's network calls its authentication value: Mastercard's is the AAV (sent in UCAF), Visa's and
    /// the others' the CAVV.
    public var authenticationValueName: String {
        brand.flatMap(CardBrand.init(rawValue:)) == .mastercard ? "AAV" : "CAVV"
    }

    /// A challenge that ended on the device with no final transStatus (the 3DS SDK could not reach the ACS): the ACS
    /// ends it N by its own timer, as the merchant's 3DS Server will hear.
    private var isUnfinishedChallenge: Bool {
        threeDSecure.map { $0.acsTransID != nil && $0.transStatus == nil && $0.challengeCancel == nil } ?? false
    }

    static let retryBeforeTheCard = "Run 3-D Secure again: no card was taken, so there is nothing to authorise yet."

    /// A retry's advice where authorising without liability shift is ruled out: after an N, or the cardholder's cancel.
    static let retryWithoutAuthorising = "Run 3-D Secure again, or ask for another payment method."

    public subscript<Value>(dynamicMember field: KeyPath<ThreeDSecureOutcome, Value?>) -> Value? {
        threeDSecure?[keyPath: field]
    }

    private enum CodingKeys: String, CodingKey {
        case callback, nextAction, card, brand, amount, merchant
    }

    /// One flat object: the payment's own fields and the 3-D Secure values beside them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(callback, forKey: .callback)
        try container.encodeIfPresent(nextAction, forKey: .nextAction)
        try container.encodeIfPresent(card, forKey: .card)
        try container.encodeIfPresent(brand, forKey: .brand)
        try container.encodeIfPresent(amount, forKey: .amount)
        try container.encodeIfPresent(merchant, forKey: .merchant)
        try threeDSecure?.encode(to: encoder)
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

/// How a payment ended, as the flow waits for it: a final delegate callback, or the card form closed.
enum PaymentEnd: Sendable {
    case frictionless(PayerAuthenticationData)
    case success(PayerAuthenticationSuccessData)
    case failure(PayerAuthenticationErrorData)
    case unavailable(PayerAuthenticationData)
    case safepayError(SafepayErrorData)
    case formClosed
    case formTimedOut
}
