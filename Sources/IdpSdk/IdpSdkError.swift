import IdentityProvider
/// An error of the IdpSdk: a subsystem, a code and a message.
///
/// Subsystem 513 carries the IdP's error pages (codes 4036, 4041, 4042 as on real devices; the rest are the
/// simulator's own). Subsystems 510 (the SDK's own checks) and 511 (the connection) are the simulator's own.
/// docs/sdk-names.md lists every value.
public struct IdpSdkError: Error, Sendable, Equatable, CustomStringConvertible {
    public let subsystem: Int
    public let errorCode: Int
    public let message: String

    public init(subsystem: Int, errorCode: Int, message: String) {
        self.subsystem = subsystem
        self.errorCode = errorCode
        self.message = message
    }

    public var description: String { "IdpSdkError(\(subsystem)/\(errorCode)): \(message)" }

    /// Subsystem of the SDK's own argument and answer checks.
    public static let sdkSubsystem = 510
    /// Subsystem of connection and certificate errors.
    public static let transportSubsystem = 511
}

extension IdpSdkError {
    static func invalidArgument(_ what: String) -> IdpSdkError {
        IdpSdkError(subsystem: sdkSubsystem, errorCode: 1, message: what)
    }

    static func badCertificateChain(_ why: String) -> IdpSdkError {
        IdpSdkError(subsystem: sdkSubsystem, errorCode: 2, message: "the certificateChain given to IdpSdkService is unusable: \(why)")
    }

    static func missingCredential(_ key: String) -> IdpSdkError {
        IdpSdkError(subsystem: sdkSubsystem, errorCode: 3, message: "provideCredentials returned no value for \"\(key)\"")
    }

    static func credentialTooLong(_ key: String, limit: Int) -> IdpSdkError {
        IdpSdkError(subsystem: sdkSubsystem, errorCode: 4, message: "the value for \"\(key)\" is longer than \(limit) bytes")
    }

    static func unreachable(_ why: String) -> IdpSdkError {
        IdpSdkError(subsystem: transportSubsystem, errorCode: 1, message: why)
    }

    static func network(_ error: NetworkError) -> IdpSdkError {
        switch error {
        case .unreachable: unreachable(error.description)
        case .offline: IdpSdkError(subsystem: transportSubsystem, errorCode: 4, message: error.description)
        case .timedOut: IdpSdkError(subsystem: transportSubsystem, errorCode: 5, message: error.description)
        }
    }

    static func unreadablePage(_ what: String) -> IdpSdkError {
        IdpSdkError(subsystem: sdkSubsystem, errorCode: 5, message: "the identity provider's login page could not be read: \(what)")
    }

    static func pinningFailed(presented: String, pinned: String) -> IdpSdkError {
        IdpSdkError(
            subsystem: transportSubsystem, errorCode: 2,
            message: "certificate pinning failed: the server presented \(presented), which is not in the pinned chain (\(pinned))")
    }

    static func untrustedServer(_ why: String) -> IdpSdkError {
        IdpSdkError(subsystem: transportSubsystem, errorCode: 3, message: "the server's certificate chain is not valid: \(why)")
    }
}
