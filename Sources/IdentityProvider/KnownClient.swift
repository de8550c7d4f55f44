/// The OAuth clients the simulated IdP has registered, by the MC-SDK's default client ids.
public enum KnownClient: String, Sendable, CaseIterable {
    case enrollment = "KssIdpEnrollment"
    case login = "KssIdpLogin"

    /// The vendor's other default clients (REFERENCE.md §1), whose flows idp-tui does not simulate: the IdP says
    /// so rather than "not registered".
    static let notSimulated: Set = ["KssIdpChangePassword", "KssIdpForgotPassword"]

    /// The form pages a client's login asks for, in order. Activation asks for the activation code on a
    /// page of its own, so the SDK calls `provideCredentials` twice; a tenant whose form is `usernameFirst` asks
    /// for the username alone first (once more).
    func pages(usernameFirst: Bool) -> [[FormField]] {
        let credentials: [[FormField]] = usernameFirst ? [[.username], [.password]] : [[.username, .password]]
        return switch self {
        case .enrollment: credentials + [[.activationCode]]
        case .login: credentials
        }
    }
}
