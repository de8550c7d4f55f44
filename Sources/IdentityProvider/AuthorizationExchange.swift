import Secrets

/// The authorization request the IdpSdk opens a login with (the `/authorize` call of an OAuth code flow).
public struct AuthorizationRequest: Sendable {
    public var tenantId: String
    public var clientId: String
    public var clientData: String
    public var codeChallenge: String
    public var codeChallengeMethod: String
    /// The enrolled user's id, when the app passes one (login); nil on first activation.
    public var loginHint: String?
    /// A W3C trace parent, recorded and otherwise ignored.
    public var traceParent: String?

    public init(
        tenantId: String, clientId: String, clientData: String, codeChallenge: String,
        codeChallengeMethod: String, loginHint: String? = nil, traceParent: String? = nil
    ) {
        self.tenantId = tenantId
        self.clientId = clientId
        self.clientData = clientData
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
        self.loginHint = loginHint
        self.traceParent = traceParent
    }
}

/// What the IdP answers a request or a form submission with.
public enum AuthorizationPage: Sendable, Equatable {
    /// A form to fill in: which fields, and which page of how many.
    case form(LoginForm)
    /// The redirect back to the app with an authorization code.
    case redirect(authorizationCode: String)
    /// An error page.
    case error(IdpFailure)
    /// A page that is not a login form at all (the malformed-page fault): what it holds, in words.
    case malformed(String)
}

/// A page of the IdP's login form.
public struct LoginForm: Sendable, Equatable {
    public let sessionID: String
    public let fields: [FormField]
    public let page: Int
    public let pageCount: Int
}

/// The token request the master controller sends with `SetAuthorisationCode`.
public struct TokenRequest: Sendable {
    public var tenantId: String
    public var clientId: String
    public var authorizationCode: String
    public var codeVerifier: Secret
    public var clientData: String

    public init(tenantId: String, clientId: String, authorizationCode: String, codeVerifier: Secret, clientData: String) {
        self.tenantId = tenantId
        self.clientId = clientId
        self.authorizationCode = authorizationCode
        self.codeVerifier = codeVerifier
        self.clientData = clientData
    }
}

/// The tokens a successful exchange returns, and who they are for.
public struct TokenResponse: Sendable {
    public let username: String
    public let tenantId: String
    public let astClientId: String
    /// True when this exchange activated the device (the enrollment client).
    public let activated: Bool
    public let accessToken: Secret
    public let refreshToken: Secret
    public let offlineToken: Secret
}
