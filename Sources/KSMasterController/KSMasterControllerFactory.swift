import Dispatch
import IdentityProvider
import IdpTuiWorld
import Threading

/// Makes the app's master controller, as on a device: one per process until it is released.
///
/// ```swift
/// guard let masterController = KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: receiver)
/// else { return }
/// ```
///
/// The controller is the device of ``SimulatedWorld/current``, not activated at first; the device lives as long
/// as that world is the current one (a call after ``SimulatedWorld/use(scenarioFile:seed:)`` makes a device of the
/// new world), or until ``releaseMasterController()``. `consumer` hears the events the controller sends
/// unasked (a `KSMRuntimeErrorEvent` before it restarts itself), on the controller's queue. The label keeps the
/// vendor's spelling (`withParmeter`).
public enum KSMasterControllerFactory {
    /// The controller and the world it is a device of, held weakly: a world that is gone is never taken for the
    /// current one, even when a new world is made at its address (compared by address, a controller of a world two
    /// `use()` calls back came back as a new world's, activated and talking to the old IdP).
    private struct Made: Sendable {
        weak var world: SimulatedWorld?
        let controller: MCSDK
    }

    private static let shared = Locked<Made?>(nil)

    public static func getMasterController(withParmeter param: String, andConsumer consumer: any KSAsyncEventReceiver) -> MCSDK? {
        let world = SimulatedWorld.current
        let made = UncheckedSendable(consumer)
        return shared.withLock { shared in
            if let shared, shared.world === world { return shared.controller }
            let controller = MCSDK(configuration: MasterControllerConfiguration(world: world), consumer: made.value)
            shared = Made(world: world, controller: controller)
            return controller
        }
    }

    /// Shuts the controller down: the next ``getMasterController(withParmeter:andConsumer:)`` makes a new device.
    public static func releaseMasterController() {
        shared.withLock { $0 = nil }
    }
}

extension MasterControllerConfiguration {
    /// A device of `world`, kept in memory: the IdP's URL and client-data key, a line onto the world's network
    /// (`network`, else one of its own), the world's randomness and faults.
    package init(world: SimulatedWorld, store: any DeviceStore = MemoryDeviceStore(), targetQueue: DispatchQueue? = nil,
                 network: SimulatedNetwork? = nil) {
        self.init(
            idpUrl: world.idpUrl, network: network ?? world.network.line(), random: world.random,
            clientDataKey: world.identityProvider.clientDataKey, store: store, faults: world.faults, targetQueue: targetQueue)
    }
}
