/// A step of a flow, by the name of the SDK call, event or message it makes: `Start`, `provideCredentials`,
/// `safepay-property-update`, `AReq`, `onPayerAuthenticationSuccess` …
///
/// A name rather than a closed enum: the payment flow's steps are the bridge's and the 3-D Secure protocol's
/// own message names, and the log shows them as they are.
public struct FlowStep: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { rawValue = name }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    // IdpSdk on the MC-SDK.
    public static let start = FlowStep("Start")
    public static let getAstClientData = FlowStep("GetAstClientData")
    public static let getAuthorizationCode = FlowStep("getAuthorizationCode")
    public static let provideCredentials = FlowStep("provideCredentials")
    public static let setAuthorisationCode = FlowStep("SetAuthorisationCode")
    public static let restart = FlowStep("Restart")
    public static let offlineLogin = FlowStep("OfflineLogin")
    /// The MC-SDK reported a runtime error and restarted itself.
    public static let runtimeError = FlowStep("RuntimeError")
    /// A fault of the simulation bit (network unavailable, server error …).
    public static let fault = FlowStep("fault injected")

    // Safepay Drops payer authentication (the bridge and 3-D Secure steps take their message names).
    /// The app configures the SafepayPayerAuthenticationView.
    public static let configure = FlowStep("configure")
    /// The Drops page's card form.
    public static let paymentDetails = FlowStep("card form")
    /// A challenge screen (CRes) shown to the cardholder.
    public static let challengeScreen = FlowStep("challenge screen")

    // The Q2 authentication module.
    public static let signInScreen = FlowStep("sign-in screen")
    public static let allowLogin = FlowStep("allowLogin")
    public static let authenticate = FlowStep("authenticate(using:)")
    public static let completePlatformAuthentication = FlowStep("completePlatformAuthentication(with:)")

    /// Not a call: the flow was cancelled.
    public static let cancel = FlowStep("cancel")
}

/// Who sends or receives a flow event, as in a sequence diagram.
public enum Participant: String, Sendable, Codable {
    case app = "App"
    case idpSdk = "IdpSdk"
    case masterController = "MC-SDK"
    case identityProvider = "IdP"
    /// The native Safepay Drops SDK: the payer-authentication view and its side of the bridge.
    case safepayDrops = "SafepayDrops"
    /// The Drops web page (in the WKWebView).
    case drops = "Drops"
    /// The 3-D Secure directory server.
    case directoryServer = "DS"
    /// The card issuer's access control server.
    case acs = "ACS"
    /// The cardholder's other device (an out-of-band challenge's banking app).
    case otherDevice = "other device"
    /// The simulation itself, injecting a fault.
    case simulator = "simulator"
    /// The Q2 Mobile SDK's authentication module.
    case q2Module = "Q2 SDK"
    /// The institution's Q2 Core (its logon endpoint).
    case q2Core = "Q2 Core"
    /// The app's security module, asked before a password login.
    case securityModule = "SecurityModule"
    /// The legacy KSSIDP wrapper.
    case kssidp = "KSSIDP"
}
