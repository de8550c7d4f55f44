/// What a flow asks the front end: a credential form, the card form, a challenge screen … Each flow family
/// declares its own kinds; a front end switches on the type it knows how to show.
public protocol PromptRequest: Sendable {
    /// Whether `answer` answers this request (a cancel answers every request).
    func accepts(_ answer: PromptAnswer) -> Bool
    /// The prompt's title in `flow`, e.g. "Activate device — step 2 of 2".
    func title(in flow: FlowKind) -> String
}

/// A request from a flow to the front end, waiting for its ``PromptAnswer``.
public struct FlowPrompt: Sendable, Identifiable {
    public let id: Int
    public let flowID: Int
    public let flow: FlowKind
    public let request: any PromptRequest

    public init(id: Int, flowID: Int, flow: FlowKind, request: any PromptRequest) {
        self.id = id
        self.flowID = flowID
        self.flow = flow
        self.request = request
    }

    /// Which flow and which step asked.
    public var title: String { request.title(in: flow) }
}

/// How a front end answers a prompt: a value that fits the prompt's request (credentials, the card form's
/// details, a cardholder's action …; the families name them), or a cancel, with its reason.
public struct PromptAnswer: Sendable {
    /// The answer's value; nil for a cancel.
    public let value: (any Sendable)?
    /// Why the prompt was cancelled; nil for an answer.
    public let cancelReason: CancelReason?

    public init(_ value: any Sendable) {
        self.value = value
        cancelReason = nil
    }

    private init(cancelledFor reason: CancelReason) {
        value = nil
        cancelReason = reason
    }

    /// The user cancelled: the flow's family decides what that does at this prompt.
    public static let cancel = PromptAnswer(cancelledFor: .user)

    /// A cancel for `reason`: ``CancelReason/badInput(_:)`` when the front end's input cannot answer the prompt.
    public static func cancel(_ reason: CancelReason) -> PromptAnswer { PromptAnswer(cancelledFor: reason) }

    public var isCancel: Bool { value == nil }

    /// The value, when it is a `T`.
    public func value<T: Sendable>(as type: T.Type) -> T? { value as? T }
}

/// How a prompt was resolved.
public enum PromptResolution: Sendable {
    /// Answered with an answer that fits the prompt (never a cancel).
    case answered(PromptAnswer)
    /// Cancelled, for the reason the front end gave (the flow's, when its flow was cancelled).
    case cancelled(CancelReason)
    case timedOut

    /// The answer's value, when the prompt was answered with a `T`.
    public func answer<T: Sendable>(as type: T.Type) -> T? {
        if case .answered(let answer) = self { return answer.value(as: type) }
        return nil
    }

    /// Why the prompt was cancelled; nil when it was not.
    public var cancelReason: CancelReason? {
        if case .cancelled(let reason) = self { return reason }
        return nil
    }
}
