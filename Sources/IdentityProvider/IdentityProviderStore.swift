import Determinism
import Threading

/// What the IdP remembers about a user between logins: wrong attempts in a row, a lock, a spent activation code.
public struct UserCounters: Sendable, Equatable {
    public var failures = 0
    public var lockedUntil: SimulationInstant?
    public var activationUsed = false

    public init(failures: Int = 0, lockedUntil: SimulationInstant? = nil, activationUsed: Bool = false) {
        self.failures = failures
        self.lockedUntil = lockedUntil
        self.activationUsed = activationUsed
    }

    /// Counts one wrong password or code under `policy`. Returns the attempts left, or nil when this one locked
    /// the user (until `now` plus the policy's lock).
    public mutating func countFailure(policy: LockoutPolicy, now: SimulationInstant) -> Int? {
        failures += 1
        guard failures < policy.maxFailures else {
            lockedUntil = now.advanced(by: policy.lockDuration)
            return nil
        }
        return policy.maxFailures - failures
    }

    public mutating func unlockIfDue(at now: SimulationInstant) {
        if let until = lockedUntil, until <= now {
            lockedUntil = nil
            failures = 0
        }
    }
}

/// A device the IdP activated: which user, tenant and device an AST client id belongs to.
public struct DeviceBinding: Sendable, Equatable {
    public let username: String
    public let tenant: String
    public let deviceID: String

    public init(username: String, tenant: String, deviceID: String) {
        self.username = username
        self.tenant = tenant
        self.deviceID = deviceID
    }
}

/// Where the IdP keeps what must outlive a process: users' counters and locks, device bindings, and the
/// instant it first started (activation codes count their validity from it). Each method is one
/// transaction; ``updateUser(tenant:username:_:)`` is a read-modify-write that two processes cannot interleave.
public protocol IdentityProviderStore: Sendable {
    func user(tenant: String, username: String) throws(StoreFailure) -> UserCounters
    func updateUser<T>(tenant: String, username: String, _ body: (inout UserCounters) -> T) throws(StoreFailure) -> T
    func binding(astClientId: String) throws(StoreFailure) -> DeviceBinding?
    /// Binds an id that no device holds yet, and returns true; returns false, changing nothing, when one does:
    /// another process on the same state file, started from the same seed, minted the same id first.
    func bindNew(astClientId: String, to binding: DeviceBinding) throws(StoreFailure) -> Bool
    /// The first start, set to `now` on the first call.
    func epoch(orStartAt now: SimulationInstant) throws(StoreFailure) -> SimulationInstant
}

/// The store of one process's memory (`--ephemeral`, and tests).
public final class MemoryIdentityProviderStore: IdentityProviderStore {
    private let state = Locked(State())

    private struct State {
        var users: [String: UserCounters] = [:]
        var bindings: [String: DeviceBinding] = [:]
        var epoch: SimulationInstant?
    }

    public init() {}

    private static func key(_ tenant: String, _ username: String) -> String { "\(tenant)\u{0}\(username)" }

    public func user(tenant: String, username: String) -> UserCounters {
        state.withLock { $0.users[Self.key(tenant, username)] ?? UserCounters() }
    }

    public func updateUser<T>(tenant: String, username: String, _ body: (inout UserCounters) -> T) -> T {
        state.withLock { state in
            var counters = state.users[Self.key(tenant, username)] ?? UserCounters()
            defer { state.users[Self.key(tenant, username)] = counters }
            return body(&counters)
        }
    }

    public func binding(astClientId: String) -> DeviceBinding? {
        state.withLock { $0.bindings[astClientId] }
    }

    public func bindNew(astClientId: String, to binding: DeviceBinding) -> Bool {
        state.withLock { state in
            guard state.bindings[astClientId] == nil else { return false }
            state.bindings[astClientId] = binding
            return true
        }
    }

    public func epoch(orStartAt now: SimulationInstant) -> SimulationInstant {
        state.withLock { state in
            if let epoch = state.epoch { return epoch }
            state.epoch = now
            return now
        }
    }
}
