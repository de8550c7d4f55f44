import Determinism
import Secrets
import Testing
import ThreeDSecure

/// An ACS on a manual clock, and a helper to send AReqs.
struct ACSHarness {
    let clock = ManualClock()
    let acs: AccessControlServer

    init(policy: ChallengePolicy = ChallengePolicy()) {
        acs = AccessControlServer(policy: policy, clock: clock, random: RandomSource(seed: 5))
    }

    func authenticate(_ number: String, month: Int = 1, year: Int = 2033) throws -> AuthenticationResponse {
        try acs.authenticateWaiting(AuthenticationRequest(
            threeDSServerTransID: "3ds-1", card: try CardNumber(number), expiryMonth: month, expiryYear: year,
            amountMinorUnits: 4999, currency: "EUR", merchantName: "Demo Shop"))
    }

    /// Opens a challenge and returns its acsTransID.
    func open(_ number: String) throws -> String {
        let response = try authenticate(number)
        #expect(response.transStatus == .challengeRequired)
        return try #require(response.acsTransID)
    }

    func answer(_ id: String, _ answer: ChallengeAnswer) throws -> ChallengeResponse {
        try acs.challenge(id, answer)
    }
}

extension ChallengeResponse {
    var result: AuthenticationResult? {
        if case .completed(let result) = self { return result }
        return nil
    }

    var screen: ChallengeScreen? {
        if case .screen(let screen) = self { return screen }
        return nil
    }
}

@Suite struct DefaultCardTests {
    /// Every default card ends as its scenario says, with its brand's ECI.
    @Test(arguments: CardCatalog.defaults.map(\.number))
    func eachDefaultCardsOutcomeAndECI(_ number: String) throws {
        let harness = ACSHarness()
        let card = try #require(CardCatalog.defaults.first { $0.number == number })
        // A lookup that times out waits on the clock: CardinalCaseTests advances it.
        if card.scenario == .lookup(.timeout) { return }
        let response = try harness.authenticate(number)
        switch card.scenario {
        case .frictionless(let status, let reason):
            #expect(response.transStatus == status)
            #expect(response.transStatusReason == reason)
            #expect(response.eci == card.brand.eci(for: status))
            #expect(response.challenge == nil)
            #expect((response.authenticationValue != nil) == (status == .authenticated || status == .attempted))
        case .lookup(let outcome):
            #expect(response.transStatus == nil)
            #expect(response.enrolled == outcome.enrolled)
            #expect(response.eci == card.brand.eci(for: .couldNotBePerformed))
            #expect(response.error == outcome.error)
        case .challenge(let design):
            #expect(response.transStatus == .challengeRequired)
            #expect(response.eci == nil)
            #expect(response.challenge?.uiType == design.uiType)
            guard design.uiType == .text else { return }
            let id = try #require(response.acsTransID)
            let result = try #require(try harness.answer(id, .code(Secret("1234"))).result)
            #expect(result.transStatus == design.outcome)
            #expect(result.eci == card.brand.eci(for: design.outcome))
            #expect(result.challengeCancel == (design.endsInError ? .transactionError : nil))
        }
    }

    @Test func eciValuesByBrandFollowTheNetworks() {
        #expect(CardBrand.visa.eci(for: .authenticated) == "05")
        #expect(CardBrand.visa.eci(for: .attempted) == "06")
        #expect(CardBrand.visa.eci(for: .notAuthenticated) == "07")
        #expect(CardBrand.amex.eci(for: .authenticated) == "05")
        #expect(CardBrand.mastercard.eci(for: .authenticated) == "02")
        #expect(CardBrand.mastercard.eci(for: .attempted) == "01")
        #expect(CardBrand.mastercard.eci(for: .rejected) == "00")
    }

    @Test func anExpiredCardIsNotAuthenticatedWithReason05() throws {
        let response = try ACSHarness().authenticate("4000000000002701", month: 12, year: 2029)
        #expect(response.transStatus == .notAuthenticated)
        #expect(response.transStatusReason == .expiredCard)
    }

