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

/// The end of a flow: its outcome, a status name, the step and error, and what its family adds.
public struct FlowResult: Sendable, Encodable {
    public let flowID: Int
    public let flow: FlowKind
    public let outcome: FlowOutcome
    /// `OK`, a status name of the SDK, or one of the simulator's own (docs/sdk-names.md).
    public let status: String
    /// The step that failed or was cancelled.
    public let failedStep: FlowStep?
    public let error: FlowError?
    public let duration: Duration
    /// What to try next, in plain words, when the flow did not succeed.
    public let advice: String?
    /// The family's own parts: ``detail(_:)`` finds one by type.
    public var details: [any FlowResultDetail]

    public init(
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

    /// The family's detail of type `T`, if the result has one.
    public func detail<T: FlowResultDetail>(_ type: T.Type) -> T? {
        details.lazy.compactMap { $0 as? T }.first
    }

    /// Replaces (or adds) the detail of type `T`.
    public mutating func set<T: FlowResultDetail>(_ detail: T) {
        details.removeAll { $0 is T }
        details.append(detail)
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
    /// Nobody answered a prompt before the timeout.
    public static let promptTimeout = "PROMPT_TIMEOUT"
    /// What to do after a prompt timed out.
    public static let promptTimeoutAdvice = "Answer the prompt sooner, or allow more time with --prompt-timeout."
}
