import DropsWeb
import FlowEngine
import IdpFlows
import KSMasterController
import PaymentFlows
import Q2Flows
import Q2ModuleInterfaces
import SafepayDropsSDK

/// How the app side of the simulation behaves, family by family, and how long a prompt may wait: what the
/// command line sets.
public struct FlowConfiguration: Sendable {
    /// How long a prompt waits for the front end; nil waits for ever.
    public var promptTimeout: Duration?
    public var idp: IdpSettings
    public var payment: PaymentSettings
    public var q2: Q2Settings

    /// A part of the configuration: one family's settings.
    public enum Part: Sendable {
        case idp, payment, q2
    }

    public init(
        certificateChainPEM: String? = nil, shouldHashPin: Bool = false,
        authenticationMode: KSMAuthenticationMode = .no, promptTimeout: Duration? = .seconds(300),
        enrollmentClientId: String = KSMClientId.enrollment, loginClientId: String = KSMClientId.login,
        safepayEnvironment: SafepayEnvironment = .sandbox, bridgeTiming: BridgeTiming = .swiftHost,
        bridgeFaults: BridgeFaults = .none, paymentDefaults: PaymentDefaults = PaymentDefaults(),
        q2Launch: Q2Launch = .normal, insecureDeviceReason: String? = nil
    ) {
        self.promptTimeout = promptTimeout
        idp = IdpSettings(
            certificateChainPEM: certificateChainPEM, shouldHashPin: shouldHashPin, authenticationMode: authenticationMode,
            enrollmentClientId: enrollmentClientId, loginClientId: loginClientId)
        payment = PaymentSettings(
            safepayEnvironment: safepayEnvironment, bridgeTiming: bridgeTiming, bridgeFaults: bridgeFaults, paymentDefaults: paymentDefaults)
        q2 = Q2Settings(launch: q2Launch, insecureDeviceReason: insecureDeviceReason)
    }
}
