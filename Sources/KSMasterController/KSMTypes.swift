/// The master controller's answer to `StartEvent`: what the app should do next.
public enum KSMSdkState: String, Sendable, Codable {
    case uninitialised = "UNINITIALISED"
    case unidentified = "UNIDENTIFIED"
    case activationRequired = "ACTIVATION_REQUIRED"
    case loginRequired = "LOGIN_REQUIRED"
}

/// How the user unlocks the app locally after login.
public enum KSMAuthenticationMode: String, Sendable, Codable, CaseIterable {
    case no
    case biometric
    case password
    case pin
}

/// An enrolled user (the MC-SDK's `KsUserIdentifier`).
public struct KsUserIdentifier: Sendable, Equatable, Codable, CustomStringConvertible {
    public let tenantId: String
    public let userId: String

    public init(tenantId: String, userId: String) {
        self.tenantId = tenantId
        self.userId = userId
    }

    public var description: String { "\(userId)@\(tenantId)" }
}

/// An enrolled user with its details (the MC-SDK's `KsUserDetails`, as KOBIL's iOS samples read it: its
/// `userIdentifier`; the simulated controller keeps no other detail).
public struct KsUserDetails: Sendable, Equatable {
    public let userIdentifier: KsUserIdentifier

    public init(userIdentifier: KsUserIdentifier) {
        self.userIdentifier = userIdentifier
    }
}

/// What kind of error an error event reports (the MC-SDK's `KSMErrorType`, which KOBIL's iOS samples pass on
/// without naming its cases; the cases and raw values are idp-tui's).
public struct KSMErrorType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A runtime error: the controller restarts itself.
    public static let runtimeError = KSMErrorType(rawValue: 1)

    public var description: String { self == .runtimeError ? "runtimeError" : "KSMErrorType(\(rawValue))" }
}

/// The MC-SDK's default client ids.
public enum KSMClientId {
    public static let enrollment = "KssIdpEnrollment"
    public static let login = "KssIdpLogin"
    /// The change-password client (REFERENCE.md §1's default ids). Not simulated: the simulated IdP answers 513/4005,
    /// "not simulated by idp-tui", so that code naming it compiles and says so when run (docs/sdk-names.md).
    public static let changePassword = "KssIdpChangePassword"
    /// The forgot-password client; not simulated, as ``changePassword``.
    public static let forgotPassword = "KssIdpForgotPassword"
}

/// An app's version, as the MC-SDK's start and restart events carry it.
public struct KSMVersion: Sendable, Equatable {
    public let majorVersion: Int32
    public let minorVersion: Int32
    public let build: Int32

    public init(majorVersion: Int32, minorVersion: Int32, build: Int32) {
        self.majorVersion = majorVersion
        self.minorVersion = minorVersion
        self.build = build
    }
}
