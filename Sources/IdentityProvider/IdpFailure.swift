import Threading
import Determinism

/// Every error page or token error the simulated IdP can answer with.
///
/// Subsystem 513 and the codes 4036, 4041 and 4042 are the ones seen on real devices; the other codes are
/// this simulator's own (docs/sdk-names.md lists them).
public enum IdpFailure: Error, Sendable, Equatable {
    case invalidRequest(String)
    case unknownTenant(String)
    case unknownClient(String)
    case loginSessionExpired
    case wrongCredentials(attemptsLeft: Int)
    case wrongActivationCode(attemptsLeft: Int)
    case activationCodeExpired
    case activationCodeUsed
    case userLocked(remaining: Duration)
    case notActivated
    case activatedForDifferentAccount
    case alreadyActivated
    case unactivatedClient
    case invalidGrant(String)
    /// The IdP failed (HTTP 500): the server-error fault, or its own store.
    case serverError(String)

    /// The IdP's error-page subsystem.
    public static let subsystem = 513

    public var code: Int {
        switch self {
        case .invalidRequest: 4000
        case .unknownTenant: 4004
        case .unknownClient: 4005
        case .loginSessionExpired: 4008
        case .wrongCredentials: 4011
        case .wrongActivationCode: 4012
        case .activationCodeExpired: 4013
        case .activationCodeUsed: 4014
        case .userLocked: 4023
        case .unactivatedClient: 4036
        case .notActivated: 4041
        case .activatedForDifferentAccount: 4042
        case .alreadyActivated: 4043
        case .invalidGrant: 4400
        case .serverError: 5000
        }
    }

    /// What went wrong and what to do, in plain words.
    /// The HTTP status the IdP answers it with: 500 for its own failure, 400 otherwise.
    public var httpStatus: Int {
        if case .serverError = self { return 500 }
        return 400
    }

    public var message: String {
        switch self {
        case .invalidRequest(let why): "the identity provider rejected the request: \(why)"
        case .unknownTenant(let tenant): "tenant \"\(tenant)\" does not exist on this identity provider"
        case .unknownClient(let client) where KnownClient.notSimulated.contains(client):
            "client id \"\(client)\" is the vendor's, but its flow is not simulated by idp-tui (only KssIdpEnrollment and KssIdpLogin are)"
        case .unknownClient(let client): "client id \"\(client)\" is not registered on this identity provider"
        case .loginSessionExpired: "the login form expired before it was completed; start the flow again"
        case .wrongCredentials(let left): "wrong username or password (\(Self.attempts(left)))"
        case .wrongActivationCode(let left): "wrong activation code (\(Self.attempts(left)))"
        case .activationCodeExpired: "the activation code has expired; ask for a new one"
        case .activationCodeUsed: "the activation code has already been used; ask for a new one"
        case .userLocked(let remaining):
            "the account is temporarily locked after too many failed attempts; try again in \(LockoutPolicy.spell(remaining))"
        case .notActivated:
            "the client data says this device is not activated; activate it first, or, if it was activated since that client data was fetched, send GetAstClientDataEvent again"
        case .activatedForDifferentAccount: "this device is activated for a different account"
        case .alreadyActivated: "this device is already activated; log in instead, or reset the device"
        case .unactivatedClient: "login with a client that the identity provider does not know as activated"
        case .invalidGrant(let why): "the authorization code was refused: \(why)"
        case .serverError(let why): "the identity provider failed (HTTP 500): \(why)"
        }
    }

    private static func attempts(_ left: Int) -> String {
        left == 1 ? "1 attempt left before the account locks" : "\(left) attempts left before the account locks"
    }

}
