import Crypto
import Determinism
import IdentityProvider
import JSONText
import Secrets
import Threading

/// What `/mobilews/logonUser` answers: the HTTP status, a q2token header on success, user data in the body, and
/// the simulator's own hydra code on failure (the real codes are not public).
public struct LogonResponse: Sendable {
    public let status: Int
    public let q2token: Secret?
    public let userData: [String: JSONValue]?
    public let hydraCode: Int?
    public let message: String
}

/// The simulator's hydra codes (docs/q2.md): Q2 does not publish its own.
public enum HydraCode {
    public static let invalidCredentials = 1001
    public static let lockedOut = 1003
    public static let missingField = 1010
    public static let serverError = 9000
}

/// The simulated Q2 Core: the logon endpoint of an institution's online banking, on the simulated network.
/// Its users are the app tenant's users of the scenario; wrong passwords count towards the scenario's lockout,
/// kept in the IdP's store under a tenant of its own (`q2-core/…`), so that locks last across runs.
public final class Q2CoreServer: Sendable {
    public static let path = "/mobilews/logonUser"

    /// A logon request as the log says it (the password never: only that one is sent, or that it is empty).
    public static func logonRequest(userId: String, emptyPassword: Bool = false) -> NetworkRequest {
        NetworkRequest("POST \(path)", detail: "userId=\(userId) + \(emptyPassword ? "an empty password" : "a password")")
    }

    /// The app tenant's users' stored hashes, made at the first logon (a scenario's users are made at their
    /// tenant's first use: a tenant of 1,000 users starts as fast as the demo's two); until then the tenant and
    /// the salts drawn for its users at start.
    private let users: Locked<Users>
    private let lockout: LockoutPolicy
    private let store: any IdentityProviderStore
    private let network: SimulatedNetwork
    private let random: RandomSource
    private let clock: any SimulationClock
    private let faults: FaultSwitchboard
    private let tenant: String
    private let observer = Locked<(@Sendable (String, LogonResponse) -> Void)?>(nil)

    /// `passwordHashIterations`: PBKDF2 rounds for the stored passwords, the scenario's setting as for the IdP.
    public convenience init(tenant: String, users: [UserConfiguration], lockout: LockoutPolicy, store: any IdentityProviderStore,
                            network: SimulatedNetwork, random: RandomSource, clock: any SimulationClock, faults: FaultSwitchboard,
                            passwordHashIterations: Int = 1000) {
        self.init(tenant: tenant, usersOf: TenantConfiguration(id: tenant, users: users), lockout: lockout, store: store,
                  network: network, random: random, clock: clock, faults: faults, passwordHashIterations: passwordHashIterations)
    }

    /// The users are those of `configuration` (none when nil), made at the first logon, not here. Each user's salt
    /// is still drawn here, 16 bytes in the users' order, so that the random stream is what it was when they were
    /// made at start.
    public init(tenant: String, usersOf configuration: TenantConfiguration?, lockout: LockoutPolicy, store: any IdentityProviderStore,
                network: SimulatedNetwork, random: RandomSource, clock: any SimulationClock, faults: FaultSwitchboard,
                passwordHashIterations: Int = 1000) {
        self.tenant = "q2-core/" + tenant
        if let configuration {
            users = Locked(.pending(configuration, salts: random.bytes(16 * configuration.userCount), iterations: passwordHashIterations))
        } else {
            users = Locked(.made([:]))
        }
        self.lockout = lockout
        self.store = store
        self.network = network
        self.random = random
        self.clock = clock
        self.faults = faults
    }

    private enum Users: Sendable {
        case pending(TenantConfiguration, salts: [UInt8], iterations: Int)
        case made([String: StoredHash])
    }

    /// The user's stored hash, the tenant's made first if this is the first logon.
    private func hash(of userId: String) -> StoredHash? {
        users.withLock { users in
            if case .pending(let configuration, let salts, let iterations) = users {
                var made: [String: StoredHash] = [:]
                made.reserveCapacity(configuration.userCount)
                for (index, user) in configuration.users.enumerated() where made[user.username] == nil && 16 * index + 16 <= salts.count {
                    made[user.username] = StoredHash(of: user.password, iterations: iterations, salt: Array(salts[16 * index..<16 * index + 16]))
                }
                users = .made(made)
            }
            guard case .made(let made) = users else { return nil }
            return made[userId]
        }
    }

