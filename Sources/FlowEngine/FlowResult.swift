import FlowRecords

/// An error as a result reports it: an SDK's subsystem and code where there is one.
public struct FlowError: Sendable, Equatable, Encodable {
    public let subsystem: Int?
    public let code: Int?
    public let message: String

    public init(subsystem: Int?, code: Int?, message: String) {
        self.subsystem = subsystem
        self.code = code
        self.message = message
    }
}

/// What a flow's family adds to its result (the device after an IdpSdk flow, a payment's 3-D Secure
/// outcome …), written into the result's JSON beside the engine's fields.
public protocol FlowResultDetail: Sendable {
    func encode(to container: inout KeyedEncodingContainer<FlowResult.Key>) throws
    /// The user the history lists for the flow, if this detail names one.
    var historyUser: String? { get }
}

extension FlowResultDetail {
    public var historyUser: String? { nil }
}

/// The flow's id in the service's history (`idp-tui history show ID`), which a result names beside its
/// `flowId` (the flow's number in this process): written as `historyId`.
public struct HistoryEntryDetail: FlowResultDetail {
    public let id: Int

    public init(id: Int) { self.id = id }

    public func encode(to container: inout KeyedEncodingContainer<FlowResult.Key>) throws {
        try container.encode(id, forKey: FlowResult.Key("historyId"))
    }
}

/// Why the flow is not in the service's history (a full disk): written as `historyError`, in place of
/// `historyId`. `run` then exits 74 once its flows are done (docs/headless.md).
public struct HistoryNotSavedDetail: FlowResultDetail {
    /// Why the store could not write it: "the disk holding the state file … is full".
    public let reason: String
    public var message: String { "this flow was not saved to the history: \(reason)" }

    public init(reason: String) { self.reason = reason }

    public func encode(to container: inout KeyedEncodingContainer<FlowResult.Key>) throws {
        try container.encode(message, forKey: FlowResult.Key("historyError"))
    }
}

extension FlowResult {
    /// What a command's stderr says of a flow the history could not keep (`run`'s, a piped plain session's):
    /// `flow 2 (payer-auth) was not saved to the history: …`; nil when it was kept.
    public var notSavedLine: String? {
        detail(HistoryNotSavedDetail.self).map { "flow \(flowID) (\(flow.rawValue)) was not saved to the history: \($0.reason)" }
    }
}

/// The end of a flow: its outcome, a status name, the step and error, and what its family adds.
///
/// A value, kept in one immutable box: a flow's `async` functions hold a result in their frames at every
/// place they make or pass one, and a box is a pointer where the fields were 144 bytes. With the fields inline,
/// those frames outgrew the task allocator's slabs and each flow made two more allocations on malloc's slow
/// path (docs/performance.md, "Issue 13 again, session 12").
public struct FlowResult: Sendable, Encodable {
    private final class Fields: Sendable {
        let flowID: Int
        let flow: FlowKind
        let outcome: FlowOutcome
        let status: String
        let failedStep: FlowStep?
        let error: FlowError?
        let duration: Duration
        let advice: String?
        let details: [any FlowResultDetail]

        init(
            flowID: Int, flow: FlowKind, outcome: FlowOutcome, status: String, failedStep: FlowStep?, error: FlowError?,
            duration: Duration, advice: String?, details: [any FlowResultDetail]
        ) {
            self.flowID = flowID
            self.flow = flow
            self.outcome = outcome
            self.status = status
            self.failedStep = failedStep
            self.error = error
            self.duration = duration
            self.advice = advice
            self.details = details
        }

        func with(details: [any FlowResultDetail]) -> Fields {
            Fields(flowID: flowID, flow: flow, outcome: outcome, status: status, failedStep: failedStep, error: error,
                   duration: duration, advice: advice, details: details)
        }
    }

    private var fields: Fields

    public var flowID: Int { fields.flowID }
    public var flow: FlowKind { fields.flow }
    public var outcome: FlowOutcome { fields.outcome }
    /// `OK`, a status name of the SDK, or one of the simulator's own (docs/sdk-names.md).
    public var status: String { fields.status }
    /// The step that failed or was cancelled.
    public var failedStep: FlowStep? { fields.failedStep }
    public var error: FlowError? { fields.error }
    public var duration: Duration { fields.duration }
    /// What to try next, in plain words, when the flow did not succeed.
    public var advice: String? { fields.advice }
    /// The family's own parts: ``detail(_:)`` finds one by type.
    public var details: [any FlowResultDetail] {
        get { fields.details }
        set { fields = fields.with(details: newValue) }
    }

    public init(
        flowID: Int, flow: FlowKind, outcome: FlowOutcome, status: String, failedStep: FlowStep?, error: FlowError?,
        duration: Duration, advice: String?, details: [any FlowResultDetail]
    ) {
        fields = Fields(flowID: flowID, flow: flow, outcome: outcome, status: status, failedStep: failedStep, error: error,
                        duration: duration, advice: advice, details: details)
    }

    /// The family's detail of type `T`, if the result has one.
    public func detail<T: FlowResultDetail>(_ type: T.Type) -> T? {
        details.lazy.compactMap { $0 as? T }.first
    }

    /// Replaces (or adds) the detail of type `T`.
    public mutating func set<T: FlowResultDetail>(_ detail: T) {
        details = details.filter { !($0 is T) } + [detail]
    }

    /// The result line's keys: the engine's and the families'.
    public struct Key: CodingKey {
        public let stringValue: String
        public var intValue: Int? { nil }
        public init(_ name: String) { stringValue = name }
        public init?(stringValue: String) { self.stringValue = stringValue }
        public init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(flowID, forKey: Key("flowId"))
        try container.encode(flow, forKey: Key("flow"))
        try container.encode(outcome, forKey: Key("outcome"))
        try container.encode(status, forKey: Key("status"))
        try container.encodeIfPresent(failedStep, forKey: Key("failedStep"))
        try container.encodeIfPresent(error, forKey: Key("error"))
        try container.encode(duration.microseconds, forKey: Key("duration"))
        for detail in details { try detail.encode(to: &container) }
        try container.encodeIfPresent(advice, forKey: Key("advice"))
    }
}

/// The statuses the engine itself reports, beside the SDKs'.
public enum EngineStatus {
    /// The user cancelled (as the MC-SDK's `USER_CANCEL`).
    public static let cancelled = "USER_CANCEL"
    /// The front end aborted the flow because its input could not answer a prompt (``CancelReason/badInput(_:)``).
    public static let abortedBadInput = "ABORTED_BAD_INPUT"
    /// What to do after a flow was aborted for bad input.
    public static let abortedBadInputAdvice = "Give the input the error names (an answer for every prompt the flow asks), then run the flow again."
    /// A signal ended the process before the flow ended (``CancelReason/interrupted(_:)``).
    public static let interrupted = "INTERRUPTED"
    /// What to do after a flow was interrupted.
    public static let interruptedAdvice = "The process was ended by a signal before the flow ended (a CI job's timeout or cancel, say): run the flow again."
    /// Whether `status` ends a flow nobody cancelled: an abort for bad input, or an interrupt (its advice is the
    /// engine's, not the flow's next step).
    public static func isAbort(_ status: String) -> Bool { status == abortedBadInput || status == interrupted }
    /// Nobody answered a prompt before the timeout.
    public static let promptTimeout = "PROMPT_TIMEOUT"
    /// What to do after a prompt timed out.
    public static let promptTimeoutAdvice = "Answer the prompt sooner, or allow more time with --prompt-timeout."
    /// A request a cancel abandoned on its way: its server never got it.
    public static let abandoned = "ABANDONED"
}
