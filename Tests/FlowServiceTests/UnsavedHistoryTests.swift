import Determinism
import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import IdentityProvider
import Simulation
import Testing

/// A history that cannot write (a full disk): every record fails as the SQLite store's does.
final class FullDiskHistory: FlowHistory {
    func record(_ record: HistoryRecord) throws(StoreFailure) -> Int { throw StoreFailure("the disk holding the state file /x is full") }
    func list(limit: Int) throws(StoreFailure) -> [HistorySummary] { [] }
    func record(id: Int) throws(StoreFailure) -> HistoryRecord? { nil }
    func append(_ events: [RecordedEvent], toFlow id: Int) throws(StoreFailure) { throw StoreFailure("the disk holding the state file /x is full") }
}

/// A history that records flows but cannot add to them afterwards (its disk full by then).
final class FullLaterHistory: FlowHistory {
    private let memory = MemoryFlowHistory()
    func record(_ record: HistoryRecord) throws(StoreFailure) -> Int { try memory.record(record) }
    func list(limit: Int) throws(StoreFailure) -> [HistorySummary] { try memory.list(limit: limit) }
    func record(id: Int) throws(StoreFailure) -> HistoryRecord? { try memory.record(id: id) }
    func append(_ events: [RecordedEvent], toFlow id: Int) throws(StoreFailure) { throw StoreFailure("the disk holding the state file /x is full") }
}

/// A flow whose record could not be written says so in its result (`historyError`, for `run` to end with 74), and
/// in its log as what it is: not a `fault injected`, which a script counts as a fault that bit when none was on.
@Suite struct UnsavedHistoryTests {
    @Test func aFlowTheHistoryCouldNotKeepSaysSoInItsResultAndNotAsAFault() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()), history: FullDiskHistory())
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        let result = try #require(service.run(.logout, with: frontEnd))
        #expect(result.outcome == .success)
        let unsaved = try #require(result.details.lazy.compactMap { $0 as? HistoryNotSavedDetail }.first)
        #expect(unsaved.message == "this flow was not saved to the history: the disk holding the state file /x is full")
        #expect(!result.details.contains { $0 is HistoryEntryDetail })
        let events = frontEnd.events(of: result.flowID)
        #expect(events.contains { $0.step == .historyNotSaved && $0.status == "NOT_SAVED" })
        #expect(!events.contains { $0.step == .fault }, "no fault was on")
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(json.contains(#""historyError":"this flow was not saved to the history"#) && !json.contains("historyId"), "\(json)")
    }

    /// What KSSIDP did after its flow's cancel, not added to the history (the disk full by then), is said in the
    /// live log as a flow not saved is: its status NOT_SAVED, never a fault.
    @Test func whatTheWrapperDidAfterTheCancelNotSavedIsSaid() throws {
        let clock = ManualClock(countingWork: true)
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil),
                                  history: FullLaterHistory())
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        service.environment.world.identityFaults.addedLatency = .seconds(1)
        let flow = service.start(.legacyActivate)
        #expect(service.settle(frontEnd, clock: clock, until: { frontEnd.events.contains { $0.step.rawValue == "KssIdpWrapper.activate" } }))
        service.cancel(flowID: flow)
        let said = { frontEnd.events.contains { $0.step == .historyNotSaved } }
        #expect(service.settle(frontEnd, clock: clock, until: said) || service.drive(frontEnd, until: said))
        let note = try #require(frontEnd.events.first { $0.step == .historyNotSaved })
        #expect(note.status == "NOT_SAVED" && note.flowID == flow)
        #expect(note.detail == "what the call did after the cancel was not added to history entry 1: the disk holding the state file /x is full",
                "\(note.detail)")
    }
}