    /// Called with each request's user id and the response, on the caller's thread.
    public func observe(_ observer: @escaping @Sendable (String, LogonResponse) -> Void) {
        self.observer.withLock { $0 = observer }
    }

    /// POST `/mobilews/logonUser` with userId and password, over the caller's `line` onto the network (else
    /// Core's own view of it). Throws when the network does not carry the request. The caller's task is
    /// suspended for the network's latency, its thread free (the module's `authenticate` is async).
    public func logonUser(userId: String, password: Secret, over line: SimulatedNetwork? = nil) async throws(NetworkError) -> LogonResponse {
        try await (line ?? network).roundTrip(to: "Q2 Core", sending: Self.logonRequest(userId: userId, emptyPassword: password.isEmpty))
        let response = answer(userId: userId, password: password)
        observer.withLock { $0 }?(userId, response)
        return response
    }

    private func answer(userId: String, password: Secret) -> LogonResponse {
        if faults.faults.serverError {
            faults.triggered("server error: Q2 Core answers HTTP 500")
            return LogonResponse(status: 500, q2token: nil, userData: nil, hydraCode: HydraCode.serverError,
                                 message: "internal server error")
        }
        guard !userId.isEmpty, !password.isEmpty else {
            return LogonResponse(status: 400, q2token: nil, userData: nil, hydraCode: HydraCode.missingField,
                                 message: "userId and password are required")
        }
        let now = clock.now
        let policy = lockout
        let hash = hash(of: userId)
        do {
            // The lock check, the password check and the count are one transaction (two processes at once).
            let refused = try store.updateUser(tenant: tenant, username: userId) { counters -> LogonResponse? in
                counters.unlockIfDue(at: now)
                if let until = counters.lockedUntil {
                    return LogonResponse(status: 423, q2token: nil, userData: nil, hydraCode: HydraCode.lockedOut,
                                         message: "the user is locked out for another \(LockoutPolicy.spell(now.duration(to: until)))")
                }
                guard let hash, hash.matches(password) else {
                    guard let left = counters.countFailure(policy: policy, now: now) else {
                        return LogonResponse(status: 423, q2token: nil, userData: nil, hydraCode: HydraCode.lockedOut,
                                             message: "too many failed logins: the user is locked out for \(LockoutPolicy.spell(policy.lockDuration))")
                    }
                    return LogonResponse(status: 401, q2token: nil, userData: nil, hydraCode: HydraCode.invalidCredentials,
                                         message: "invalid user id or password (\(left) \(left == 1 ? "attempt" : "attempts") left)")
                }
                counters.failures = 0
                return nil
            }
            if let refused { return refused }
        } catch {
            return LogonResponse(status: 500, q2token: nil, userData: nil, hydraCode: HydraCode.serverError,
                                 message: "Q2 Core's store failed: \(error.description)")
        }
        var token = Array(Base64URL.encode(random.bytes(24)).utf8)
        let userData: [String: JSONValue] = [
            "userId": .string(userId), "firstName": .string(userId.prefix(1).uppercased() + userId.dropFirst()),
            "customerType": .string("retail"),
            "accounts": .array([
                .object(["id": .string("CHK-\(Hex.encode(random.bytes(2)))"), "type": .string("checking"), "balance": .number(1250.75)]),
                .object(["id": .string("SAV-\(Hex.encode(random.bytes(2)))"), "type": .string("savings"), "balance": .number(8400)]),
            ]),
        ]
        return LogonResponse(status: 200, q2token: Secret(consuming: &token), userData: userData, hydraCode: nil, message: "OK")
    }
}


// Core is a server: a dump of the module's context that holds it (an app's debug log) shows which server, never its
// users, salts or sessions.
extension Q2CoreServer: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
