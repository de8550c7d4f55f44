/// An input of the IdP's login form, by its HTML name. The IdpSdk maps each to an `IdpSdkInputFieldId`.
public enum FormField: String, Sendable, CaseIterable, Hashable {
    case username
    case password
    case activationCode = "activation-code"
    case newPassword = "new-password"
    case currentPassword = "current-password"

    /// Whether the value is a secret (every field but the username).
    public var isSecret: Bool { self != .username }

    /// The longest value a field accepts, in UTF-8 bytes.
    public static let maximumLength = 256
}
