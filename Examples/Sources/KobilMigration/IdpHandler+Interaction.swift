// The KOBIL migration guide: "Implement the credential callback" and "Cancelling a Flow".
import IdpSdk

// Added: the error an app returns to cancel; the guide leaves both numbers to the app.
let subsystem = 1000
let errorCode = 1

// Called from a background thread — must be thread-safe.
// Any access to shared state in this scope must be synchronized.
extension IdpHandler: IdpSdkInteractionInterface {
    /// Provides credentials when requested by the IDP SDK interaction flow.
    ///
    /// - Parameter interactionData: Additional interaction context provided by the IDP SDK.
    /// - Returns: Credential container built from `credentials`.
    func provideCredentials(_ interactionData: IdpSdkInteractionData) -> IdpSdkProvideCredentialsResult {
        // Added: the screen logger shows each page of the IdP's form, so that a run shows how many there were.
        screenLogger.log("provideCredentials: \(interactionData.inputFieldIds.joined(separator: ", "))")
        // Added: "Cancelling a Flow" — return an error from provideCredentials to cancel the flow.
        if userCancelled {
            let error: IdpSdkError = .init(subsystem, errorCode, "User cancelled")
            return .init(error: error)
        }
        return .init(credentials: ["username"       : username,
                                   "password"       : password,
                                   "activation-code": activationCode]
        )

    }
}
