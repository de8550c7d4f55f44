import Determinism
import IdentityProvider
import Threading

/// What a device keeps between runs of the app.
package struct PersistedDevice: Sendable, Equatable {
    package var deviceID: String
    package var activation: Activation?
    /// The online session of the last login; a restart (logout) ends it.
    package var accessTokenHash: [UInt8]?
    /// Left by an online login with a local authentication mode; a restart keeps it for OfflineLogin.
    package var offlineToken: OfflineToken?

    package struct Activation: Sendable, Equatable {
        package var user: KsUserIdentifier
        package var astClientId: String
        package var authenticationMode: KSMAuthenticationMode

        package init(user: KsUserIdentifier, astClientId: String, authenticationMode: KSMAuthenticationMode) {
            self.user = user
            self.astClientId = astClientId
            self.authenticationMode = authenticationMode
        }
    }

    /// Tokens are kept only as SHA-256 hashes.
    package struct OfflineToken: Sendable, Equatable {
        package var hash: [UInt8]
        package var expiresAt: SimulationInstant

        package init(hash: [UInt8], expiresAt: SimulationInstant) {
            self.hash = hash
            self.expiresAt = expiresAt
        }
    }

    package init(deviceID: String, activation: Activation? = nil, accessTokenHash: [UInt8]? = nil, offlineToken: OfflineToken? = nil) {
        self.deviceID = deviceID
        self.activation = activation
        self.accessTokenHash = accessTokenHash
        self.offlineToken = offlineToken
    }
}

/// Where a master controller keeps its device between runs. Each call is one transaction.
package protocol DeviceStore: Sendable {
    func load() throws(StoreFailure) -> PersistedDevice?
    func update<T>(_ body: (inout PersistedDevice?) -> T) throws(StoreFailure) -> T
}

/// A device that lives as long as the process (`--ephemeral`, tests).
package final class MemoryDeviceStore: DeviceStore {
    private let device = Locked<PersistedDevice?>(nil)

    package init() {}

    package func load() throws(StoreFailure) -> PersistedDevice? { device.withLock { $0 } }

    package func update<T>(_ body: (inout PersistedDevice?) -> T) throws(StoreFailure) -> T {
        device.withLock { body(&$0) }
    }
}

extension DeviceStore {
    /// Forgets the stored device's session (its access token), as every restart of the MC-SDK does, asked for or
    /// not; returns the device as stored, and whether it had a session.
    func endSession() throws(StoreFailure) -> (device: PersistedDevice?, ended: Bool) {
        try update { device -> (PersistedDevice?, Bool) in
            let ended = device?.accessTokenHash != nil
            device?.accessTokenHash = nil
            return (device, ended)
        }
    }
}
