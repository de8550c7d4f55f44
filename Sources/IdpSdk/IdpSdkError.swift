import Crypto
import Foundation
import IdentityProvider
/// An error of the IdpSdk: a subsystem, a code and a message.
///
/// Subsystem 513 carries the IdP's error pages (codes 4036, 4041, 4042 as on real devices; the rest are the
/// simulator's own). Subsystems 510 (the SDK's own checks) and 511 (the connection) are the simulator's own.
/// docs/sdk-names.md lists every value.
public struct IdpSdkError: Error, Sendable, Equatable, CustomStringConvertible {
    public let subsystem: Int
    public let errorCode: Int
    public let errorDescription: String

    /// The migration guide's form: `IdpSdkError(subsystem, errorCode, "User cancelled")`.
    public init(_ subsystem: Int, _ errorCode: Int, _ errorDescription: String) {
        self.subsystem = subsystem
        self.errorCode = errorCode
        self.errorDescription = errorDescription
    }

    public init(subsystem: Int, errorCode: Int, errorDescription: String) {
        self.init(subsystem, errorCode, errorDescription)
    }

    public var description: String { "IdpSdkError(\(subsystem)/\(errorCode)): \(errorDescription)" }

    /// Subsystem of the SDK's own argument and answer checks.
    public static let sdkSubsystem = 510
    /// Subsystem of connection and certificate errors.
    public static let transportSubsystem = 511
}

/// An app that shows `error.localizedDescription` shows ``errorDescription`` ("User cancelled", "wrong username or
/// password (2 attempts left …)"), as it would show the vendor's message; it said "The operation could not be
/// completed. (IdpSdk.IdpSdkError error 1.)". Through `CustomNSError`, not `LocalizedError`: the vendor's stored
/// `errorDescription: String` leaves no room for `LocalizedError`'s `errorDescription: String?`. As an `NSError`,
/// its `code` is ``errorCode``. The vendor's documents are silent on both: ours.
extension IdpSdkError: CustomNSError {
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: errorDescription] }
}

extension IdpSdkError {
    static func invalidArgument(_ what: String) -> IdpSdkError {
        IdpSdkError(subsystem: sdkSubsystem, errorCode: 1, errorDescription: what)
    }

    static func badCertificateChain(_ why: String) -> IdpSdkError {
        IdpSdkError(subsystem: sdkSubsystem, errorCode: 2, errorDescription: "the certificateChain given to IdpSdkService is unusable: \(why)")
    }

    /// No key the app gave is named: it might be a value typed in the wrong place.
    static func missingCredential(_ key: String) -> IdpSdkError {
        IdpSdkError(subsystem: sdkSubsystem, errorCode: 3, errorDescription: "provideCredentials returned no value for \"\(key)\"")
    }

    static func credentialTooLong(_ key: String, limit: Int) -> IdpSdkError {
        IdpSdkError(subsystem: sdkSubsystem, errorCode: 4, errorDescription: "the value for \"\(key)\" is longer than \(limit) bytes")
    }

    static func unreachable(_ why: String) -> IdpSdkError {
        IdpSdkError(subsystem: transportSubsystem, errorCode: 1, errorDescription: why)
    }

    static func network(_ error: NetworkError) -> IdpSdkError {
        switch error {
        case .unreachable: unreachable(error.description)
        case .offline: IdpSdkError(subsystem: transportSubsystem, errorCode: 4, errorDescription: error.description)
        case .timedOut: IdpSdkError(subsystem: transportSubsystem, errorCode: 5, errorDescription: error.description)
        // Only idp-tui's engine abandons a line's waits, for a flow it cancelled: its late result is discarded.
        case .abandoned: IdpSdkError(subsystem: transportSubsystem, errorCode: 6, errorDescription: error.description)
        }
    }

    static func unreadablePage(_ what: String) -> IdpSdkError {
        IdpSdkError(subsystem: sdkSubsystem, errorCode: 5, errorDescription: "the identity provider's login page could not be read: \(what)")
    }

    /// A root of the same name as a pinned certificate's is said to be another key under that name (an impostor's
    /// root reads as the pinned one but for the fingerprints).
    static func pinningFailed(presented: Certificate?, pinned: [Certificate]) -> IdpSdkError {
        let namesake = presented.flatMap { root in pinned.first { $0.commonName == root.commonName } }
        let what = switch (presented, namesake) {
        case (nil, _): "presented no certificate (pinned: \(pinned.map(\.description).joined(separator: ", ")))"
        // Named once, with the two fingerprints (the name four times made 383 characters).
        case (let root?, let pinnedOne?):
            "presented a root named \(root.commonName), as the pinned one is, but with another key "
                + "(SHA-256 \(root.fingerprintPrefix)… where the pinned one has \(pinnedOne.fingerprintPrefix)…)"
        case (let root?, nil):
            "presented \(root.description), which is not in the pinned chain (pinned: \(pinned.map(\.description).joined(separator: ", ")))"
        }
        return IdpSdkError(subsystem: transportSubsystem, errorCode: 2, errorDescription: "certificate pinning failed: the server \(what)")
    }

    static func untrustedServer(_ why: String) -> IdpSdkError {
        IdpSdkError(subsystem: transportSubsystem, errorCode: 3, errorDescription: "the server's certificate chain is not valid: \(why)")
    }
}
