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

/// The MC-SDK's default client ids.
public enum KSMClientId {
    public static let enrollment = "KssIdpEnrollment"
    public static let login = "KssIdpLogin"
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