    @Test func aCardTheIssuerDoesNotKnowIsNotEnrolled() throws {
        let response = try ACSHarness().authenticate("4111111111111111")
        #expect(response.transStatus == .couldNotBePerformed)
        #expect(response.transStatusReason == .cardholderNotEnrolledInService)
    }

    @Test func badRequestsAreDirectoryServerErrors() throws {
        let acs = ACSHarness().acs
        let card = try CardNumber("4000000000002701")
        #expect(throws: DirectoryServerError.invalidAmount) {
            try acs.authenticateWaiting(AuthenticationRequest(threeDSServerTransID: "t", card: card, expiryMonth: 1, expiryYear: 2033,
                                                      amountMinorUnits: 0, currency: "EUR", merchantName: "m"))
        }
        #expect(throws: DirectoryServerError.invalidCurrency("euro")) {
            try acs.authenticateWaiting(AuthenticationRequest(threeDSServerTransID: "t", card: card, expiryMonth: 1, expiryYear: 2033,
                                                      amountMinorUnits: 100, currency: "euro", merchantName: "m"))
        }
        #expect(throws: DirectoryServerError.invalidExpiry) {
            try acs.authenticateWaiting(AuthenticationRequest(threeDSServerTransID: "t", card: card, expiryMonth: 13, expiryYear: 2033,
                                                      amountMinorUnits: 100, currency: "EUR", merchantName: "m"))
        }
        #expect(throws: DirectoryServerError.unknownTransaction("nope")) { try acs.challenge("nope", .cancel) }
    }

    @Test func theSameSeedGivesTheSameIdentifiers() throws {
        let first = try ACSHarness().authenticate("4000000000002701")
        let second = try ACSHarness().authenticate("4000000000002701")
        #expect(first.acsTransID == second.acsTransID)
        #expect(first.authenticationValue == second.authenticationValue)
    }
}

@Suite struct ChallengeTests {
    let visaChallenge = "4000000000002503"

    @Test func theRightCodeAuthenticates() throws {
        let harness = ACSHarness()
        let first = try harness.authenticate(visaChallenge)
        let screen = try #require(first.challenge)
        #expect(screen.maskedCard == "•••• 2503")
        #expect(screen.amount == "EUR 49.99")
        #expect(screen.merchantName == "Demo Shop")
        #expect(screen.attemptsLeft == 3)
        let id = try #require(first.acsTransID)
        let result = try #require(try harness.answer(id, .code(Secret("1234"))).result)
        #expect(result.transStatus == .authenticated)
        #expect(result.eci == "05")
        #expect(result.authenticationValue != nil)
        #expect(result.interactionCounter == 1)
        #expect(harness.acs.result(id) == result)
        #expect(harness.acs.openChallengeCount == 0)
    }

    @Test func wrongCodesUntilTheLimitFailWithReason19() throws {
        let harness = ACSHarness()
        let id = try harness.open(visaChallenge)
        let first = try harness.answer(id, .code(Secret("0000")))
        #expect(first.screen?.attemptsLeft == 2)
        #expect(first.screen?.message == "wrong code; 2 attempts left")
        #expect(try harness.answer(id, .code(Secret("0000"))).screen?.message == "wrong code; 1 attempt left")
        let result = try #require(try harness.answer(id, .code(Secret("0000"))).result)
        #expect(result.transStatus == .notAuthenticated)
        #expect(result.transStatusReason == .exceedsACSMaximumChallenges)
        #expect(result.interactionCounter == 3)
        // A finished challenge answers with its result, whatever comes next.
        #expect(try harness.answer(id, .code(Secret("1234"))).result == result)
    }

    @Test func resendsStopAtTheLimit() throws {
        let harness = ACSHarness(policy: ChallengePolicy(resends: 2))
        let id = try harness.open(visaChallenge)
        #expect(try harness.answer(id, .resend).screen?.resendsLeft == 1)
        #expect(try harness.answer(id, .resend).screen?.resendsLeft == 0)
        let refused = try harness.answer(id, .resend).screen
        #expect(refused?.message == "no more codes can be sent; enter the last one or cancel (4 more such answers end the challenge)")
        #expect(refused?.attemptsLeft == 3, "a refused resend costs no attempt")
        #expect(try harness.answer(id, .code(Secret("1234"))).result?.transStatus == .authenticated)
    }

