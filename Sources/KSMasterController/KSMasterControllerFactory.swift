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
/// ``SimulatedWorld/withWorld(scenarioFile:seed:isolation:_:)``, gets a device of that world). After
/// ``releaseMasterController()`` the next call makes a new controller of the same device, which keeps its
/// activation, as a phone keeps it. `consumer` hears the events the controller sends
/// unasked (a `KSMErrorRuntimeEvent` before it restarts itself), on the controller's queue. The label keeps the
/// vendor's spelling (`withParmeter`).
public enum KSMasterControllerFactory {
    /// A world's device, held weakly: a world that is gone is never taken for the current one, even when a new world
    /// is made at its address (compared by address, a controller of a world two `use()` calls back came back as a new
    /// world's, activated and talking to the old IdP). The device (its id, store, line onto the world's network)
    /// outlives a release; the controller does not.
    private struct Device: Sendable {
        weak var world: SimulatedWorld?
        let configuration: MasterControllerConfiguration
        var controller: MCSDK?
    }

    /// One for each world that lives: tests that run side by side, each in a world of its own, get a device each.
    private static let shared = Locked<[Device]>([])

    public static func getMasterController(withParmeter param: String, andConsumer consumer: any KSAsyncEventReceiver) -> MCSDK? {
        let world = SimulatedWorld.current
        let made = UncheckedSendable(consumer)
        return shared.withLock { shared in
            shared.removeAll { $0.world == nil }
            guard let index = shared.firstIndex(where: { $0.world === world }) else {
                let configuration = MasterControllerConfiguration(world: world)
                let controller = MCSDK(configuration: configuration, consumer: made.value)
                shared.append(Device(world: world, configuration: configuration, controller: controller))
                return controller
            }
            if let controller = shared[index].controller { return controller }
            // Released before: a new controller of the same device, with the consumer given now.
            let controller = MCSDK(configuration: shared[index].configuration, consumer: made.value)
            shared[index].controller = controller
            return controller
        }
    }

    /// Shuts the current world's controller down: from now on it answers each event sent to it with
    /// `KSMInvalidStateEvent`, and the next ``getMasterController(withParmeter:andConsumer:)`` makes a new controller of
    /// the same device (its activation, session and offline token kept, as a phone keeps them; it is sent
    /// `KSMStartEvent` first, as any new controller).
    public static func releaseMasterController() {
        let world = SimulatedWorld.current
        let released = shared.withLock { shared -> MCSDK? in
            shared.removeAll { $0.world == nil }
            guard let index = shared.firstIndex(where: { $0.world === world }) else { return nil }
            defer { shared[index].controller = nil }
            return shared[index].controller
        }
        released?.release()
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
