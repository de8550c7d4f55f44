import Crypto
import Determinism
import Dispatch
import IdentityProvider

/// Where a simulated master controller finds its IdP and what it shares with it.
package struct MasterControllerConfiguration: Sendable {
    package var idpUrl: String
    package var network: SimulatedNetwork
    package var random: RandomSource
    /// The key that seals `clientData` for the IdP (``IdentityProvider/clientDataKey``).
    package var clientDataKey: [UInt8]
    /// This device's identity, fixed for its life (a stored device keeps the one it was given first).
    package var deviceID: String
    /// Where the device is kept between runs.
    package var store: any DeviceStore
    /// The faults that bite here: an insecure device, a runtime error.
    package var faults: FaultSwitchboard
    /// How long an offline token lets OfflineLogin work (idp-tui's choice).
    package var offlineTokenLifetime: Duration
    /// The serial queue the controller's own queue (`MC-SDK`) runs on, shared with the app's queues of the same
    /// device so that a call and its completion need no thread hop; nil for a queue of its own.
    package var targetQueue: DispatchQueue?

    package init(
        idpUrl: String, network: SimulatedNetwork, random: RandomSource, clientDataKey: [UInt8], deviceID: String? = nil,
        store: any DeviceStore = MemoryDeviceStore(), faults: FaultSwitchboard = FaultSwitchboard(),
        offlineTokenLifetime: Duration = .seconds(30 * 86_400), targetQueue: DispatchQueue? = nil
    ) {
        self.idpUrl = idpUrl
        self.network = network
        self.random = random
        self.clientDataKey = clientDataKey
        self.deviceID = deviceID ?? Base64URL.encode(random.bytes(12))
        self.store = store
        self.faults = faults
        self.offlineTokenLifetime = offlineTokenLifetime
        self.targetQueue = targetQueue
    }
}

/// What a device's master controller holds, for status lines and tests.
package struct DeviceSnapshot: Sendable, Equatable {
    package var started: Bool
    package var activatedUser: KsUserIdentifier?
    package var astClientId: String
    package var loggedIn: Bool
    package var authenticationMode: KSMAuthenticationMode?
    package var hasOfflineToken: Bool = false
}

extension MasterControllerConfiguration {
    /// The MC-SDK's integrity check, made at each start (StartEvent, RestartEvent): why it refuses to run when the
    /// insecure-device fault is on (the fault noted as triggered), else nil.
    func integrityFailure() -> String? {
        guard faults.faults.insecureDevice else { return nil }
        faults.triggered("insecure device: the MC-SDK's integrity check finds it rooted or jailbroken")
        return "the device is rooted or jailbroken; the MC-SDK does not run on an insecure device"
    }
}