    @Test func cancelEndsWithChallengeCancel01() throws {
        let harness = ACSHarness()
        let id = try harness.open(visaChallenge)
        let result = try #require(try harness.answer(id, .cancel).result)
        #expect(result.transStatus == .notAuthenticated)
        #expect(result.challengeCancel == .cardholderSelectedCancel)
    }

    @Test func aChallengeTheAppAbandonsAfterAnErrorEndsUWithChallengeCancel06() throws {
        let harness = ACSHarness()
        let id = try harness.open(visaChallenge)
        let result = try #require(try harness.answer(id, .transactionError).result)
        #expect(result.transStatus == .couldNotBePerformed)
        #expect(result.transStatusReason == .invalidTransaction, "EMV 3DS requires a reason with U")
        #expect(result.challengeCancel == .transactionError)
        #expect(result.interactionCounter == 0, "the app's error is no answer of the cardholder's")
    }

    @Test func aChallengeLeftOpenTimesOutOnTheSimulationClock() throws {
        let harness = ACSHarness(policy: ChallengePolicy(timeout: .seconds(600)))
        let id = try harness.open(visaChallenge)
        _ = try harness.acs.start(id)
        harness.clock.advance(by: .seconds(599))
        #expect(harness.acs.result(id) == nil)
        harness.clock.advance(by: .seconds(1))
        let result = try #require(harness.acs.result(id))
        #expect(result.transStatus == .notAuthenticated)
        #expect(result.transStatusReason == .transactionTimedOutAtACS)
        #expect(result.challengeCancel == .timedOutAtACS)
        #expect(try harness.answer(id, .code(Secret("1234"))).result == result)
    }

    @Test func withoutTheFirstCReqTheChallengeEndsAfterThirtySeconds() throws {
        let harness = ACSHarness()
        let id = try harness.open(visaChallenge)
        harness.clock.advance(by: .seconds(29))
        #expect(harness.acs.result(id) == nil)
        harness.clock.advance(by: .seconds(1))
        let result = try #require(harness.acs.result(id))
        #expect(result.transStatus == .notAuthenticated)
        #expect(result.transStatusReason == .transactionTimedOutAtACS)
        #expect(result.challengeCancel == .firstCReqNotReceived)
        #expect(result.interactionCounter == 0)
        #expect(harness.clock.pendingTimerCount == 0)
    }

    @Test func theFirstCReqStopsItsTimerAndStartsTheChallengesOwn() throws {
        let harness = ACSHarness()
        let id = try harness.open(visaChallenge)
        #expect(try harness.acs.start(id).screen?.attemptsLeft == 3)
        harness.clock.advance(by: .seconds(30))
        #expect(harness.acs.result(id) == nil, "the first-CReq timer stopped")
        #expect(harness.clock.pendingTimerCount == 1, "the challenge's own 10-minute limit runs")
    }

    @Test func aCompletedChallengeLeavesNoTimerBehind() throws {
        let harness = ACSHarness()
        let id = try harness.open(visaChallenge)
        #expect(harness.clock.pendingTimerCount == 1)
        _ = try harness.answer(id, .code(Secret("1234")))
        #expect(harness.clock.pendingTimerCount == 0)
    }

