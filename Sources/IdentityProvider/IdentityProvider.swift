import Threading
import Crypto
import Determinism
import Secrets
import Synchronization

/// The simulated identity provider: an in-process OAuth authorization server with login forms, users,
/// one-time activation codes, lockout, device binding and PKCE-bound authorization codes.
///
/// It is deterministic: every random value comes from the ``RandomSource`` and every expiry from the
/// ``SimulationClock`` it was given.
public final class IdentityProvider: Sendable {
    public let baseURL: String
    /// The key that seals `clientData`; the master controllers of this simulation hold it too.
    public let clientDataKey: [UInt8]
    /// The same key, keyed once for libcrypto.
    let clientDataSealer: HMAC.Key
    public let genuineChain: CertificateChain
    public let impostorChain: CertificateChain

    let configuration: IdentityProviderConfiguration
    private let clock: any SimulationClock
    let random: RandomSource
    let state: Locked<IdpState>
    private let presentsImpostor = Atomic(false)
    let store: any IdentityProviderStore
    /// The faults that bite here: server error, malformed page, clock skew.
    public let faults: FaultSwitchboard

    public init(
        configuration: IdentityProviderConfiguration, clock: any SimulationClock, random: RandomSource,
        store: any IdentityProviderStore = MemoryIdentityProviderStore(), faults: FaultSwitchboard = FaultSwitchboard()
    ) {
        self.configuration = configuration
        self.clock = clock
        self.random = random
        self.store = store
        self.faults = faults
        baseURL = configuration.baseURL
        clientDataKey = random.bytes(32)
        clientDataSealer = HMAC.Key(clientDataKey)
        (genuineChain, impostorChain) = IdentityProviderCertificates.parsed
        // A tenant's users become records at its first login (their salts made from this key, not drawn one by
        // one): a scenario of 10,000 users starts as fast as the demo, and the random stream does not depend on
        // which users are used.
        let saltKey = HMAC.Key(random.bytes(32))
        var tenants: [String: TenantSettings] = [:]
        var unloaded: [String: @Sendable () -> [UserKey: UserRecord]] = [:]
        for tenant in configuration.tenants {
            tenants[tenant.id] = TenantSettings(expectsHashedPins: tenant.expectsHashedPins, usernameFirst: tenant.usernameFirst)
            let iterations = configuration.passwordHashIterations
            unloaded[tenant.id] = { Self.records(of: tenant, iterations: iterations, saltKey: saltKey) }
        }
        state = Locked(IdpState(tenants: tenants, unloadedUsers: unloaded))
        // Activation codes count their validity from the first start on this store.
        _ = try? store.epoch(orStartAt: clock.now)
    }

    /// Whether `tenant` expects PINs hashed (`shouldHashPin`): for the simulated SDK's hint on a wrong password.
    package func expectsHashedPins(tenant: String) -> Bool {
        state.withLock { $0.tenants[tenant]?.expectsHashedPins } ?? false
    }

    /// The stored hashes of a tenant's users, each salted with its own 16 bytes of `saltKey`'s HMAC of the tenant,
    /// the user and which secret it is.
    private static func records(of tenant: TenantConfiguration, iterations: Int, saltKey: HMAC.Key) -> [UserKey: UserRecord] {
        var records: [UserKey: UserRecord] = [:]
        records.reserveCapacity(tenant.userCount)
        for user in tenant.users {
            // What the SDK sends: the password, or its PIN hash (hashed, like the stored hash, on first use).
            let hashedPins = tenant.expectsHashedPins
            let password = user.password, tenantID = tenant.id, username = user.username
            let sent: @Sendable () -> Secret = {
                hashedPins ? PinHashing.hash(password, tenantId: tenantID, username: username) : password
            }
            // Made at the first comparison, as the hash is: only the users who log in pay for their salts.
            func salt(_ secret: String) -> @Sendable () -> [UInt8] {
                { Array(saltKey.authenticate(Array("\(secret)\u{0}\(tenantID)\u{0}\(username)".utf8)).prefix(16)) }
            }
            let activation = user.activationCode.map { code in
                ActivationRecord(hash: StoredHash(deferred: { code.code }, iterations: iterations, salt: salt("activationCode")),
                                 validFor: code.validFor)
            }
            records[UserKey(tenant: tenantID, username: username)] = UserRecord(
                password: StoredHash(deferred: sent, iterations: iterations, salt: salt("password")), activation: activation)
        }
        return records
    }

