// The KOBIL migration guide (KSSIDP → IdpSdk), "After (IdpSdk)": the guide's code as printed, with its own
// mistakes commented where they are (marked "Guide:"), and what it leaves out marked "Added:".
// Import lines are not in the guide: these are idp-tui's module names (docs/sdk-usage.md).
import Foundation
import IdpSdk
import KSMasterController

class IdpHandler: NSObject {
    // Guide: `idpSdk` is declared twice, which does not compile; the second declaration, with its comment, is
    // the one kept.
    // let idpSdk: IdpSdkService

    /// Master Controller instance used to send and receive MC-SDK events.
    let masterController: MCSDK

    /// Wrapper around the IDP SDK responsible for requesting the authorization code.
    let idpSdk: IdpSdkService

    /// Logger used to display progress and results on screen.
    let screenLogger: ScreenLogger

    // Guide: the initializer sets `self.tenantId`, which the guide never declares.
    let tenantId: String

    // Added: what the user typed, read by `provideCredentials` on the SDK's background thread. Set before a flow
    // starts and not changed while it runs.
    var username = ""
    var password = ""
    var activationCode = ""
    // Added: set when the user cancels; `provideCredentials` then returns the guide's cancel error.
    var userCancelled = false

    init(
        masterController: MCSDK,
        screenLogger: ScreenLogger,
        certificate: Data,
        baseUrl: String,
        tenantId: String,
    ) {
        self.masterController = masterController
        self.screenLogger = screenLogger

        self.idpSdk = .init(
            tenantId: tenantId,
            idpUrl: baseUrl,
            certificateChain: certificate,
            shouldHashPin: false
        )
        self.tenantId = tenantId
    }

    /// Added: the guide's three steps and the result, as loose statements in the guide ("Activation Flow",
    /// "Login Flow": the same steps with another client id), here as the body of one method.
    func run(clientId: String) async {
        // Step 1 — get AST client data
        let astClientData = await getAstClientData(tenantId: tenantId)

        // Step 2 — get authorization code; SDK calls provideCredentials on a background thread
        let authorizationCode = await getAuthorizationCode(
            clientId: clientId,
            astClientDataInfo: .init(astClientData: astClientData)
        )

        // Step 3 — pass authorization code to MC-SDK
        let authorizationCodeResult = await setAuthorizationCode(
            tenantId: tenantId,
            authCode: authorizationCode,
            authMode: .no,
            clientId: clientId
        )

        // Step 4 - Handle the Result
        handle(authorizationCodeResult)
    }

    // Functions implementing the steps

    /// Requests AST client data required to obtain an authorization code.
    ///
    /// - Parameter tenantId: Tenant identifier used to build the `KSMGetAstClientDataEvent`.
    /// - Returns: `KSMGetAstClientDataResultEvent` containing AST client data and challenge information.
    func getAstClientData(tenantId: String) async -> KSMGetAstClientDataResultEvent {
        let event = KSMGetAstClientDataEvent(tenantId: tenantId)
        let result = await masterController.receive(event) as! KSMGetAstClientDataResultEvent
        return result
    }

    /// Requests an authorization code from the IDP SDK.
    ///
    /// - Parameters:
    ///   - clientId: Client identifier used in the IDP authorization request.
    ///   - astClientDataInfo: AST client data required by the IDP SDK to build the request.
    /// - Returns: Authorization code returned by the IDP SDK, or an empty string if no code is provided.
    func getAuthorizationCode(clientId: String, astClientDataInfo: AstClientDataInfo) async -> String {
        await withCheckedContinuation { continuation in
            idpSdk.getAuthorizationCode(
                withAstClientData: astClientDataInfo,
                clientId: clientId,
                interactionInterface: self,
                userId: nil,
                traceParent: ""
            ) { result in
                if let code = result.authorizationCode {
                    continuation.resume(returning: code)
                } else {
                    continuation.resume(returning: "")
                }
            }
        }
    }

    /// Submits the authorization code to MC-SDK.
    ///
    /// - Parameters:
    ///   - tenantId: Tenant identifier used to build the `KSMSetAuthorisationCodeEvent`.
    ///   - authCode: Authorization code received from the IDP SDK.
    ///   - authMode: Authentication mode used when submitting the authorization code.
    ///   - clientId: Client identifier associated with the authorization request.
    /// - Returns: `KSMSetAuthorisationCodeResultEvent` describing the outcome of the operation.
    func setAuthorizationCode(
        tenantId: String,
        authCode: String,
        authMode: KSMAuthenticationMode,
        clientId: String
    ) async -> KSMSetAuthorisationCodeResultEvent {
        let event = KSMSetAuthorisationCodeEvent(
            tenantId: tenantId,
            authenticationMode: authMode,
            authorisationCode: authCode,
            clientId: clientId
        )

        let result = await masterController.receive(event) as! KSMSetAuthorisationCodeResultEvent
        return result
    }

    // "Result Handling": the guide prints this handler under "Before (KSSIDP)", but it takes the MC-SDK's
    // `KSMSetAuthorisationCodeResultEvent`, which is what step 4 hands it.

    /// Example handler processing the result of `KSMSetAuthorisationCodeEvent`.
    ///
    /// - Parameter result: Result event returned by MC-SDK after submitting the authorization code.
    func handle(_ result: KSMSetAuthorisationCodeResultEvent) {
        if result.status == .KSMOK {
            /* success */
            screenLogger.log("success: logged in as \(result.userIdentifier?.userId ?? "?")")  // Added: what the app shows.
        } else {
            /* error */
            screenLogger.log("error: \(result.status.name), \(result.errorDescription)")  // Added: what the app shows.
        }
        // "After (IdpSdk)": the same check as Android spells it — both spellings work.
        if result.status == StatusType.OK {
            screenLogger.log("StatusType.OK")
        }
    }
}
