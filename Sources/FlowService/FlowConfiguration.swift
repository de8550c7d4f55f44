import IdentityProvider
import MCSDK

/// How the app side of the simulation behaves: what it pins, whether it hashes the PIN, which local
/// authentication mode it asks for, and how long a prompt may wait.
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

    public init(
        certificateChainPEM: String? = nil, shouldHashPin: Bool = false,
        authenticationMode: KSMAuthenticationMode = .no, promptTimeout: Duration? = .seconds(300),
        enrollmentClientId: String = KSMClientId.enrollment, loginClientId: String = KSMClientId.login
    ) {
        self.certificateChainPEM = certificateChainPEM
        self.shouldHashPin = shouldHashPin
        self.authenticationMode = authenticationMode
        self.promptTimeout = promptTimeout
        self.enrollmentClientId = enrollmentClientId
        self.loginClientId = loginClientId
    }
}
