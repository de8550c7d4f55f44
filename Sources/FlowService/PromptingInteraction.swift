import FlowRecords
import Determinism
import IdpSdk

/// The app's `IdpSdkInteractionInterface`: hands each request for credentials to the front end through the
/// credential channel and blocks the SDK's background thread until it is answered, cancelled or times out.
final class PromptingInteraction: IdpSdkInteractionInterface {
    private let run: FlowRun
    private let clientId: String
    private let channel: CredentialChannel
    private let clock: any SimulationClock
    private let timeout: Duration?

    init(run: FlowRun, clientId: String, channel: CredentialChannel, clock: any SimulationClock, timeout: Duration?) {
        self.run = run
        self.clientId = clientId
        self.channel = channel
        self.clock = clock
        self.timeout = timeout
    }

    func provideCredentials(_ interactionData: IdpSdkInteractionData) -> IdpSdkProvideCredentialsResult {
        let page = interactionData.pageCount > 1 ? " (page \(interactionData.page) of \(interactionData.pageCount))" : ""
        run.emit(.provideCredentials, from: .idpSdk, to: .app,
                 detail: "inputFieldIds=\(interactionData.inputFieldIds.joined(separator: ","))\(page)")
        let fields = interactionData.inputFieldIds.compactMap(IdpSdkInputFieldId.init(rawValue:))
        let asked = clock.now
        let resolution = channel.askBlocking(flowID: run.id, timeout: timeout) { id in
            FlowPrompt(
                id: id, flowID: run.id, flow: run.kind, fields: fields, clientId: clientId, page: interactionData.page,
                pageCount: interactionData.pageCount)
        }
        let waited = asked.duration(to: clock.now)
        switch resolution {
        case .answered(let answer):
            guard case .credentials(let values) = answer else { preconditionFailure("the channel checks that answers fit") }
            let keys = fields.map(\.key).filter { values[$0] != nil }
            run.emit(.provideCredentials, from: .app, to: .idpSdk, duration: waited, status: "answered",
                     detail: "credentials for \(keys.joined(separator: ", "))")
            return IdpSdkProvideCredentialsResult(secrets: values)
        case .cancelled:
            run.emit(.provideCredentials, from: .app, to: .idpSdk, duration: waited, status: "USER_CANCEL",
                     detail: "error \(IdpSdkError.userCancelled.subsystem)/\(IdpSdkError.userCancelled.errorCode): User cancelled")
            return IdpSdkProvideCredentialsResult(error: .userCancelled)
        case .timedOut:
            let error = IdpSdkError.promptTimedOut(after: timeout ?? .zero)
            run.emit(.provideCredentials, from: .app, to: .idpSdk, duration: waited, status: "PROMPT_TIMEOUT",
                     detail: "error \(error.subsystem)/\(error.errorCode): \(error.errorDescription)")
            return IdpSdkProvideCredentialsResult(error: error)
        }
    }
}
