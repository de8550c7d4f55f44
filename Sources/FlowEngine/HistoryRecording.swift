import Determinism
import FlowRecords
import Foundation

extension HistoryRecord {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A finished flow's record.
    init(result: FlowResult, user: String?, events: [FlowEvent], startedAt: SimulationInstant) {
        let resultJSON = (try? Self.encoder.encode(result)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        self.init(
            summary: HistorySummary(
                id: 0, time: startedAt.description, flow: result.flow.rawValue, user: user,
                outcome: result.outcome, status: result.status, duration: result.duration.microseconds),
            resultJSON: resultJSON,
            events: events.enumerated().map { RecordedEvent($1, sequence: $0 + 1) })
    }
}

extension FlowEvent {
    /// A recorded event as the live log held it, for a front end that shows a past flow as it shows the log (the
    /// history's transcript); its time read back from its text (the epoch where that cannot be read).
    public convenience init(recorded event: RecordedEvent, flowID: Int, flow: FlowKind) {
        self.init(
            flowID: flowID, flow: flow, sequence: event.sequence, step: FlowStep(event.step), from: Participant(event.from),
            to: Participant(event.to), thread: event.thread, mainThread: event.mainThread ?? false,
            time: SimulationInstant(parsing: event.time) ?? SimulationInstant(nanosecondsSinceEpoch: 0),
            duration: event.duration.map { .microseconds($0) }, status: event.status, detail: event.detail, message: event.message)
    }
}

extension RecordedEvent {
    init(_ event: FlowEvent, sequence: Int) {
        self.init(
            sequence: sequence, step: event.step.rawValue, from: event.from.rawValue, to: event.to.rawValue, thread: event.thread,
            time: event.time.description, duration: event.duration?.microseconds, status: event.status, detail: event.detail,
            message: event.message, mainThread: event.mainThread)
    }
}
