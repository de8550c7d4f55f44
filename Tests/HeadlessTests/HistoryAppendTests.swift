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
        // A flow that is no longer kept takes nothing, and nothing fails.
        try state.history.append([event(1, "late")], toFlow: id + 1)
        #expect(try state.history.record(id: id + 1) == nil)
    }
}
