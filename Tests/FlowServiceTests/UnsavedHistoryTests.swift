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
}
