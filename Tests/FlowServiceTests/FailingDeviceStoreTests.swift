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

/// An IdP store whose writes fail once `full` is set.
final class FillingIdentityProviderStore: IdentityProviderStore {
    let full = Locked(false)
    private let memory = MemoryIdentityProviderStore()

    private func check() throws(StoreFailure) {
        if full.withLock({ $0 }) { throw StoreFailure("the disk holding the state file /x is full") }
    }

    func user(tenant: String, username: String) throws(StoreFailure) -> UserCounters { memory.user(tenant: tenant, username: username) }
    func updateUser<T>(tenant: String, username: String, _ body: (inout UserCounters) -> T) throws(StoreFailure) -> T {
        try check()
        return memory.updateUser(tenant: tenant, username: username, body)
    }
    func binding(astClientId: String) throws(StoreFailure) -> DeviceBinding? { memory.binding(astClientId: astClientId) }
    func bindNew(astClientId: String, to binding: DeviceBinding) throws(StoreFailure) -> Bool {
        try check()
        return memory.bindNew(astClientId: astClientId, to: binding)
    }
    func epoch(orStartAt now: SimulationInstant) throws(StoreFailure) -> SimulationInstant { memory.epoch(orStartAt: now) }
}

@Suite struct FailingDeviceStoreTests {
    /// A login the IdP's own store failed (HTTP 500, no fault on) is not told to turn the server-error fault off.
    @Test func anIdPStoreFailureIsNotBlamedOnAFault() throws {
        let idp = FillingIdentityProviderStore()
        let stores = SimulationStores(identityProvider: idp, device: MemoryDeviceStore(), startOver: "starting again")
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock(), seed: 1, stores: stores))
        #expect(service.run(.activate, with: RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice]))?.outcome == .success)
        idp.full.withLock { $0 = true }
        let login = try #require(service.run(.login, with: RecordingFrontEnd.answering([Demo.alice])))
        #expect(login.outcome == .failure)
        #expect(login.error?.message.contains("is full") == true, "\(login.error?.message ?? "")")
        let advice = try #require(login.advice)
        #expect(!advice.contains("server-error fault"), "\(advice)")
        #expect(advice.contains("with no fault on"), "\(advice)")
    }

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
