import Crypto
import Determinism
import IdentityProvider
import Secrets

/// Drives the simulated IdP the way the SDKs do, on a manual clock.
struct IdpHarness {
    let clock = ManualClock()
    let idp: IdentityProvider

    init(_ configuration: IdentityProviderConfiguration = .demo()) {
        idp = IdentityProvider(configuration: configuration, clock: clock, random: RandomSource(seed: 7))
    }

    static let zeros = ClientData.unactivatedAstClientId

    func clientData(device: String = "device-1", ast: String = zeros) -> String {
        ClientData(deviceID: device, astClientId: ast, nonce: "n").sealed(with: idp.clientDataKey)
    }

    static func pkce(_ seed: String = "verifier-0123456789-0123456789-0123456789") -> (Secret, String) {
        (Secret(seed), Base64URL.encode(SHA256.digest(seed)))
    }

    func authorize(_ client: KnownClient, device: String = "device-1", ast: String = zeros, challenge: String? = nil,
                   tenant: String = "demo") -> AuthorizationPage {
        idp.authorize(AuthorizationRequest(
            tenantId: tenant, clientId: client.rawValue, clientData: clientData(device: device, ast: ast),
            codeChallenge: challenge ?? Self.pkce().1, codeChallengeMethod: "S256"))
    }

    func submit(_ page: AuthorizationPage, _ values: [FormField: String]) -> AuthorizationPage {
        guard case .form(let form) = page else { return page }
        return idp.submit(sessionID: form.sessionID, values: values.mapValues { Secret($0) })
    }

    /// Logs in through every page; answers are looked up by field.
    func signIn(_ client: KnownClient, device: String = "device-1", ast: String = zeros,
                _ answers: [FormField: String]) -> AuthorizationPage {
        var page = authorize(client, device: device, ast: ast)
        while case .form(let form) = page {
            page = submit(page, Dictionary(uniqueKeysWithValues: form.fields.map { ($0, answers[$0] ?? "") }))
        }
        return page
    }

    func exchange(_ page: AuthorizationPage, client: KnownClient, device: String = "device-1", ast: String = zeros,
                  verifier: Secret = pkce().0, tenant: String = "demo") -> Result<TokenResponse, IdpFailure> {
        guard case .redirect(let code) = page else { return .failure(.invalidGrant("no code: \(page)")) }
        return idp.exchange(TokenRequest(
            tenantId: tenant, clientId: client.rawValue, authorizationCode: code, codeVerifier: verifier,
            clientData: clientData(device: device, ast: ast)))
    }

    /// Activates `username` on `device` and returns the minted AST client id.
    func activate(_ username: String, _ password: String, _ code: String, device: String = "device-1") -> String? {
        let page = signIn(.enrollment, device: device, [.username: username, .password: password, .activationCode: code])
        return try? exchange(page, client: .enrollment, device: device).get().astClientId
    }
}

extension AuthorizationPage {
    var failure: IdpFailure? {
        if case .error(let failure) = self { return failure }
        return nil
    }

    var fields: [FormField]? {
        if case .form(let form) = self { return form.fields }
        return nil
    }

    var isRedirect: Bool {
        if case .redirect = self { return true }
        return false
    }
}
