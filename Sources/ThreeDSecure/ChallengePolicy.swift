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
    /// The one-time code the simulated issuer "sends". A simulator has to tell it: docs and screens name the
    /// published test value (``publishedCode``); a code a scenario sets is its secret, named only as the scenario's.
    public var oneTimeCode: Secret

    /// The test value docs and screens publish, the default code.
    public static let publishedCode = "1234"

    /// The longest one-time code, in bytes: the challenge screen's field, the answers' `otp`, a scenario's
    /// `oneTimeCode` and a ``ScriptedCardholder``'s code all take at most this many.
    public static let codeMaximumBytes = 16

    /// What is wrong with `code` as a one-time code a cardholder can give (empty, too long, a control character);
    /// nil when nothing is. Never the code itself.
    public static func codeProblem(_ code: String) -> String? {
        guard !code.isEmpty, code.utf8.count <= codeMaximumBytes, !code.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return "must be a code of 1 to \(codeMaximumBytes) bytes, without control characters"
        }
        return nil
    }

    /// The code when it is the published test value, for screens to show beside the field; nil when a scenario
    /// set another (a secret: the screens then say where it is set, not what it is).
    public var shownCode: String? { oneTimeCode == Secret(Self.publishedCode) ? Self.publishedCode : nil }

    public init(
        attempts: Int = 3, resends: Int = 3, refusedAnswers: Int = 5, timeout: Duration = .seconds(600),
        oneTimeCode: Secret = Secret(ChallengePolicy.publishedCode)
    ) {
        self.attempts = attempts
        self.resends = resends
        self.refusedAnswers = refusedAnswers
        self.timeout = timeout
        self.oneTimeCode = oneTimeCode
    }
}

/// The EMV 3DS timers the simulation keeps, on the simulation clock. The defaults are the specification's
/// (and Cardinal's lookup timeout); a scenario may shorten them (`payments.timers`), for tests and demos.
public struct ThreeDSTimers: Sendable, Equatable {
    /// How long the 3DS Method (device data collection) may take before the AReq goes with threeDSCompInd N.
    public var method: Duration
    /// How long the 3DS Server waits for an ARes before the lookup ends in Erro 402 (Cardinal's Test Case 8).
    public var lookup: Duration
    /// How long the ACS waits for the first CReq after a C before it ends the challenge (N, reason 14,
    /// challengeCancel 05).
    public var firstCReq: Duration

    public init(method: Duration = .seconds(10), lookup: Duration = .seconds(10), firstCReq: Duration = .seconds(30)) {
        self.method = method
        self.lookup = lookup
        self.firstCReq = firstCReq
    }
}
