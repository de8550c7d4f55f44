import IdentityProvider
import KSMasterController
import Q2ModuleInterfaces
import DropsWeb
import SafepayDropsSDK

/// How the app side of the simulation behaves: what it pins, whether it hashes the PIN, which local
/// authentication mode it asks for, how long a prompt may wait, and how the Drops bridge behaves.
public struct FlowConfiguration: Sendable {
    /// The PEM chain passed to `IdpSdkService(certificateChain:)`; nil pins the IdP's own (read from the
    /// bundle when the service is built, not before).
    public var certificateChainPEM: String?
    public var shouldHashPin: Bool
    public var authenticationMode: KSMAuthenticationMode
    /// How long `provideCredentials` waits for the front end; nil waits for ever.
    public var promptTimeout: Duration?
    public var enrollmentClientId: String
    public var loginClientId: String
    /// The Drops environment the payment view is configured with.
    public var safepayEnvironment: SafepayEnvironment
    /// The bridge's ack timeout and retries.
    public var bridgeTiming: BridgeTiming
    /// Faults the simulated Drops page shows.
    public var bridgeFaults: BridgeFaults
    /// What the card form starts with.
    public var paymentDefaults: PaymentDefaults
    /// How the app was opened, for the Q2 module: `normal`, `deep-link` (a banner asks to sign in) or `push`
    /// (no auto-login).
    public var q2Launch: Q2Launch = .normal
    /// `--insecure-device REASON`: the security module denies every Q2 login with this reason.
    public var insecureDeviceReason: String?

    public init(
        certificateChainPEM: String? = nil, shouldHashPin: Bool = false,
        authenticationMode: KSMAuthenticationMode = .no, promptTimeout: Duration? = .seconds(300),
        enrollmentClientId: String = KSMClientId.enrollment, loginClientId: String = KSMClientId.login,
        safepayEnvironment: SafepayEnvironment = .sandbox, bridgeTiming: BridgeTiming = .swiftHost,
        bridgeFaults: BridgeFaults = .none, paymentDefaults: PaymentDefaults = PaymentDefaults()
    ) {
        self.safepayEnvironment = safepayEnvironment
        self.bridgeTiming = bridgeTiming
        self.bridgeFaults = bridgeFaults
        self.paymentDefaults = paymentDefaults
        self.certificateChainPEM = certificateChainPEM
        self.shouldHashPin = shouldHashPin
        self.authenticationMode = authenticationMode
        self.promptTimeout = promptTimeout
        self.enrollmentClientId = enrollmentClientId
        self.loginClientId = loginClientId
    }
}
