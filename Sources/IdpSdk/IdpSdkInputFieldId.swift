import IdentityProvider

/// The field ids of `IdpSdkInteractionData.inputFieldIds`, as the vendor names them. Each id is also the key of
/// its value in `IdpSdkProvideCredentialsResult(credentials:)` (`username`, `activation-code` …): the iOS guide
/// keys the values by those words, the Android guide by the ids it is given, and both work.
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
    case username
    case password
    case activationCode = "activation-code"
    case newPassword = "new-password"
    case currentPassword = "current-password"

    /// The key of this field's value in `IdpSdkProvideCredentialsResult(credentials:)`: the id itself (`username`,
    /// `password`, `activation-code` …).
    public var key: String { rawValue }

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
