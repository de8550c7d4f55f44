import DropsWeb
import Foundation
import JSONText

/// Where the Drops page comes from: the hosts Safepay's React Native and web SDKs use. Nothing is fetched from
/// them; the simulated page stands in.
public enum SafepayEnvironment: String, Sendable, CaseIterable, Codable {
    case local, development, sandbox, production

    /// The base of the Drops page; its origin is the only one the bridge accepts messages from.
    public var baseURL: String {
        switch self {
        case .local: "http://localhost:3000"
        case .development: "https://dev.api.getsafepay.com/drops"
        case .sandbox: "https://sandbox.api.getsafepay.com/drops"
        case .production: "https://getsafepay.com/drops"
        }
    }

    /// The page the view loads: `<base>/authlink?parentOrigin=<origin>`, the origin Drops' own (the page posts to
    /// it and the host takes messages from it alone), encoded as JavaScript's `encodeURIComponent` does, as Safepay's
    /// React Native host builds it (`https%3A%2F%2Fsandbox.api.getsafepay.com`). It was `app://idp-tui`, unescaped.
    public var pageURL: String {
        let origin = SafepayPayerAuthenticationView.origin(of: baseURL)
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
        let encoded = origin.addingPercentEncoding(withAllowedCharacters: unreserved) ?? origin
        return "\(baseURL)/authlink?parentOrigin=\(encoded)"
    }
}

public struct BillingAddress: Sendable, Equatable {
    public var street1: String
    public var street2: String?
    public var city: String
    public var state: String?
    public var postalCode: String?
    public var country: String

    public init(street1: String, street2: String? = nil, city: String, state: String? = nil, postalCode: String? = nil,
                country: String) {
        self.street1 = street1
        self.street2 = street2
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
    }
}

public struct AuthorizationOptions: Sendable, Equatable {
    public var doCapture: Bool
    public var doCardOnFile: Bool

    public init(doCapture: Bool, doCardOnFile: Bool) {
        self.doCapture = doCapture
        self.doCardOnFile = doCardOnFile
    }
}

/// Prints with `authToken` and `deviceDataCollectionJWT` redacted: they are the merchant's credentials.
public struct SafepayPayerAuthenticationConfiguration: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public var environment: SafepayEnvironment
    public var authToken: String
    public var tracker: String
    public var deviceDataCollectionJWT: String
    public var deviceDataCollectionURL: String
    public var billing: BillingAddress?
    public var authorizationOptions: AuthorizationOptions

    public init(
        environment: SafepayEnvironment, authToken: String, tracker: String, deviceDataCollectionJWT: String,
        deviceDataCollectionURL: String, billing: BillingAddress? = nil, authorizationOptions: AuthorizationOptions
    ) {
        self.environment = environment
        self.authToken = authToken
        self.tracker = tracker
        self.deviceDataCollectionJWT = deviceDataCollectionJWT
        self.deviceDataCollectionURL = deviceDataCollectionURL
        self.billing = billing
        self.authorizationOptions = authorizationOptions
    }

    public var description: String {
        "SafepayPayerAuthenticationConfiguration(environment: \(environment), authToken: <redacted>, tracker: \(tracker), "
            + "deviceDataCollectionJWT: <redacted>, deviceDataCollectionURL: \(shownURL), billing: \(billing.map { "\($0)" } ?? "nil"), "
            + "authorizationOptions: \(authorizationOptions))"
    }

    public var debugDescription: String { description }

    private var shownURL: String { urlForLogs(deviceDataCollectionURL) }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "environment": environment, "authToken": "<redacted>", "tracker": tracker, "deviceDataCollectionJWT": "<redacted>",
            "deviceDataCollectionURL": shownURL, "billing": billing as Any, "authorizationOptions": authorizationOptions,
        ])
    }

    /// What is wrong with the configuration, in plain words, or nil.
    public var problem: String? {
        if authToken.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "authToken is empty" }
        if tracker.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "tracker is empty" }
        if deviceDataCollectionJWT.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "deviceDataCollectionJWT is empty" }
        // The URL is not echoed: it may carry the JWT in its query, and the message reaches `onSafepayError`,
        // which apps log.
        guard let url = URL(string: deviceDataCollectionURL) else { return "deviceDataCollectionURL is not a URL" }
        guard let scheme = url.scheme, ["https", "http"].contains(scheme) else {
            return "deviceDataCollectionURL is not an http(s) URL" + (url.scheme.map { " (its scheme is \"\($0.prefix(16))\")" } ?? "")
        }
        guard url.host?.isEmpty == false else { return "deviceDataCollectionURL has no host" }
        return nil
    }

    /// The properties that are the merchant's credentials: printed and logged as `<redacted>`.
    static let credentialKeys = ["authToken", "deviceDataCollectionJWT"]

    /// The `properties` of the `safepay-property-update` message.
    var properties: [String: JSONValue] {
        var properties: [String: JSONValue] = [
            "environment": .string(environment.rawValue), "authToken": .string(authToken), "tracker": .string(tracker),
            "deviceDataCollectionJWT": .string(deviceDataCollectionJWT), "deviceDataCollectionURL": .string(deviceDataCollectionURL),
            "authorizationOptions": .object([
                "do_capture": .bool(authorizationOptions.doCapture), "do_card_on_file": .bool(authorizationOptions.doCardOnFile),
            ]),
        ]
        if let billing {
            let fields: [String: String?] = [
                "street_1": billing.street1, "street_2": billing.street2, "city": billing.city, "state": billing.state,
                "postal_code": billing.postalCode, "country": billing.country,
            ]
            properties["billing"] = .object(fields.compactMapValues { $0.map(JSONValue.string) })
        }
        return properties
    }
}

