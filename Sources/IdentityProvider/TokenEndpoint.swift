import Crypto
import Determinism
import Secrets

// The token endpoint: an authorization code, its PKCE verifier and the client data in; tokens out, with the
// device bound at activation.
extension IdentityProvider {
    /// Exchanges an authorization code for tokens: the code must be unused, unexpired, issued to this client
    /// and tenant, and `codeVerifier` must hash to its PKCE challenge.
    public func exchange(_ request: TokenRequest) -> Result<TokenResponse, IdpFailure> {
        let claims = ClientData.open(request.clientData, with: clientDataSealer)
        let result = exchangeCode(request, claims: claims)
        let response: String
        let status: String
        switch result {
        case .success(let tokens):
            response = tokens.activated ? "tokens issued; device activated as \(tokens.astClientId)" : "tokens issued"
            status = "200"
        case .failure(let failure):
            response = "\(IdpFailure.subsystem)/\(failure.code): \(failure.message)"
            status = String(failure.httpStatus)
        }
        var traffic = IdpTraffic(request: .token(clientId: request.clientId), response: response, status: status)
        traffic.deviceID = claims?.deviceID
        report(traffic)
        return result
    }

    func exchangeCode(_ request: TokenRequest, claims: ClientData?) -> Result<TokenResponse, IdpFailure> {
        let now = self.now
        let taken: Result<Grant, IdpFailure> = state.withLock { state in
            guard var grant = state.grants[request.authorizationCode] else {
                return .failure(.invalidGrant("the authorization code is unknown"))
            }
            guard !grant.used else { return .failure(.invalidGrant("the authorization code has already been used")) }
            grant.used = true
            state.grants[request.authorizationCode] = grant
            return .success(grant)
        }
        let grant: Grant
        switch taken {
        case .failure(let failure): return .failure(failure)
        case .success(let value): grant = value
        }
        guard grant.expiresAt > now else { return .failure(.invalidGrant("the authorization code has expired")) }
        guard grant.client.rawValue == request.clientId else {
            return .failure(.invalidGrant("the authorization code was issued to client \"\(grant.client.rawValue)\", not \"\(request.clientId)\""))
        }
        guard grant.tenant == request.tenantId else {
            return .failure(.invalidGrant("the authorization code was issued for tenant \"\(grant.tenant)\", not \"\(request.tenantId)\""))
        }
        let verifierHash = request.codeVerifier.withUnsafeBytes { SHA256.digest(Array($0)) }
        guard ConstantTime.equals(Array(Base64URL.encode(verifierHash).utf8), Array(grant.codeChallenge.utf8)) else {
            return .failure(.invalidGrant("the PKCE code verifier does not match the code challenge"))
        }
        guard let claims, claims.deviceID == grant.deviceID else {
            return .failure(.invalidGrant("the client data does not belong to the device the code was issued to"))
        }
        return bindOrCheckDevice(grant)
    }


    func bindOrCheckDevice(_ grant: Grant) -> Result<TokenResponse, IdpFailure> {
        // Drawn for every grant (a login's goes unused), so that the ids and tokens after it replay as they did.
        var minted = mintAstClientId()
        let bound: Result<String, IdpFailure>
        do {
            switch grant.client {
            case .enrollment:
                // An id is the device's alone, as a real IdP's are. Another process on the same state file, from the
                // same seed, mints the same ids in the same order: an id bound already is passed over for the next,
                // which the seed still decides.
                let binding = DeviceBinding(username: grant.username, tenant: grant.tenant, deviceID: grant.deviceID)
                while try !store.bindNew(astClientId: minted, to: binding) { minted = mintAstClientId() }
                bound = .success(minted)
            case .login:
                if let binding = try store.binding(astClientId: grant.astClientId), binding.deviceID == grant.deviceID,
                    binding.username == grant.username
                {
                    bound = .success(grant.astClientId)
                } else {
                    bound = .failure(.unactivatedClient)
                }
            }
        } catch {
            bound = .failure(.serverError("its store failed: \(error.description)"))
        }
        return bound.map { astClientId in
            TokenResponse(
                username: grant.username, tenantId: grant.tenant, astClientId: astClientId,
                activated: grant.client == .enrollment, accessToken: token(), refreshToken: token(),
                offlineToken: token())
        }
    }

    /// A new astClientId: 26 characters of Crockford's base 32, 130 bits.
    func mintAstClientId() -> String { random.string(length: 26, alphabet: "0123456789ABCDEFGHJKMNPQRSTVWXYZ") }

    func token() -> Secret {
        var bytes = Array(Base64URL.encode(random.bytes(32)).utf8)
        return Secret(consuming: &bytes)
    }
}
