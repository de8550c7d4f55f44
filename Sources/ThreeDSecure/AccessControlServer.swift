import Crypto
import Determinism
import Foundation
import Secrets
import Threading

/// The simulated directory server and issuer ACS: answers AReqs from the card catalogue and runs challenge
/// rounds (CReq/CRes) to a final result, with every wait on the simulation clock.
public final class AccessControlServer: Sendable {
    public static let messageVersion = "2.2.0"

    private let cards: [String: TestCard]
    private let policy: ChallengePolicy
    /// The protocol's timers (the 3DS Method, the lookup, the first CReq), on ``clock``.
    public let timers: ThreeDSTimers
    private let clock: any SimulationClock
    private let random: RandomSource
    private let state = Locked([String: Challenge]())

    public init(cards: [TestCard] = CardCatalog.defaults, policy: ChallengePolicy = ChallengePolicy(),
                timers: ThreeDSTimers = ThreeDSTimers(), clock: any SimulationClock, random: RandomSource) {
        self.cards = Dictionary(cards.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        self.policy = policy
        self.timers = timers
        self.clock = clock
        self.random = random
    }

    /// How long a challenge may stay open once its first CReq came (`payments.challenge.timeoutSeconds`).
    public var challengeLimit: Duration { policy.timeout }

    /// The card the issuer knows under this number, if any.
    public func card(_ number: CardNumber) -> TestCard? { cards[number.digits] }

    // MARK: AReq → ARes

    /// The ARes to `request`, after the lookup's timer for a card whose lookup times out: the Drops page's payment
    /// awaits it holding no thread.
    public func authenticate(_ request: AuthenticationRequest) async throws(DirectoryServerError) -> AuthenticationResponse {
        let (response, wait) = try answer(request)
        await clock.sleep(for: wait)
        return response
    }

    /// The ARes to `request`, and how long it comes after (the lookup's timer, for a card whose lookup times out).
    private func answer(_ request: AuthenticationRequest) throws(DirectoryServerError) -> (AuthenticationResponse, wait: Duration) {
        guard request.amountMinorUnits > 0 else { throw .invalidAmount }
        guard Currency(code: request.currency) != nil else { throw .invalidCurrency(request.currency) }
        guard (1...12).contains(request.expiryMonth) else { throw .invalidExpiry }
        let dsTransID = identifier()
        let acsTransID = identifier()
        let brand = request.card.brand
        func response(_ status: TransStatus?, _ reason: TransStatusReason? = nil, enrolled: Enrollment = .enrolled,
                      error: ProtocolError? = nil, challenge: ChallengeScreen? = nil) -> AuthenticationResponse {
            let answered = enrolled == .enrolled
            return AuthenticationResponse(
                threeDSServerTransID: request.threeDSServerTransID, dsTransID: answered || error?.errorComponent == .directoryServer ? dsTransID : nil,
                acsTransID: answered ? acsTransID : nil, messageVersion: Self.messageVersion, enrolled: enrolled,
                transStatus: status, transStatusReason: reason,
                eci: status == .challengeRequired ? nil : brand.eci(for: status ?? .couldNotBePerformed),
                authenticationValue: status.flatMap { proof(for: $0) }, acsChallengeMandated: status == .challengeRequired ? "Y" : nil,
                threeDSCompInd: request.methodCompletion, signatureVerification: answered ? "Y" : nil, error: error,
                challenge: challenge)
        }
        if isExpired(month: request.expiryMonth, year: request.expiryYear) { return (response(.notAuthenticated, .expiredCard), .zero) }
        guard let card = cards[request.card.digits] else {
            return (response(.couldNotBePerformed, .cardholderNotEnrolledInService), .zero)
        }
        switch card.scenario {
        case .frictionless(let status, let reason):
            return (response(status, reason), .zero)
        case .lookup(let outcome):
            return (response(nil, enrolled: outcome.enrolled, error: outcome.error), outcome == .timeout ? timers.lookup : .zero)
        case .challenge(let design):
            let challenge = Challenge(
                acsTransID: acsTransID, card: request.card, design: design, merchant: request.merchantName,
                amount: Self.format(request.amountMinorUnits, request.currency), attemptsLeft: policy.attempts,
                resendsLeft: policy.resends, shownCode: policy.shownCode)
            state.withLock { $0[acsTransID] = challenge }
            // Until the first CReq comes, only its own timer runs (EMV 3DS: 30 s, then challengeCancel 05).
            let timer = clock.schedule(after: timers.firstCReq) { [weak self] in
                self?.timeOut(acsTransID, .transactionTimedOutAtACS, .firstCReqNotReceived)
            }
            state.withLock { $0[acsTransID]?.timer = timer }
            return (response(.challengeRequired, challenge: challenge.screen(message: nil)), .zero)
        }
    }

    // MARK: CReq → CRes

    /// The 3DS SDK's first CReq, which carries no answer: the CRes holds the first screen. It stops the
    /// first-CReq timer and starts the challenge's own limit (10 minutes, challengeCancel 04).
    public func start(_ acsTransID: String) throws(DirectoryServerError) -> ChallengeResponse {
        try exchange(acsTransID) { challenge in .screen(challenge.screen(message: nil)) }
    }

    /// A CReq with the cardholder's answer.
    public func challenge(_ acsTransID: String, _ answer: ChallengeAnswer) throws(DirectoryServerError) -> ChallengeResponse {
        try exchange(acsTransID) { challenge in
            if answer.isAuthenticationAttempt { challenge.interactions += 1 }
            if challenge.design.endsInError {
                return finish(&challenge, .couldNotBePerformed, .acsTechnicalIssue, cancel: .transactionError,
                              error: .transientFailure(.acs, detail: "the ACS failed while authenticating"))
            }
            return respond(&challenge, to: answer)
        }
    }

    /// One CReq/CRes round: a final challenge answers every CReq with its result.
    private func exchange(_ acsTransID: String, _ body: (inout Challenge) -> ChallengeResponse) throws(DirectoryServerError) -> ChallengeResponse {
        let (response, firstTimer): (ChallengeResponse?, ScheduledTimer?) = state.withLock { challenges in
            guard var challenge = challenges[acsTransID] else { return (nil, nil) }
            defer { challenges[acsTransID] = challenge }
            if let result = challenge.result { return (.completed(result), nil) }
            var first: ScheduledTimer?
            if !challenge.started {
                challenge.started = true
                first = challenge.timer
                challenge.timer = nil
            }
            return (body(&challenge), first)
        }
        guard let response else { throw .unknownTransaction(acsTransID) }
        if let firstTimer {
            firstTimer.cancel()
            if case .screen = response {
                let timer = clock.schedule(after: policy.timeout) { [weak self] in
                    self?.timeOut(acsTransID, .transactionTimedOutAtACS, .timedOutAtACS)
                }
                state.withLock { $0[acsTransID]?.timer = timer }
            }
        }
        if case .completed = response { state.withLock { $0[acsTransID]?.timer?.cancel() } }
        return response
    }

    /// The 3DS SDK's Erro for this challenge (the ACS could not be reached, or its CRes could not be read): the
    /// challenge ends U with challengeCancel 06 and the error, and its timers stop.
    @discardableResult
    public func abandon(_ acsTransID: String, error: ProtocolError) -> AuthenticationResult? {
        let result = state.withLock { challenges -> AuthenticationResult? in
            guard var challenge = challenges[acsTransID] else { return nil }
            defer { challenges[acsTransID] = challenge }
            if challenge.result == nil {
                _ = finish(&challenge, .couldNotBePerformed, .acsTechnicalIssue, cancel: .transactionError, error: error)
            }
            return challenge.result
        }
        state.withLock { $0[acsTransID]?.timer?.cancel() }
        return result
    }

    /// Waits for the challenge to end on its own (a timer), for a CReq that never arrived: the result once final.
    /// Suspends on the simulation clock, holding no thread.
    public func awaitResult(_ acsTransID: String, within limit: Duration) async -> AuthenticationResult? {
        if let result = result(acsTransID) { return result }
        await clock.sleep(for: limit)
        return result(acsTransID)
    }

    /// The cardholder approves (or refuses) the payment on their other device, for an out-of-band challenge.
    public func decideOutOfBand(_ acsTransID: String, approve: Bool) {
        state.withLock { $0[acsTransID]?.outOfBandDecision = approve }
    }

    /// The final result of a challenge (the RReq), once it has one.
    public func result(_ acsTransID: String) -> AuthenticationResult? {
        state.withLock { $0[acsTransID]?.result }
    }

    /// Challenges still open, for leak checks.
    public var openChallengeCount: Int { state.withLock { $0.values.filter { $0.result == nil }.count } }

    // MARK: Rules

    private func respond(_ challenge: inout Challenge, to answer: ChallengeAnswer) -> ChallengeResponse {
        switch answer {
        case .cancel:
            // EMV 3DS requires a reason with N and U: for a cancel, authentication not performed by the cardholder.
            return finish(&challenge, .notAuthenticated, .attemptedButNotPerformedByCardholder, cancel: .cardholderSelectedCancel)
        case .unsupportedInterface:
            return finish(&challenge, .couldNotBePerformed, .unsupportedDevice, cancel: .transactionError)
        case .timedOutAtSDK:
            return finish(&challenge, .notAuthenticated, .transactionTimedOutAtACS, cancel: .timedOutAtSDK)
        case .transactionError:
            // Nothing is known of the cardholder: authentication could not be performed.
            return finish(&challenge, .couldNotBePerformed, .invalidTransaction, cancel: .transactionError)
        case .resend:
            guard challenge.design.uiType == .text else { return refuse(&challenge, "this challenge has no code to resend") }
            guard challenge.resendsLeft > 0 else {
                return refuse(&challenge, "no more codes can be sent; enter the last one or cancel")
            }
            challenge.resendsLeft -= 1
            var screen = challenge.screen(message: "a new code was sent")
            screen.messageWarns = false
            return .screen(screen)
        case .code(let code):
            guard challenge.design.uiType == .text else { return refuse(&challenge, "this challenge takes no code") }
            return judge(&challenge, correct: code == policy.oneTimeCode, wrong: "wrong code")
        case .select(let chosen):
            guard challenge.design.uiType == .singleSelect || challenge.design.uiType == .multiSelect else {
                return refuse(&challenge, "this challenge has nothing to select")
            }
            if challenge.design.uiType == .singleSelect && chosen.count != 1 {
                return refuse(&challenge, "choose exactly one")
            }
            return judge(&challenge, correct: chosen == challenge.design.correctOptions, wrong: "that is not the right choice")
        case .continueOutOfBand:
            guard challenge.design.uiType == .outOfBand else { return refuse(&challenge, "this challenge is not out-of-band") }
            switch challenge.outOfBandDecision {
            case true?: return finish(&challenge, challenge.design.outcome, challenge.design.outcomeReason, cancel: nil)
            case false?: return finish(&challenge, .notAuthenticated, .cardAuthenticationFailed, cancel: nil)
            case nil: return refuse(&challenge, "the payment is not approved on the other device yet")
            }
        }
    }

    /// An answer the challenge cannot take: the screen again, saying why, until too many such answers end it.
    private func refuse(_ challenge: inout Challenge, _ why: String) -> ChallengeResponse {
        challenge.refused += 1
        guard challenge.refused < policy.refusedAnswers else {
            return finish(&challenge, .notAuthenticated, .exceedsACSMaximumChallenges, cancel: nil)
        }
        // How many more end it, from the first: the fourth and fifth refusals went by with no count, and the eighth
        // press of Resend ended a challenge whose attempts were all left (a tester).
        let left = policy.refusedAnswers - challenge.refused
        return .screen(challenge.screen(message: "\(why) (\(left == 1 ? "1 more such answer ends" : "\(left) more such answers end") the challenge)"))
    }

    private func judge(_ challenge: inout Challenge, correct: Bool, wrong: String) -> ChallengeResponse {
        if correct { return finish(&challenge, challenge.design.outcome, challenge.design.outcomeReason, cancel: nil) }
        challenge.attemptsLeft -= 1
        guard challenge.attemptsLeft > 0 else {
            return finish(&challenge, .notAuthenticated, .exceedsACSMaximumChallenges, cancel: nil)
        }
        var screen = challenge.screen(message: "\(wrong); \(ChallengeScreen.left(challenge.attemptsLeft, "attempt"))")
        screen.messageCountsAttempts = true
        return .screen(screen)
    }

    private func finish(_ challenge: inout Challenge, _ status: TransStatus, _ reason: TransStatusReason?,
                        cancel: ChallengeCancel?, error: ProtocolError? = nil) -> ChallengeResponse {
        let result = AuthenticationResult(
            acsTransID: challenge.acsTransID, transStatus: status, transStatusReason: reason,
            eci: challenge.card.brand.eci(for: status), authenticationValue: proof(for: status),
            challengeCancel: cancel, interactionCounter: challenge.interactions, error: error)
        challenge.result = result
        return .completed(result)
    }

    private func timeOut(_ acsTransID: String, _ reason: TransStatusReason, _ cancel: ChallengeCancel) {
        state.withLock { challenges in
            guard var challenge = challenges[acsTransID], challenge.result == nil,
                cancel != .firstCReqNotReceived || !challenge.started
            else { return }
            _ = finish(&challenge, .notAuthenticated, reason, cancel: cancel)
            challenges[acsTransID] = challenge
        }
    }

    // MARK: Values

    /// Whether a card with this expiry is past it on the simulation clock (the issuer then answers N, reason 05).
    public func isExpired(month: Int, year: Int) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let now = calendar.dateComponents([.year, .month], from: clock.now.date)
        let fullYear = year < 100 ? 2000 + year : year
        guard let currentYear = now.year, let currentMonth = now.month else { return false }
        return fullYear < currentYear || (fullYear == currentYear && month < currentMonth)
    }