    @Test func singleSelect() throws {
        let harness = ACSHarness()
        let response = try harness.authenticate("4000009900000012")
        #expect(response.challenge?.options == ["Amsterdam", "Berlin", "Lisbon"])
        #expect(try harness.answer(try #require(response.acsTransID), .select([0, 1])).screen?.message
                == "choose exactly one (4 more such answers end the challenge)")
        #expect(try harness.answer(try #require(response.acsTransID), .select([0])).screen?.attemptsLeft == 2)
        #expect(try harness.answer(try #require(response.acsTransID), .select([2])).result?.transStatus == .authenticated)
    }

    @Test(arguments: [
        ("4000009900000012", ChallengeAnswer.select([0, 1])), ("4000009900000012", .code(Secret("1234"))),
        ("4000009900000038", .continueOutOfBand), ("4000000000002503", .select([0])),
    ])
    func answersTheChallengeRefusesEndItAtTheCap(card: String, refused: ChallengeAnswer) throws {
        let harness = ACSHarness(policy: ChallengePolicy(refusedAnswers: 4))
        let id = try harness.open(card)
        var messages: [String?] = []
        for _ in 1..<4 {
            let screen = try #require(try harness.answer(id, refused).screen)
            #expect(screen.attemptsLeft == 3, "a refused answer costs no attempt")
            messages.append(screen.message)
        }
        #expect(messages.last??.hasSuffix("(1 more such answer ends the challenge)") == true)
        let result = try #require(try harness.answer(id, refused).result)
        #expect(result.transStatus == .notAuthenticated)
        #expect(result.transStatusReason == .exceedsACSMaximumChallenges)
        #expect(result.interactionCounter == 4)
        #expect(harness.clock.pendingTimerCount == 0)
    }

    /// No answer, sent again and again, keeps a challenge open: every challenge type, fed every kind of
    /// answer (wrong, refused or both), ends within its attempts, resends and refused answers.
    @Test(arguments: ["4000000000002503", "4000009900000012", "4000009900000020", "4000009900000038", "4000009900000046"])
    func everyAnswerRepeatedEndsTheChallenge(card: String) throws {
        let policy = ChallengePolicy()
        let bound = policy.attempts + policy.resends + policy.refusedAnswers
        let answers: [ChallengeAnswer] = [
            .code(Secret("0000")), .code(Secret("")), .select([]), .select([0, 1, 2, 3]), .select([99]),
            .continueOutOfBand, .resend,
        ]
        for answer in answers {
            let harness = ACSHarness(policy: policy)
            let id = try harness.open(card)
            var sent = 0
            while try harness.answer(id, answer).result == nil {
                sent += 1
                try #require(sent <= bound, "\(card) kept answering \(answer.summary) after \(sent) CReqs")
            }
            #expect(harness.acs.openChallengeCount == 0)
        }
    }

    @Test func multiSelect() throws {
        let harness = ACSHarness()
        let id = try harness.open("4000009900000020")
        #expect(try harness.answer(id, .select([0])).screen?.message == "that is not the right choice; 2 attempts left")
        #expect(try harness.answer(id, .select([0, 2])).result?.transStatus == .authenticated)
    }

    @Test func outOfBandWaitsForTheOtherDevice() throws {
        let harness = ACSHarness()
        let id = try harness.open("4000009900000038")
        #expect(try harness.answer(id, .continueOutOfBand).screen?.message
                == "the payment is not approved on the other device yet (4 more such answers end the challenge)")
        harness.acs.decideOutOfBand(id, approve: true)
        #expect(try harness.answer(id, .continueOutOfBand).result?.transStatus == .authenticated)

        let denied = try harness.open("4000009900000038")
        harness.acs.decideOutOfBand(denied, approve: false)
        #expect(try harness.answer(denied, .continueOutOfBand).result?.transStatus == .notAuthenticated)
    }

    @Test func htmlCannotBeShownInATerminal() throws {
        let harness = ACSHarness()
        let id = try harness.open("4000009900000046")
        let result = try #require(try harness.answer(id, .unsupportedInterface).result)
        #expect(result.transStatus == .couldNotBePerformed)
        #expect(result.transStatusReason == .unsupportedDevice)
        #expect(result.challengeCancel == .transactionError)
    }

    @Test func answersOfTheWrongKindDoNotCostAnAttempt() throws {
        let harness = ACSHarness()
        let id = try harness.open(visaChallenge)
        #expect(try harness.answer(id, .select([1])).screen?.attemptsLeft == 3)
        #expect(try harness.answer(id, .continueOutOfBand).screen?.attemptsLeft == 3)
    }
}

/// A select answer in the log's words: one option is "option", several "options" ("options 1 chosen" read oddly).
@Suite struct SelectSummaryTests {
    @Test func oneOptionIsSingular() {
        #expect(ChallengeAnswer.select([0]).summary == "option 1 chosen")
        #expect(ChallengeAnswer.select([2, 0]).summary == "options 1, 3 chosen")
    }
}
