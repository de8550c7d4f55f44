import FlowEngine
import IdpSdk

/// The app's `IdpSdkInteractionInterface`: hands each request for credentials to the front end through the
/// credential channel and blocks the SDK's background thread until it is answered, cancelled or times out.
final class PromptingInteraction: IdpSdkInteractionInterface {
    private let run: FlowRun
    private let clientId: String
    private let knownUsername: String?

    init(run: FlowRun, clientId: String, knownUsername: String?) {
        self.run = run
        self.clientId = clientId
        self.knownUsername = knownUsername
    }

    func provideCredentials(_ interactionData: IdpSdkInteractionData) -> IdpSdkProvideCredentialsResult {
        let page = interactionData.pageCount > 1 ? " (page \(interactionData.page) of \(interactionData.pageCount))" : ""
        run.emit(.provideCredentials, from: .idpSdk, to: .app,
                 detail: "inputFieldIds=\(interactionData.inputFieldIds.joined(separator: ","))\(page)")
        let fields = interactionData.inputFieldIds.compactMap(IdpSdkInputFieldId.init(rawValue:)).map(\.credentialField)
        let (resolution, waited) = run.askBlocking(CredentialsRequest(
            fields: fields, clientId: clientId, page: interactionData.page, pageCount: interactionData.pageCount,
            knownUsername: knownUsername))
        switch resolution {
        case .answered(let answer):
            guard let values = answer.value(as: Credentials.self)?.values else { preconditionFailure("the channel checks that answers fit") }
            let keys = fields.map(\.key).filter { values[$0] != nil }
            if let username = values[CredentialField.username.key]?.reveal(), !username.isEmpty { run.actsFor(user: username) }
            run.emit(.provideCredentials, from: .app, to: .idpSdk, duration: waited, status: "answered",
                     detail: "credentials for \(keys.joined(separator: ", "))")
            return IdpSdkProvideCredentialsResult(secrets: values)
        case .cancelled(let reason):
            // An abort too reaches the SDK as "User cancelled", the one cancel its API has; the log and the history
            // say what happened.
            let error = "error \(IdpSdkError.userCancelled.subsystem)/\(IdpSdkError.userCancelled.errorCode): User cancelled"
            run.emit(.provideCredentials, from: .app, to: .idpSdk, duration: waited, status: reason.status,
                     detail: reason.abortHead.map { "\($0); the SDK is told \(error)" } ?? error)
            return IdpSdkProvideCredentialsResult(error: .userCancelled)
        case .timedOut:
            let error = IdpSdkError.promptTimedOut(after: run.service.promptTimeout ?? .zero)
            run.emit(.provideCredentials, from: .app, to: .idpSdk, duration: waited, status: "PROMPT_TIMEOUT",
                     detail: "error \(error.subsystem)/\(error.errorCode): \(error.errorDescription)")
            return IdpSdkProvideCredentialsResult(error: error)
        }
    }
}
