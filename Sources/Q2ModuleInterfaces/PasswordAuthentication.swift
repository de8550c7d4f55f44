import Foundation
import JSONText
import Secrets

/// The typed JSON of Q2's module interfaces (`userDataJSON`), re-exported whole: an app that imports only this
/// module (as it would the vendor's) sees its cases, also under Swift's `MemberImportVisibility`, where a type
/// alias left them behind the module that defines them.
@_exported import enum JSONText.JSONValue

/// A user name and password for Core's password login.
///
/// The vendor's type holds the password as a `String`; this one never prints it: `description`,
/// `debugDescription`, `dump` and string interpolation show it redacted, and the type is not `Codable`, so it
/// cannot be serialized by accident. Core's login turns it into a secret as it takes it.
public struct PasswordCredential: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let username: String
    public let password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    public var description: String { "PasswordCredential(username: \(username), password: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["username": username, "password": "<redacted>"]) }
}

/// How the user signed in.
public enum AuthenticationMethod: String, Sendable, Equatable, CaseIterable {
    case password
    case biometric
    case sso
}

/// What Core's password login answers. The session token prints redacted.
public struct PasswordAuthenticationResult: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let statusCode: Int
    /// The session token from the logon response's `q2token` header.
    public let q2token: String?
    public let userDataJSON: [String: JSONValue]?
    public let username: String?
    public let authenticationMethod: AuthenticationMethod

    public init(statusCode: Int, q2token: String?, userDataJSON: [String: JSONValue]?, username: String?,
                authenticationMethod: AuthenticationMethod) {
        self.statusCode = statusCode
        self.q2token = q2token
        self.userDataJSON = userDataJSON
        self.username = username
        self.authenticationMethod = authenticationMethod
    }

    /// What the module hands to `ModuleDelegate.completePlatformAuthentication(with:)`.
    public func asAuthenticationModuleResponse() -> AuthenticationModuleResponse {
        AuthenticationModuleResponse(username: username, authenticationMethod: authenticationMethod, q2token: q2token,
                                     userDataJSON: userDataJSON)
    }

    public var description: String {
        "PasswordAuthenticationResult(statusCode: \(statusCode), q2token: \(q2token == nil ? "nil" : "<redacted>"), "
            + "username: \(username ?? "nil"), authenticationMethod: \(authenticationMethod))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "statusCode": statusCode, "q2token": q2token == nil ? (nil as String?) as Any : "<redacted>", "username": username as Any,
            "authenticationMethod": authenticationMethod,
        ])
    }
}

/// The module's answer to the platform: who signed in, how, and the session. The token prints redacted.
public struct AuthenticationModuleResponse: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let username: String?
    public let authenticationMethod: AuthenticationMethod
    public let q2token: String?
    public let userDataJSON: [String: JSONValue]?

    public init(username: String?, authenticationMethod: AuthenticationMethod, q2token: String?, userDataJSON: [String: JSONValue]?) {
        self.username = username
        self.authenticationMethod = authenticationMethod
        self.q2token = q2token
        self.userDataJSON = userDataJSON
    }

    public var description: String {
        "AuthenticationModuleResponse(username: \(username ?? "nil"), authenticationMethod: \(authenticationMethod), "
            + "q2token: \(q2token == nil ? "nil" : "<redacted>"))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "username": username as Any, "authenticationMethod": authenticationMethod, "q2token": q2token == nil ? (nil as String?) as Any : "<redacted>",
        ])
    }
}

/// Why Core's password login failed.
public enum MobileCoreLoginFailure: Error, Sendable {
    /// Wrong username or password (Core answers 401, or 423 while the user is locked).
    case invalidCredentials(error: (any Error)?, statusCode: Int, hydraCode: Int?)
    /// No connectivity, or the request timed out.
    case networkUnavailable(error: (any Error)?)
    /// A server error or an unexpected failure.
    case genericError(error: (any Error)?, statusCode: Int?, hydraCode: Int?)
    /// The security module blocked the login.
    case insecure(reason: String)

    /// The case's name, for results: `invalidCredentials` …
    public var caseName: String {
        switch self {
        case .invalidCredentials: "invalidCredentials"
        case .networkUnavailable: "networkUnavailable"
        case .genericError: "genericError"
        case .insecure: "insecure"
        }
    }

    public var statusCode: Int? {
        switch self {
        case .invalidCredentials(_, let status, _): status
        case .genericError(_, let status, _): status
        default: nil
        }
    }

    public var hydraCode: Int? {
        switch self {
        case .invalidCredentials(_, _, let hydra), .genericError(_, _, let hydra): hydra
        default: nil
        }
    }

    /// What happened, in plain words.
    public var message: String {
        switch self {
        case .invalidCredentials(let error, _, _): error.map { "\($0)" } ?? "invalid user id or password"
        case .networkUnavailable(let error): error.map { "\($0)" } ?? "the network is unavailable"
        case .genericError(let error, _, _): error.map { "\($0)" } ?? "the login failed"
        case .insecure(let reason): "the security module blocked the login: \(reason)"
        }
    }
}

/// An app that shows `error.localizedDescription` shows ``MobileCoreLoginFailure/message`` ("The operation could not
/// be completed. (… error 0.)" said nothing). The vendor's page is silent on it: ours.
extension MobileCoreLoginFailure: LocalizedError {
    public var errorDescription: String? { message }
}

/// Core's password login, as the module sees it.
public protocol PasswordAuthentication: AnyObject, Sendable {
    func authenticate(using credential: PasswordCredential) async throws -> PasswordAuthenticationResult
}
