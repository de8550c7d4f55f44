import Determinism
import IdentityProvider
import Threading

/// What a device keeps between runs of the app.
public struct PersistedDevice: Sendable, Equatable {
    public var deviceID: String
    public var activation: Activation?
    /// The online session of the last login; a restart (logout) ends it.
    public var accessTokenHash: [UInt8]?
    /// Left by an online login with a local authentication mode; a restart keeps it for OfflineLogin.
    public var offlineToken: OfflineToken?

    public struct Activation: Sendable, Equatable {
        public var user: KsUserIdentifier
        public var astClientId: String
        public var authenticationMode: KSMAuthenticationMode

        public init(user: KsUserIdentifier, astClientId: String, authenticationMode: KSMAuthenticationMode) {
            self.user = user
            self.astClientId = astClientId
            self.authenticationMode = authenticationMode
        }
    }

    /// Tokens are kept only as SHA-256 hashes.
    public struct OfflineToken: Sendable, Equatable {
        public var hash: [UInt8]
        public var expiresAt: SimulationInstant

        public init(hash: [UInt8], expiresAt: SimulationInstant) {
            self.hash = hash
            self.expiresAt = expiresAt
        }
    }

    public init(deviceID: String, activation: Activation? = nil, accessTokenHash: [UInt8]? = nil, offlineToken: OfflineToken? = nil) {
        self.deviceID = deviceID
        self.activation = activation
        self.accessTokenHash = accessTokenHash
        self.offlineToken = offlineToken
    }
}

/// Where a master controller keeps its device between runs. Each call is one transaction.
public protocol DeviceStore: Sendable {
    func load() throws(StoreFailure) -> PersistedDevice?
    func update<T>(_ body: (inout PersistedDevice?) -> T) throws(StoreFailure) -> T
}

/// A device that lives as long as the process (`--ephemeral`, tests).
public final class MemoryDeviceStore: DeviceStore {
    private let device = Locked<PersistedDevice?>(nil)

    public init() {}

    public func load() throws(StoreFailure) -> PersistedDevice? { device.withLock { $0 } }

    public func update<T>(_ body: (inout PersistedDevice?) -> T) throws(StoreFailure) -> T {
        device.withLock { body(&$0) }
    }
}
