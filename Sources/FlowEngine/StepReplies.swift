/// Which of a kind's steps answer another by name, beyond a step that comes back as itself (a call's result, a
/// prompt's answer, an HTTP response): a diagram draws an answer dashed and a request solid. Declared by a family
/// with its kind (``FlowKind/replies``): 3-D Secure's ARes answers its AReq, a bridge `ack` its message.
public struct StepReplies: Sendable {
    /// Whether an event of `step` answers an earlier `request`, sent by its receiver to its sender.
    public let answers: @Sendable (_ step: String, _ request: String) -> Bool
    /// Whether an event of `step` may answer its request again, which then stays open (a Drops delegate callback:
    /// Required, then Success).
    public let answersAgain: @Sendable (_ step: String) -> Bool

    public init(
        answers: @escaping @Sendable (_ step: String, _ request: String) -> Bool,
        answersAgain: @escaping @Sendable (_ step: String) -> Bool = { _ in false }
    ) {
        self.answers = answers
        self.answersAgain = answersAgain
    }

    /// Only a step coming back as itself answers.
    public static let none = StepReplies(answers: { _, _ in false })
}