    /// A CAVV stand-in: 20 random bytes, base64, for Y and A only.
    private func proof(for status: TransStatus) -> String? {
        guard status == .authenticated || status == .attempted else { return nil }
        return Data(random.bytes(20)).base64EncodedString()
    }

    /// A UUID-shaped id from the seeded source.
    private func identifier() -> String { Hex.uuid(random.bytes(16)) }

    /// An amount as screens show it, e.g. "EUR 49.99".
    public static func format(_ minorUnits: Int, _ currency: String) -> String {
        "\(currency) \(minorUnits / 100).\(String(format: "%02d", minorUnits % 100))"
    }
}

/// One open (or finished) challenge.
private struct Challenge: Sendable {
    let acsTransID: String
    let card: CardNumber
    let design: ChallengeDesign
    let merchant: String
    let amount: String
    var attemptsLeft: Int
    var resendsLeft: Int
    let shownCode: String?
    var interactions = 0
    var refused = 0
    /// Whether the first CReq has come.
    var started = false
    var outOfBandDecision: Bool?
    var result: AuthenticationResult?
    var timer: ScheduledTimer?

    func screen(message: String?) -> ChallengeScreen {
        var screen = ChallengeScreen(
            uiType: design.uiType, issuerName: "Simulated \(card.brand.rawValue) Issuer", merchantName: merchant,
            amount: amount, maskedCard: card.description, prompt: design.prompt, options: design.options,
            attemptsLeft: attemptsLeft, resendsLeft: resendsLeft, message: message)
        // Shown only for idp-tui's own published cards (docs/payer-authentication.md): a scenario's own card's answer
        // is its secret, as its one-time code is (bank-qa's "Where were you born?" showed it).
        let expected = design.correctOptions.sorted().compactMap { design.options.indices.contains($0) ? design.options[$0] : nil }
        let published = CardCatalog.defaults.contains { $0.number == card.digits && $0.scenario == .challenge(design) }
        if !expected.isEmpty, published { screen.expectedChoice = expected.joined(separator: " and ") }
        if design.uiType == .text { screen.shownCode = shownCode }
        return screen
    }
}

// The ACS is the issuer's server: a dump of a Drops view that reaches it (an app's debug log) shows which server,
// never its cards, their challenges or the transactions it holds open.
extension AccessControlServer: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
