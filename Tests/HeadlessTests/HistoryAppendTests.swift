import FlowRecords
import StateStore
import Testing

/// What a call that cannot be stopped does after its flow was cancelled and recorded is added to that flow's entry
/// in the state file, numbered after its own events; a flow pruned meanwhile takes nothing.
@Suite struct HistoryAppendTests {
    func event(_ sequence: Int, _ step: String, detail: String = "") -> RecordedEvent {
        RecordedEvent(sequence: sequence, step: step, from: "KSSIDP", to: "App", thread: "KSSIDP", time: "2030-01-01T00:00:00.000Z",
                      duration: nil, status: nil, detail: detail)
    }

    @Test func eventsAppendedFollowTheFlowsOwnAndReadBack() throws {
        let state = try StateFile(path: freshStatePath())
        let summary = HistorySummary(id: 0, time: "2030-01-01T00:00:00.000Z", flow: "legacy-activate", user: "alice",
                                     outcome: .cancelled, status: "USER_CANCEL", duration: 5)
        let id = try state.history.record(HistoryRecord(summary: summary, resultJSON: "{}", events: [event(1, "Start"), event(2, "cancel")]))
        try state.history.append([event(1, "POST /token"), event(2, "KssIdpWrapper.activate", detail: "after the cancel")], toFlow: id)
        let record = try #require(try StateFile(path: state.path).history.record(id: id))
        #expect(record.events.map(\.step) == ["Start", "cancel", "POST /token", "KssIdpWrapper.activate"])
        #expect(record.events.map(\.sequence) == [1, 2, 3, 4])
        #expect(record.events.last?.detail == "after the cancel")
    }

    /// A flow the policy removed meanwhile takes nothing, and nothing fails; the flow kept takes its events.
    @Test func aPrunedFlowTakesNothing() throws {
        let state = try StateFile(path: freshStatePath())
        let summary = HistorySummary(id: 0, time: "2030-01-01T00:00:00.000Z", flow: "legacy-activate", user: nil,
                                     outcome: .cancelled, status: "USER_CANCEL", duration: 5)
        let first = try state.history.record(HistoryRecord(summary: summary, resultJSON: "{}", events: [event(1, "cancel")]))
        let second = try state.history.record(HistoryRecord(summary: summary, resultJSON: "{}", events: [event(1, "cancel")]))
        _ = try state.prune(setting: Retention(flows: 1, days: 0))
        #expect(try state.history.record(id: first) == nil)
        try state.history.append([event(1, "late")], toFlow: first)
        #expect(try state.history.record(id: first) == nil, "not brought back")
        try state.history.append([event(1, "late")], toFlow: second)
        #expect(try state.history.record(id: second)?.events.map(\.step) == ["cancel", "late"])
    }

    /// The in-memory history (`--ephemeral`) appends as the file does.
    @Test func theMemoryHistoryAppendsAfterTheFlowsOwnEvents() throws {
        let history = MemoryFlowHistory()
        let summary = HistorySummary(id: 0, time: "2030-01-01T00:00:00.000Z", flow: "legacy-login", user: nil,
                                     outcome: .cancelled, status: "USER_CANCEL", duration: 5)
        let id = try history.record(HistoryRecord(summary: summary, resultJSON: "{}", events: [event(1, "Start"), event(2, "cancel")]))
        try history.append([event(1, "POST /token"), event(2, "KssIdpWrapper.login")], toFlow: id)
        let record = try #require(try history.record(id: id))
        #expect(record.events.map(\.sequence) == [1, 2, 3, 4])
        #expect(record.events.map(\.step) == ["Start", "cancel", "POST /token", "KssIdpWrapper.login"])
        try history.append([event(1, "late")], toFlow: id + 1)
        #expect(try history.record(id: id + 1) == nil)
    }
}