/// `{tracker, request_id, payment_method?, authorization?}`, plus the 3-D Secure outcome (idp-tui's addition).
public struct PayerAuthenticationSuccessData: Sendable, Equatable {
    public let tracker: String
    public let requestId: String
    public let paymentMethod: String?
    public let authorization: String?
    public let threeDSecure: ThreeDSecureOutcome?

    /// Public so that an app's tests can hand its delegate a result, as the SDK would.
    public init(tracker: String, requestId: String, paymentMethod: String? = nil, authorization: String? = nil,
                threeDSecure: ThreeDSecureOutcome? = nil) {
        self.tracker = tracker
        self.requestId = requestId
        self.paymentMethod = paymentMethod
        self.authorization = authorization
        self.threeDSecure = threeDSecure
    }
}

/// `{tracker, request_id, error}` (Drops sends a null `request_id` when 3-D Secure fails), plus the 3-D Secure
/// outcome (idp-tui's addition).
public struct PayerAuthenticationErrorData: Sendable, Equatable {
    public let tracker: String
    public let requestId: String?
    public let error: String
    public let threeDSecure: ThreeDSecureOutcome?

    /// Public so that an app's tests can hand its delegate a result, as the SDK would.
    public init(tracker: String, requestId: String?, error: String, threeDSecure: ThreeDSecureOutcome? = nil) {
        self.tracker = tracker
        self.requestId = requestId
        self.error = error
        self.threeDSecure = threeDSecure
    }
}

/// `{tracker, request_id?, errorMessage?}`, plus the 3-D Secure outcome (idp-tui's addition).
public struct PayerAuthenticationData: Sendable, Equatable {
    public let tracker: String
    public let requestId: String?
    public let errorMessage: String?
    public let threeDSecure: ThreeDSecureOutcome?

    /// Public so that an app's tests can hand its delegate a result, as the SDK would.
    public init(tracker: String, requestId: String?, errorMessage: String? = nil, threeDSecure: ThreeDSecureOutcome? = nil) {
        self.tracker = tracker
        self.requestId = requestId
        self.errorMessage = errorMessage
        self.threeDSecure = threeDSecure
    }
}

/// `{error: {message, status, type}}`: `type` is the API's error class when the page sends one (`SafepayAPIError`,
/// as Safepay's React Native README shows it); nil for the SDK's own errors (a page that never got ready).
public struct SafepayErrorData: Sendable, Equatable {
    public struct Detail: Sendable, Equatable {
        public let message: String
        public let status: Int?
        public let type: String?

        public init(message: String, status: Int?, type: String? = nil) {
            self.message = message
            self.status = status
            self.type = type
        }
    }

    public let error: Detail

    public init(message: String, status: Int?, type: String? = nil) {
        error = Detail(message: message, status: status, type: type)
    }
}

