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
/// The controller is the device of ``SimulatedWorld/current``, not activated at first: one for each world, as long
/// as that world lives (a call after ``SimulatedWorld/use(scenarioFile:seed:)``, or inside
/// ``SimulatedWorld/withWorld(scenarioFile:seed:isolation:_:)``, gets a device of that world), or until
/// ``releaseMasterController()``. `consumer` hears the events the controller sends
/// unasked (a `KSMErrorRuntimeEvent` before it restarts itself), on the controller's queue. The label keeps the
/// vendor's spelling (`withParmeter`).
public enum KSMasterControllerFactory {
    /// The controller and the world it is a device of, held weakly: a world that is gone is never taken for the
    /// current one, even when a new world is made at its address (compared by address, a controller of a world two
    /// `use()` calls back came back as a new world's, activated and talking to the old IdP).
    private struct Made: Sendable {
        weak var world: SimulatedWorld?
        let controller: MCSDK
    }

    /// One for each world that lives: tests that run side by side, each in a world of its own, get a device each.
    private static let shared = Locked<[Made]>([])

    public static func getMasterController(withParmeter param: String, andConsumer consumer: any KSAsyncEventReceiver) -> MCSDK? {
        let world = SimulatedWorld.current
        let made = UncheckedSendable(consumer)
        return shared.withLock { shared in
            shared.removeAll { $0.world == nil }
            if let held = shared.first(where: { $0.world === world }) { return held.controller }
            let controller = MCSDK(configuration: MasterControllerConfiguration(world: world), consumer: made.value)
            shared.append(Made(world: world, controller: controller))
            return controller
        }
    }

    /// Shuts the current world's controller down: the next ``getMasterController(withParmeter:andConsumer:)`` makes
    /// a new device.
    public static func releaseMasterController() {
        let world = SimulatedWorld.current
        shared.withLock { shared in shared.removeAll { $0.world == nil || $0.world === world } }
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