    /// How many stored hashes (passwords and activation codes) have been computed: each is computed at the
    /// user's first login or activation, never when the scenario is loaded.
    public var computedHashes: Int {
        state.withLock { state in
            state.loadedUsers.values.reduce(0) { count, user in
                count + (user.password.isComputed ? 1 : 0) + (user.activation?.hash.isComputed == true ? 1 : 0)
            }
        }
    }

    /// Computes every user's stored hashes now, as the IdP did at start before they were made at first use
    /// (idp-bench, to time flows as it did then).
    package func computeStoredHashes() {
        state.withLock { state in
            state.loadEveryTenant()
            for user in state.loadedUsers.values {
                user.password.compute()
                user.activation?.hash.compute()
            }
        }
    }

    /// The chain this IdP presents on connect: its own, or the impostor's while pinning is made to fail.
    public var presentedChain: CertificateChain {
        if faults.faults.pinningFails {
            faults.triggered("certificate pinning fails: the IdP presents an impostor chain")
            return impostorChain
        }
        return presentsImpostor.load(ordering: .relaxed) ? impostorChain : genuineChain
    }

    /// The IdP's own clock: the simulation clock, plus the clock-skew fault.
    var now: SimulationInstant {
        let skew = faults.faults.clockSkew
        return skew == .zero ? clock.now : clock.now.advanced(by: skew)
    }

    /// Makes the IdP present the impostor chain (the "certificate pinning fails" fault), or stop doing so.
    public func presentImpostorChain(_ on: Bool) {
        presentsImpostor.store(on, ordering: .relaxed)
    }

    // MARK: The authorization endpoint

    /// Opens a login: checks the request and the device, then answers with the first form page.
    public func authorize(_ request: AuthorizationRequest) -> AuthorizationPage {
        // The seal is checked once: the login needs the claims, the log the device they name.
        let claims = ClientData.open(request.clientData, with: clientDataSealer)
        let page = openLogin(request, claims: claims)
        var traffic = IdpTraffic(.openLogin(clientId: request.clientId, tenantId: request.tenantId), response: page)
        traffic.deviceID = claims?.deviceID
        report(traffic)
        return page
    }

    private func openLogin(_ request: AuthorizationRequest, claims: ClientData?) -> AuthorizationPage {
        if let fault = pageFault() { return fault }
        guard let tenant = state.withLock({ $0.tenants[request.tenantId] }) else {
            return .error(.unknownTenant(request.tenantId))
        }
        guard let client = KnownClient(rawValue: request.clientId) else { return .error(.unknownClient(request.clientId)) }
        guard request.codeChallengeMethod == "S256" else {
            return .error(.invalidRequest("code_challenge_method must be S256, not \"\(request.codeChallengeMethod)\""))
        }
        guard request.codeChallenge.count == 43, Base64URL.decode(request.codeChallenge)?.count == 32 else {
            return .error(.invalidRequest("code_challenge is not a base64url SHA-256 value"))
        }
        guard let claims else {
            return .error(.invalidRequest("clientData is malformed or its seal does not verify"))
        }
        let unactivated = claims.astClientId == ClientData.unactivatedAstClientId
        if client == .login && unactivated { return .error(.notActivated) }
        if client == .enrollment && !unactivated { return .error(.alreadyActivated) }

        let now = self.now
        let session = LoginSession(
            id: Base64URL.encode(random.bytes(16)), tenant: request.tenantId, client: client,
            pages: client.pages(usernameFirst: tenant.usernameFirst),
            codeChallenge: request.codeChallenge, claims: claims,
            expiresAt: now.advanced(by: configuration.loginSessionLifetime))
        state.withLock { state in
            state.pruneExpired(at: now)
            state.sessions[session.id] = session
        }
        return .form(session.form)
    }

    /// Submits one form page. Answers with the next page, the redirect with a code, or an error page.
    public func submit(sessionID: String, values: [FormField: Secret]) -> AuthorizationPage {
        let device = state.withLock { $0.sessions[sessionID]?.claims.deviceID }
        let page = submitPage(sessionID: sessionID, values: values)
        var traffic = IdpTraffic(.submitForm(values.keys.map(\.rawValue)), response: page)
        traffic.deviceID = device
        report(traffic)
        return page
    }

