/// The OAuth clients the simulated IdP has registered, by the MC-SDK's default client ids.
public enum KnownClient: String, Sendable, CaseIterable {
    case enrollment = "KssIdpEnrollment"
    case login = "KssIdpLogin"

    /// The form pages a client's login asks for, in order. Activation asks for the activation code on a
    /// page of its own, so the SDK calls `provideCredentials` twice.
    var pages: [[FormField]] {
        switch self {
        case .enrollment: [[.username, .password], [.activationCode]]
        case .login: [[.username, .password]]
        }
    }
}
