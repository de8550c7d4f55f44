import Determinism
import FlowCatalog
import FlowEngine
import IdentityProvider
import KSMasterController
import Simulation
import Testing
import Threading

/// A device store whose writes fail once `full` is set, as a full disk fails the state file's.
final class FillingDeviceStore: DeviceStore {
    let full = Locked(false)
    private let memory = MemoryDeviceStore()

    func load() throws(StoreFailure) -> PersistedDevice? { try memory.load() }

    func update<T>(_ body: (inout PersistedDevice?) -> T) throws(StoreFailure) -> T {
        if full.withLock({ $0 }) { throw StoreFailure("the disk holding the state file /x is full") }
        return try memory.update(body)
    }
}

@Suite struct FailingDeviceStoreTests {
    /// A logout whose Restart the device's store failed says what failed, as a login does: it said "unexpected
    /// RestartResultEvent", status FAILED, an event-order error that never happened.
    @Test func aLogoutTheStoreFailedSaysSo() throws {
        let device = FillingDeviceStore()
        let stores = SimulationStores(identityProvider: MemoryIdentityProviderStore(), device: device, startOver: "starting again")
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock(), seed: 1, stores: stores))
        #expect(service.run(.activate, with: RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice]))?.outcome == .success)
        device.full.withLock { $0 = true }
        let logout = try #require(service.run(.logout, with: RecordingFrontEnd.answering([])))
        #expect(logout.outcome == .failure)
        #expect(logout.status == StatusType.INTERNAL_ERROR.name, "\(logout.status)")
        #expect(logout.error?.message == "the device's store failed: the disk holding the state file /x is full", "\(logout.error?.message ?? "")")
    }
}
