import DropsWeb
import FlowEngine
import IdpFlows
import KSMasterController
import PaymentFlows
import Q2Flows
import Q2ModuleInterfaces
import SafepayDropsSDK

extension FlowConfiguration {
    /// A configuration of the catalog's families in one call, for the command line, the benchmark and tests. A
    /// family added later is configured through its own settings (``FlowConfiguration/subscript(_:)``).
    public init(
        certificateChainPEM: String? = nil, shouldHashPin: Bool = false,
        authenticationMode: KSMAuthenticationMode = .no, promptTimeout: Duration? = .seconds(300),
        enrollmentClientId: String = KSMClientId.enrollment, loginClientId: String = KSMClientId.login,
        safepayEnvironment: SafepayEnvironment = .sandbox, bridgeTiming: BridgeTiming = .swiftHost,
        bridgeFaults: BridgeFaults = .none, paymentDefaults: PaymentDefaults = PaymentDefaults(),
        q2Launch: Q2Launch = .normal, insecureDeviceReason: String? = nil
    ) {
        self.init(promptTimeout: promptTimeout)
        idp = IdpSettings(
            certificateChainPEM: certificateChainPEM, shouldHashPin: shouldHashPin, authenticationMode: authenticationMode,
            enrollmentClientId: enrollmentClientId, loginClientId: loginClientId)
        payment = PaymentSettings(
            safepayEnvironment: safepayEnvironment, bridgeTiming: bridgeTiming, bridgeFaults: bridgeFaults, paymentDefaults: paymentDefaults)
        q2 = Q2Settings(launch: q2Launch, insecureDeviceReason: insecureDeviceReason)
    }
}
