import Secrets

/// The simulated ACS's challenge rules.
public struct ChallengePolicy: Sendable {
    /// Wrong answers allowed before the challenge fails with reason 19.
    public var attempts: Int
    /// New one-time codes the cardholder may ask for.
    public var resends: Int
    /// Answers the ACS may refuse without using an attempt (a code for a select challenge, two choices on a
    /// single-select, continuing before the other device has answered, a resend past the limit) before it ends
    /// the challenge with N and reason 19, so that no client can keep a challenge going by sending them.
    public var refusedAnswers: Int
    /// How long a challenge may stay open before it ends with challengeCancel 04.
    public var timeout: Duration
    /// The one-time code the simulated issuer "sends". A simulator has to tell it: docs and screens name it.
    public var oneTimeCode: Secret

    public init(
        attempts: Int = 3, resends: Int = 3, refusedAnswers: Int = 5, timeout: Duration = .seconds(600),
        oneTimeCode: Secret = Secret("1234")
    ) {
        self.attempts = attempts
        self.resends = resends
        self.refusedAnswers = refusedAnswers
        self.timeout = timeout
        self.oneTimeCode = oneTimeCode
    }
}