/// What the 3-D Secure exchange ended in, for screens and result lines: the EMV fields a 3DS Server and a
/// merchant read, under their EMV names, and Cardinal's lookup values. The authentication value is shortened
/// (its first 8 characters). Coded as the page's `three_ds` object and the result line's `payment` write it.
public struct ThreeDSecureOutcome: Sendable, Equatable, Codable {
    /// Nil when no ARes came (Enrolled U or B).
    public let transStatus: String?
    public let transStatusReason: String?
    public let eci: String?
    public let challengeCancel: String?
    /// Cardinal's `Enrolled`: Y (an ARes came), U (unavailable at lookup), B (bypassed).
    public var enrolled: String?
    public var messageVersion: String?
    public var threeDSServerTransID: String?
    public var dsTransID: String?
    public var acsTransID: String?
    public var authenticationValue: String?
    public var acsChallengeMandated: String?
    public var threeDSCompInd: String?
    public var interactionCounter: Int?
    public var signatureVerification: String?
    /// The Erro message's code, component (C, S, D, A), description and detail, when one ended the exchange: the
    /// description is the code's own (EMV 3DS table A.4), the detail what the component adds (Cardinal's error
    /// number on a failed lookup).
    public var errorCode: String?
    public var errorComponent: String?
    public var errorDescription: String?
    public var errorDetail: String?

    public init(transStatus: String?, transStatusReason: String?, eci: String?, challengeCancel: String?) {
        self.transStatus = transStatus
        self.transStatusReason = transStatusReason
        self.eci = eci
        self.challengeCancel = challengeCancel
    }
}

/// The delegate. Every method has a default that does nothing. Calls arrive on the main actor, as a UIKit view's
/// do (the view hears its web view there), never on the page's threads.
@MainActor
public protocol SafepayPayerAuthenticationDelegate: AnyObject {
    func onPayerAuthenticationSuccess(data: PayerAuthenticationSuccessData)
    func onPayerAuthenticationFailure(data: PayerAuthenticationErrorData)
    func onPayerAuthenticationRequired(data: PayerAuthenticationData)
    func onPayerAuthenticationFrictionless(data: PayerAuthenticationData)
    func onPayerAuthenticationUnavailable(data: PayerAuthenticationData)
    func onSafepayError(error: SafepayErrorData)
}

extension SafepayPayerAuthenticationDelegate {
    public func onPayerAuthenticationSuccess(data: PayerAuthenticationSuccessData) {}
    public func onPayerAuthenticationFailure(data: PayerAuthenticationErrorData) {}
    public func onPayerAuthenticationRequired(data: PayerAuthenticationData) {}
    public func onPayerAuthenticationFrictionless(data: PayerAuthenticationData) {}
    public func onPayerAuthenticationUnavailable(data: PayerAuthenticationData) {}
    public func onSafepayError(error: SafepayErrorData) {}
}

extension ThreeDSecureOutcome: CustomDebugStringConvertible {
    /// The fields that are present, as a print of the payload shows them: `ThreeDSecureOutcome(transStatus: "Y", …)`.
    public var debugDescription: String {
        let fields = Mirror(reflecting: self).children.compactMap { child -> String? in
            guard let label = child.label else { return nil }
            switch child.value {
            case let text as String?: return text.map { "\(label): \"\($0)\"" }
            case let number as Int?: return number.map { "\(label): \($0)" }
            default: return nil
            }
        }
        return "ThreeDSecureOutcome(\(fields.joined(separator: ", ")))"
    }
}

extension PropertyUpdateMessage {
    /// A `safepay-property-update` as the event log shows it whole: the merchant's credentials (`authToken`,
    /// `deviceDataCollectionJWT`) redacted, as the configuration prints them, and the collection URL without its
    /// query (it may carry the JWT). Nil when `json` is no property update.
    static func forLogs(_ json: String) -> String? {
        guard let message = BridgeJSON.decode(PropertyUpdateMessage.self, from: json) else { return nil }
        var properties = message.properties
        for key in SafepayPayerAuthenticationConfiguration.credentialKeys where properties[key] != nil { properties[key] = .string("<redacted>") }
        if let url = properties["deviceDataCollectionURL"]?.stringValue { properties["deviceDataCollectionURL"] = .string(urlForLogs(url)) }
        return BridgeJSON.encode(PropertyUpdateMessage(properties: properties, messageId: message.messageId))
    }
}
