import Crypto
import Determinism
import Secrets

// What the IdP holds while it runs: sessions, codes, users (hashes only), observers.

struct UserKey: Hashable {
    let tenant: String
    let username: String
}

/// A user as the scenario gives it: hashes only. What changes (counters, locks) is in the store.
struct UserRecord {
    var password: StoredHash
    var activation: ActivationRecord?
}

struct ActivationRecord {
    var hash: StoredHash
    /// From the store's epoch: the first start of the IdP on this state.
    var validFor: Duration
}

/// What the IdP knows of a tenant beside its users.
struct TenantSettings {
    let expectsHashedPins: Bool
    let usernameFirst: Bool
}

struct LoginSession {
    let id: String
    let tenant: String
    let client: KnownClient
    /// The form's pages, by the client and the tenant.
    let pages: [[FormField]]
    let codeChallenge: String
    let claims: ClientData
    let expiresAt: SimulationInstant
    var page = 0
    var username: String?

    var form: LoginForm {
        LoginForm(sessionID: id, fields: pages[page], page: page + 1, pageCount: pages.count)
    }
}

struct Grant {
    let client: KnownClient
    let tenant: String
    let username: String
    let codeChallenge: String
    let deviceID: String
    let astClientId: String
    let expiresAt: SimulationInstant
    var used = false
}

struct IdpState {
    var observers: [Int: @Sendable (IdpTraffic) -> Void] = [:]
    var nextObserver = 0
    var tenants: [String: TenantSettings]
    /// The users of the tenants that have had a login; the others' are made at their first (`user(_:)`).
    private(set) var loadedUsers: [UserKey: UserRecord] = [:]
    private var unloadedUsers: [String: @Sendable () -> [UserKey: UserRecord]]

    init(tenants: [String: TenantSettings], unloadedUsers: [String: @Sendable () -> [UserKey: UserRecord]]) {
        self.tenants = tenants
        self.unloadedUsers = unloadedUsers
    }

    /// The user's record, making its tenant's records first if this is the tenant's first use.
    mutating func user(_ key: UserKey) -> UserRecord? {
        if let load = unloadedUsers.removeValue(forKey: key.tenant) {
            loadedUsers.merge(load()) { first, _ in first }
        }
        return loadedUsers[key]
    }

    mutating func loadEveryTenant() {
        for (_, load) in unloadedUsers { loadedUsers.merge(load()) { first, _ in first } }
        unloadedUsers = [:]
    }
    var sessions: [String: LoginSession] = [:]
    var grants: [String: Grant] = [:]

    /// Sizes above which the next prune runs; doubled after each prune so that pruning stays amortised
    /// O(1) per request however many codes are alive.
    var sessionPruneThreshold = 256
    var grantPruneThreshold = 256

    /// Drops expired login sessions and codes so that a long run does not grow without bound.
    /// Spent codes are kept until they expire, so that a replay is told "already used".
    mutating func pruneExpired(at now: SimulationInstant) {
        if sessions.count > sessionPruneThreshold {
            sessions = sessions.filter { $0.value.expiresAt > now }
            sessionPruneThreshold = max(256, sessions.count * 2)
        }
        if grants.count > grantPruneThreshold {
            grants = grants.filter { $0.value.expiresAt > now }
            grantPruneThreshold = max(256, grants.count * 2)
        }
    }
}
