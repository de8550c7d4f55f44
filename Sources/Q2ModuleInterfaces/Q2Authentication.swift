import IdentityProvider
import JSONText
import Q2Core
import Secrets

/// A user name and password for Core's password login. The password never prints: every printing path shows
/// it redacted, and the type is not Codable, so it cannot be serialized by accident.
public struct PasswordCredential: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let username: String
    public let password: Secret

    public init(username: String, password: String) {
        self.username = username
        self.password = Secret(password)
    }

    public init(username: String, password: Secret) {
        self.username = username
        self.password = password
    }

    public var description: String { "PasswordCredential(username: \(username), password: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["username": username, "password": "<redacted>"]) }
}

/// What Core's password login answers.
public struct PasswordAuthenticationResult: Sendable, CustomStringConvertible {
    public let statusCode: Int
    /// The session token from the logon response's header; it prints redacted.
    public let q2token: Secret
    public let userDataJSON: [String: JSONValue]?
    public let username: String
    public let authenticationMethod: String

    public init(statusCode: Int, q2token: Secret, userDataJSON: [String: JSONValue]?, username: String, authenticationMethod: String) {
        self.statusCode = statusCode
        self.q2token = q2token
        self.userDataJSON = userDataJSON
        self.username = username
        self.authenticationMethod = authenticationMethod
    }

    /// What the module hands to `completePlatformAuthentication(with:)`.
    public func asAuthenticationModuleResponse() -> AuthenticationModuleResponse {
        AuthenticationModuleResponse(username: username, authenticationMethod: authenticationMethod, q2token: q2token,
                                     userDataJSON: userDataJSON)
    }

    public var description: String {
        "PasswordAuthenticationResult(statusCode: \(statusCode), q2token: <redacted>, username: \(username), authenticationMethod: \(authenticationMethod))"
    }
}

/// The module's answer to the platform.
public struct AuthenticationModuleResponse: Sendable, CustomStringConvertible {
    public let username: String
    public let authenticationMethod: String
    public let q2token: Secret
    public let userDataJSON: [String: JSONValue]?

    public var description: String {
        "AuthenticationModuleResponse(username: \(username), authenticationMethod: \(authenticationMethod), q2token: <redacted>)"
    }
}

/// Why Core's password login failed.
public enum MobileCoreLoginFailure: Error, Sendable {
    case invalidCredentials(error: (any Error)?, statusCode: Int, hydraCode: Int?)
    /// No connectivity, or a timeout.
    case networkUnavailable(error: (any Error)?)
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

/// Core's password login, as the module sees it.
public protocol PasswordAuthentication: AnyObject, Sendable {
    func authenticate(using credential: PasswordCredential) async throws -> PasswordAuthenticationResult
}

/// The app's security module: asked before a password login.
public protocol SecurityModule: Sendable {
    func allowLogin() async -> SecurityDecision
}

public enum SecurityDecision: Sendable, Equatable {
    case allow
    case deny(reason: String)
}

/// What the platform gives the authentication module.
public struct AuthenticationModuleContext: Sendable {
    /// A banner to show on the sign-in screen (e.g. "Please sign in to continue" after a deep link while logged out).
    public let presentWithLocalizedErrorMessage: String?
    /// False when the app was opened from a push notification: no auto-login then.
    public let shouldAllowAutoLogin: @MainActor @Sendable () -> Bool
    public let passwordAuthentication: any PasswordAuthentication

    public init(presentWithLocalizedErrorMessage: String?, shouldAllowAutoLogin: @escaping @MainActor @Sendable () -> Bool,
                passwordAuthentication: any PasswordAuthentication) {
        self.presentWithLocalizedErrorMessage = presentWithLocalizedErrorMessage
        self.shouldAllowAutoLogin = shouldAllowAutoLogin
        self.passwordAuthentication = passwordAuthentication
    }
}

/// The platform side of the module.
public protocol AuthenticationModuleDelegate: AnyObject, Sendable {
    func completePlatformAuthentication(with response: AuthenticationModuleResponse)
}

/// Core's `PasswordAuthentication` on the simulated Core: the security module first, then
/// POST `/mobilews/logonUser`.
public final class CorePasswordAuthentication: PasswordAuthentication {
    private let core: Q2CoreServer
    private let security: any SecurityModule

    public init(core: Q2CoreServer, security: any SecurityModule) {
        self.core = core
        self.security = security
    }

    public func authenticate(using credential: PasswordCredential) async throws -> PasswordAuthenticationResult {
        if case .deny(let reason) = await security.allowLogin() { throw MobileCoreLoginFailure.insecure(reason: reason) }
        let response: LogonResponse
        do {
            response = try core.logonUser(userId: credential.username, password: credential.password)
        } catch {
            throw MobileCoreLoginFailure.networkUnavailable(error: error)
        }
        switch response.status {
        case 200:
            guard let token = response.q2token else {
                throw MobileCoreLoginFailure.genericError(error: CoreError(message: "no q2token header"), statusCode: 200, hydraCode: nil)
            }
            return PasswordAuthenticationResult(statusCode: 200, q2token: token, userDataJSON: response.userData,
                                                username: credential.username, authenticationMethod: "password")
        case 401, 423:
            throw MobileCoreLoginFailure.invalidCredentials(error: CoreError(message: response.message), statusCode: response.status,
                                                            hydraCode: response.hydraCode)
        default:
            throw MobileCoreLoginFailure.genericError(error: CoreError(message: response.message), statusCode: response.status,
                                                      hydraCode: response.hydraCode)
        }
    }
}

/// Core's message for a failed logon.
public struct CoreError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// The security module of the simulation: it denies when the insecure-device fault is on, with a reason.
public struct SimulatedSecurityModule: SecurityModule {
    private let faults: FaultSwitchboard
    private let reason: String?

    /// `reason` (from `--insecure-device REASON`) denies always; else the fault decides.
    public init(faults: FaultSwitchboard, reason: String? = nil) {
        self.faults = faults
        self.reason = reason
    }

    public func allowLogin() async -> SecurityDecision {
        if let reason { return .deny(reason: reason) }
        if faults.faults.insecureDevice {
            faults.triggered("insecure device: the security module finds the device rooted")
            return .deny(reason: "the device is rooted or jailbroken")
        }
        return .allow
    }
}
