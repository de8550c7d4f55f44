import Determinism

/// One thing that happened in a flow, in order. Never carries a secret: credential prompts list field
/// ids, never values. A class: an event goes to the mailbox, the transcript and the front end, and copying
/// one is then a single reference count rather than one per text it holds.
public final class FlowEvent: Sendable, Equatable, Encodable {
    public let flowID: Int
    public let flow: FlowKind
    /// Position in the service's single stream of events, from 1.
    public let sequence: Int
    public let step: FlowStep
    public let from: Participant
    public let to: Participant
    /// The thread the event happened on: `main`, or the name of a background queue (`idp-tui.flow`,
    /// `IdpSdk`, `MC-SDK`).
    public let thread: String
    public let mainThread: Bool
    public let time: SimulationInstant
    /// For a result: how long the call took, on the simulation clock.
    public let duration: Duration?
    /// For a result: `OK`, a status name, or an error code.
    public let status: String?
    /// A short, secret-free description.
    public let detail: String
    /// The whole protocol message, as JSON, where the event is one (a 3-D Secure message); secret-free too.
    public let message: String?

    init(
        flowID: Int, flow: FlowKind, sequence: Int, step: FlowStep, from: Participant, to: Participant, thread: String,
        mainThread: Bool, time: SimulationInstant, duration: Duration?, status: String?, detail: String, message: String? = nil
    ) {
        self.flowID = flowID
        self.flow = flow
        self.sequence = sequence
        self.step = step
        self.from = from
        self.to = to
        self.thread = thread
        self.mainThread = mainThread
        self.time = time
        self.duration = duration
        self.status = status
        self.detail = detail
        self.message = message
    }

    public static func == (lhs: FlowEvent, rhs: FlowEvent) -> Bool {
        lhs === rhs
            || (lhs.flowID == rhs.flowID && lhs.flow == rhs.flow && lhs.sequence == rhs.sequence && lhs.step == rhs.step
                && lhs.from == rhs.from && lhs.to == rhs.to && lhs.thread == rhs.thread && lhs.mainThread == rhs.mainThread
                && lhs.time == rhs.time && lhs.duration == rhs.duration && lhs.status == rhs.status && lhs.detail == rhs.detail
                && lhs.message == rhs.message)
    }

    enum CodingKeys: String, CodingKey {
        case flowID = "flowId", flow, sequence, step, from, to, thread, mainThread, time, duration, status, detail, message
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(flowID, forKey: .flowID)
        try container.encode(flow, forKey: .flow)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(step, forKey: .step)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(thread, forKey: .thread)
        try container.encode(mainThread, forKey: .mainThread)
        try container.encode(time.description, forKey: .time)
        try container.encodeIfPresent(duration.map { $0.microseconds }, forKey: .duration)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encode(detail, forKey: .detail)
        try container.encodeIfPresent(message, forKey: .message)
    }
}
