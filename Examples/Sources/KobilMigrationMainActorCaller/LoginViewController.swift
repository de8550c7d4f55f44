// An app's screen on the main actor awaiting the guide's `IdpHandler`, as a view controller does. This target is
// built with NonisolatedNonsendingByDefault (docs/sdk-usage.md): the handler's `async` methods run on their
// caller's actor, so the call compiles as written. In Swift 6's default mode it does not: "sending
// 'self.idpHandler' risks causing data races", the handler being neither `Sendable` nor the main actor's.
import KSMasterController

@MainActor
final class LoginViewController {
    let idpHandler: IdpHandler

    init(idpHandler: IdpHandler) {
        self.idpHandler = idpHandler
    }

    func activateTapped() async {
        await idpHandler.run(clientId: KSMClientId.enrollment)
    }
}
