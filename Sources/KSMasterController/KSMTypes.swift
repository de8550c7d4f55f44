/// The master controller's answer to `StartEvent`: what the app should do next.
public enum KSMSdkState: String, Sendable, Codable {
    case uninitialised = "UNINITIALISED"
    case unidentified = "UNIDENTIFIED"
    case activationRequired = "ACTIVATION_REQUIRED"
    case loginRequired = "LOGIN_REQUIRED"
}

/// Result statuses of the master controller's events.
public enum StatusType: String, Sendable, Codable, CaseIterable {
    case ok = "OK"
    case internalError = "INTERNAL_ERROR"
    case invalidState = "INVALID_STATE"
    case failed = "FAILED"
    case wrongCredentials = "WRONG_CREDENTIALS"
    case activationCodeExpired = "ACTIVATION_CODE_EXPIRED"
    case lockedUser = "LOCKED_USER"
    case temporaryLocked = "TEMPORARY_LOCKED"
    case notReachable = "NOT_REACHABLE"
    case cannotAcquireTokenData = "CANNOT_ACQUIRE_TOKEN_DATA"
    case loginRequired = "LOGIN_REQUIRED"
    case noTokenDataAvailable = "NO_TOKEN_DATA_AVAILABLE"
    case userCancel = "USER_CANCEL"
}

/// How the user unlocks the app locally after login.
public enum KSMAuthenticationMode: String, Sendable, Codable, CaseIterable {
    case no
    case biometric
    case password
    case pin
}

/// An enrolled user.
public struct KSMUserIdentifier: Sendable, Equatable, Codable, CustomStringConvertible {
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
