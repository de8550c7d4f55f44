// The KOBIL migration guide, "Before (KSSIDP)": initialization, activation and login through the legacy
// wrapper, as printed. The guide shows them as loose statements in an app object; here that object is
// `KssIdpHandler`, and what the guide leaves to the app is marked "Added:".
import KSMasterController
import kssidp

final class KssIdpHandler {
    // Added: what the guide's statements use.
    let certificatePath: String
    let baseUrl: String
    let tenantId: String
    let masterController: MCSDK
    let authMode: KSMAuthenticationMode = .no
    let parentSpan: String? = nil
    let screenLogger: ScreenLogger
    var username = ""
    var password = ""
    var activationCode = ""
    var kssIdp: KssIdpWrapper!

    init(certificatePath: String, baseUrl: String, tenantId: String, masterController: MCSDK, screenLogger: ScreenLogger) {
        self.certificatePath = certificatePath
        self.baseUrl = baseUrl
        self.tenantId = tenantId
        self.masterController = masterController
        self.screenLogger = screenLogger
    }

    func initialize() {
        // Build config
        let idpConfig = KssIdpConfig(certificatePath: certificatePath,
                                     baseUrl: baseUrl,
                                     tenantId: tenantId,
                                     masterController: masterController,
                                     shouldKssIdpHandleTms: false,
                                     shouldHashPin: true)

        // Initialize
        let kssIdp = KssIdpWrapper(config: idpConfig)
        self.kssIdp = kssIdp  // Added: kept for the calls below.
    }

    func activate() {
        // Pass all credentials upfront — KSSIDP handles MC events internally
        kssIdp.activate(clientId: "KssIdpEnrollment",
                        authMode: authMode,
                        credentials: ["username"       : username,
                                      "password"       : password,
                                      "activation-code": activationCode],
                        parentSpan: parentSpan) { _, newResultObject in
                    self.handleNewResult(newResultObject: newResultObject)
        }
    }

    func login() {
        kssIdp.login(clientId: "KssIdpLogin",
                     authMode: authMode,
                     credentials: ["username"       : username,
                                   "password"       : password,
                                   "activation-code": activationCode],
                     parentSpan: parentSpan) { _, newResultObject in
                 self.handleNewResult(newResultObject: newResultObject)
        }
    }

    /// Added: the app's handler the guide calls.
    func handleNewResult(newResultObject: KssIdpResultObject) {
        switch newResultObject.status {
        case .success:
            screenLogger.log("KSSIDP: logged in as \(newResultObject.userId)")
        case .eventFailed(let status, let errorDescription, _):
            screenLogger.log("KSSIDP: an MC-SDK event failed, \(status.name): \(errorDescription)")
        case .requestFailed(_, _, let errorModel, _):
            screenLogger.log("KSSIDP: the request failed, \(errorModel.subsystem)/\(errorModel.code): \(errorModel.description)")
        case .biometricError(_, let errorDescription):
            screenLogger.log("KSSIDP: \(errorDescription)")
        }
    }
}
