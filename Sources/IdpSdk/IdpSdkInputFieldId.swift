import IdentityProvider

/// The field ids of `IdpSdkInteractionData.inputFieldIds`, as the vendor names them.
public enum IdpSdkConstants {
    public static let USERNAME = IdpSdkInputFieldId.username.rawValue
    public static let PASSWORD = IdpSdkInputFieldId.password.rawValue
    public static let ACTIVATION_CODE = IdpSdkInputFieldId.activationCode.rawValue
    public static let NEW_PASSWORD = IdpSdkInputFieldId.newPassword.rawValue
    public static let CURRENT_PASSWORD = IdpSdkInputFieldId.currentPassword.rawValue
}

/// A field the IdP's form asks for, as a type (idp-tui's: the vendor passes the ids as strings,
/// ``IdpSdkConstants``).
public enum IdpSdkInputFieldId: String, Sendable, CaseIterable, Codable {
    case username = "USERNAME"
    case password = "PASSWORD"
    case activationCode = "ACTIVATION_CODE"
    case newPassword = "NEW_PASSWORD"
    case currentPassword = "CURRENT_PASSWORD"

    /// The key of this field's value in `IdpSdkProvideCredentialsResult(credentials:)`: `username`, `password`,
    /// `activation-code` …
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