    private func submitPage(sessionID: String, values: [FormField: Secret]) -> AuthorizationPage {
        if let fault = pageFault() {
            abandon(sessionID: sessionID)
            return fault
        }
        let now = self.now
        guard let session = state.withLock({ $0.sessions[sessionID] }), session.expiresAt > now else {
            abandon(sessionID: sessionID)
            return .error(.loginSessionExpired)
        }
        let fields = session.pages[session.page]
        if let missing = fields.first(where: { values[$0] == nil }) {
            return .error(.invalidRequest("the form field \"\(missing.rawValue)\" is missing"))
        }
        if let long = fields.first(where: { (values[$0]?.byteCount ?? 0) > FormField.maximumLength }) {
            return .error(.invalidRequest("the form field \"\(long.rawValue)\" is longer than \(FormField.maximumLength) bytes"))
        }
        let outcome: Result<String, IdpFailure>
        if fields == [.username], let username = values[.username]?.reveal() {
            // Identifier first: the name is taken as given, and the password's page says whether the two are right,
            // so that a name alone never tells which users exist.
            outcome = .success(username)
        } else if fields.contains(.password), let username = values[.username]?.reveal() ?? session.username,
            let password = values[.password]
        {
            outcome = checkPassword(session: session, username: username, password: password, now: now)
        } else if let code = values[.activationCode], let username = session.username {
            outcome = checkActivationCode(session: session, username: username, code: code, now: now)
        } else {
            outcome = .failure(.invalidRequest("the form page cannot be checked"))
        }
        switch outcome {
        case .failure(let failure):
            abandon(sessionID: sessionID)
            return .error(failure)
        case .success(let username):
            return advance(session, username: username, now: now)
        }
    }

    /// Calls `observer` with every request the IdP answers, on the caller's thread, until
    /// ``removeObserver(_:)`` with the token this returns. Several devices (several services) may observe one IdP;
    /// ``IdpTraffic/deviceID`` says whose request it was.
    @discardableResult
    public func observe(_ observer: @escaping @Sendable (IdpTraffic) -> Void) -> Int {
        state.withLock { state in
            state.nextObserver += 1
            state.observers[state.nextObserver] = observer
            return state.nextObserver
        }
    }

