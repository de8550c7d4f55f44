import Foundation
import IdentityProvider
import Q2Core
import Secrets

/// Core's `PasswordAuthentication`, on the simulated Core: the security module first, then
/// POST `/mobilews/logonUser`. The password becomes a secret here, as it leaves the module.
package final class CorePasswordAuthentication: PasswordAuthentication {
    private let core: Q2CoreServer
    private let security: any SecurityModule

    package init(core: Q2CoreServer, security: any SecurityModule) {
        self.core = core
        self.security = security
    }

    package func authenticate(using credential: PasswordCredential) async throws -> PasswordAuthenticationResult {
        if case .deny(let reason) = security.allowLogin() { throw MobileCoreLoginFailure.insecure(reason: reason) }
        let response: LogonResponse
        do {
            // Over the sign-in's own line when idp-tui's engine set one (a cancel abandons it), else Core's.
            response = try await core.logonUser(userId: credential.username, password: Secret(credential.password),
                                          over: SimulatedNetwork.taskLine)
        } catch .abandoned where Task.isCancelled {
            // The app cancelled the task that awaits the login (its screen went away): Swift's cancellation, as
            // an async URL session call ends, not a network failure to report.
            throw CancellationError()
        } catch {
            throw MobileCoreLoginFailure.networkUnavailable(error: error)
        }
        switch response.status {
        case 200:
            guard let token = response.q2token else {
                throw MobileCoreLoginFailure.genericError(error: CoreError(message: "no q2token header"), statusCode: 200, hydraCode: nil)
            }
            return PasswordAuthenticationResult(statusCode: 200, q2token: token.reveal(), userDataJSON: response.userData,
                                                username: credential.username, authenticationMethod: .password)
        case 401, 423:
            throw MobileCoreLoginFailure.invalidCredentials(error: CoreError(message: response.message), statusCode: response.status,
                                                            hydraCode: response.hydraCode)
        default:
            throw MobileCoreLoginFailure.genericError(error: CoreError(message: response.message), statusCode: response.status,
                                                      hydraCode: response.hydraCode)
        }
    }
}

/// Core's message for a failed logon.
public struct CoreError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// `localizedDescription` is Core's message (``MobileCoreLoginFailure`` carries it as its `error`).
extension CoreError: LocalizedError {
    public var errorDescription: String? { message }
}
