import IdentityProvider

/// A field the IdP's form asks for.
public enum IdpSdkInputFieldId: String, Sendable, CaseIterable, Codable {
    case username = "USERNAME"
    case password = "PASSWORD"
    case activationCode = "ACTIVATION_CODE"
    case newPassword = "NEW_PASSWORD"
    case currentPassword = "CURRENT_PASSWORD"

    /// The key of this field's value in `IdpSdkProvideCredentialsResult(credentials:)`.
    public var key: String { formField.rawValue }

    /// Whether the value is a secret to mask (all but the user name).
    public var isSecret: Bool { formField.isSecret }

    var formField: FormField {
        switch self {
        case .username: .username
        case .password: .password
        case .activationCode: .activationCode
        case .newPassword: .newPassword
        case .currentPassword: .currentPassword
        }
    }

    init(_ field: FormField) {
        switch field {
        case .username: self = .username
        case .password: self = .password
        case .activationCode: self = .activationCode
        case .newPassword: self = .newPassword
        case .currentPassword: self = .currentPassword
        }
    }
}