    public func removeObserver(_ token: Int) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }

    func report(_ traffic: IdpTraffic) {
        for observer in state.withLock({ Array($0.observers.values) }) { observer(traffic) }
    }

    /// The server-error and malformed-page faults, when on.
    private func pageFault() -> AuthorizationPage? {
        let faults = faults.faults
        if faults.serverError {
            self.faults.triggered("server error: the IdP answers HTTP 500")
            return .error(.serverError("the server error fault is on"))
        }
        if faults.malformedPage {
            self.faults.triggered("malformed page: the IdP answers a page that is not a login form")
            return .malformed("an HTML page with no login form and no error code")
        }
        return nil
    }

    /// Forgets a login whose app gave up (cancel). Does nothing for an unknown session.
    public func abandon(sessionID: String) {
        _ = state.withLock { $0.sessions.removeValue(forKey: sessionID) }
    }

    // MARK: Inspection (for tests and for the terminal's status line)

    /// The user a device's AST client id is bound to, if any.
    public func boundUser(astClientId: String) -> String? {
        (try? store.binding(astClientId: astClientId))?.username
    }

    /// Wrong passwords or codes in a row for a user.
    public func failedAttempts(tenantId: String, username: String) -> Int {
        (try? store.user(tenant: tenantId, username: username))?.failures ?? 0
    }

    /// Login forms that are open and authorization codes that are not spent, for leak checks.
    public var openSessionCount: Int { state.withLock { $0.sessions.count } }

    // MARK: Steps

    private func checkPassword(session: LoginSession, username: String, password: Secret, now: SimulationInstant)
        -> Result<String, IdpFailure>
    {
        let key = UserKey(tenant: session.tenant, username: username)
        // A user name the tenant does not have is counted and locked as a known user's wrong password is, so
        // that the answer (attempts left, then the lock) never tells whether the user exists.
        let record = state.withLock { $0.user(key) }
        do {
            // The lock check, the password check and the count are one transaction: two processes that send wrong
            // passwords at once cannot both pass the lock check and both be counted past it.
            let policy = configuration.lockout
            let checked = try store.updateUser(tenant: key.tenant, username: key.username) { counters -> IdpFailure? in
                counters.unlockIfDue(at: now)
                if let until = counters.lockedUntil { return .userLocked(remaining: now.duration(to: until)) }
                guard let record, record.password.matches(password) else {
                    return Self.countFailure(&counters, policy: policy, now: now, code: false)
                }
                return nil
            }
            if let checked { return .failure(checked) }
            if session.client == .login, let bound = try store.binding(astClientId: session.claims.astClientId),
                bound.username != username || bound.tenant != session.tenant
            {
                return .failure(.activatedForDifferentAccount)
            }
            return .success(username)
        } catch {
            return .failure(.serverError("its store failed: \(error.description)"))
        }
    }

    private func checkActivationCode(session: LoginSession, username: String, code: Secret, now: SimulationInstant)
        -> Result<String, IdpFailure>
    {
        let key = UserKey(tenant: session.tenant, username: username)
        guard let record = state.withLock({ $0.user(key) }) else { return .failure(.invalidRequest("unknown user")) }
        do {
            let policy = configuration.lockout
            let activation = record.activation
            let refused = try store.updateUser(tenant: key.tenant, username: key.username) { counters -> IdpFailure? in
                if let until = counters.lockedUntil, until > now { return .userLocked(remaining: now.duration(to: until)) }
                guard let activation, activation.hash.matches(code) else {
                    return Self.countFailure(&counters, policy: policy, now: now, code: true)
                }
                return nil
            }
            if let refused { return .failure(refused) }
            guard let activation else { return .failure(.invalidRequest("the user has no activation code")) }
            let expiresAt = try store.epoch(orStartAt: clock.now).advanced(by: activation.validFor)
            // One transaction: two processes presenting the same code cannot both use it.
            let outcome = try store.updateUser(tenant: key.tenant, username: key.username) { counters -> Result<String, IdpFailure> in
                guard !counters.activationUsed else { return .failure(.activationCodeUsed) }
                guard expiresAt > now else { return .failure(.activationCodeExpired) }
                counters.activationUsed = true
                return .success(username)
            }
            // Expired only on the IdP's clock, which the fault puts ahead: the fault bit.
            if case .failure(.activationCodeExpired) = outcome, expiresAt > clock.now {
                faults.triggered("clock skew: the IdP's clock is ahead, past the activation code's expiry")
            }
            return outcome
        } catch {
            return .failure(.serverError("its store failed: \(error.description)"))
        }
    }

    /// Counts a wrong password or code and locks the user when the policy says so.
    private static func countFailure(_ counters: inout UserCounters, policy: LockoutPolicy, now: SimulationInstant, code: Bool) -> IdpFailure {
        guard let left = counters.countFailure(policy: policy, now: now) else { return .userLocked(remaining: policy.lockDuration) }
        return code ? .wrongActivationCode(attemptsLeft: left) : .wrongCredentials(attemptsLeft: left)
    }

    private func advance(_ session: LoginSession, username: String, now: SimulationInstant) -> AuthorizationPage {
        var next = session
        next.page += 1
        next.username = username
        guard next.page >= session.pages.count else {
            state.withLock { $0.sessions[session.id] = next }
            return .form(next.form)
        }
        let code = Base64URL.encode(random.bytes(32))
        let grant = Grant(
            client: session.client, tenant: session.tenant, username: username, codeChallenge: session.codeChallenge,
            deviceID: session.claims.deviceID, astClientId: session.claims.astClientId,
            expiresAt: now.advanced(by: configuration.authorizationCodeLifetime))
        // Only a completed login resets the failure count: a right password followed by wrong activation
        // codes must still lock the user.
        state.withLock { state in
            state.sessions.removeValue(forKey: session.id)
            state.grants[code] = grant
        }
        do {
            try store.updateUser(tenant: session.tenant, username: username) { $0.failures = 0 }
        } catch {
            return .error(.serverError("its store failed: \(error.description)"))
        }
        return .redirect(authorizationCode: code)
    }
}
