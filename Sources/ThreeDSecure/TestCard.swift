import Secrets

/// What the simulated issuer does with a card.
public enum CardScenario: Sendable, Equatable {
    /// The ARes is final: no challenge.
    case frictionless(TransStatus, reason: TransStatusReason?)
    /// The ARes says C and a challenge follows.
    case challenge(ChallengeDesign)
}

/// One challenge: how it asks, what it accepts, and how a completed challenge ends.
public struct ChallengeDesign: Sendable, Equatable {
    public var uiType: AcsUiType
    /// What a challenge answered correctly ends in: Y on the success cards; N or U on the cards whose
    /// challenge fails or is unavailable whatever the answer (as in the Cardinal test cases).
    public var outcome: TransStatus
    public var outcomeReason: TransStatusReason?
    /// The challenge text shown to the cardholder.
    public var prompt: String
    /// The choices of a select challenge.
    public var options: [String]
    /// The indices of the right choices (one for single-select).
    public var correctOptions: Set<Int>

    public init(
        uiType: AcsUiType, outcome: TransStatus = .authenticated, outcomeReason: TransStatusReason? = nil,
        prompt: String, options: [String] = [], correctOptions: Set<Int> = []
    ) {
        self.uiType = uiType
        self.outcome = outcome
        self.outcomeReason = outcomeReason
        self.prompt = prompt
        self.options = options
        self.correctOptions = correctOptions
    }

    /// A one-time-code challenge.
    public static func oneTimeCode(outcome: TransStatus = .authenticated, reason: TransStatusReason? = nil) -> ChallengeDesign {
        ChallengeDesign(
            uiType: .text, outcome: outcome, outcomeReason: reason,
            prompt: "Enter the one-time code we sent to your phone ending in 42.")
    }
}

/// A card the simulated issuer knows.
public struct TestCard: Sendable, Equatable {
    public let number: String
    public let brand: CardBrand
    public let title: String
    /// The Cardinal Commerce EMV 3DS 2.0 test case it follows, or nil for one of idp-tui's own.
    public let source: String?
    public let scenario: CardScenario

    public init(number: String, brand: CardBrand, title: String, source: String?, scenario: CardScenario) {
        self.number = number
        self.brand = brand
        self.title = title
        self.source = source
        self.scenario = scenario
    }
}

/// The default cards: the Cardinal Commerce EMV 3DS 2.0 test cases (3DS 2.2.0 numbers) for Visa, Mastercard
/// and American Express, and idp-tui's own Visa cards for the challenge types those cases do not cover.
///
/// The cases' public tables give the number, the transStatus and the ECI; where they give no
/// transStatusReason, idp-tui chooses one (docs/payer-authentication.md lists them).
public enum CardCatalog {
    public static let defaults: [TestCard] = cardinal + ownChallengeCards

    static let cardinal: [TestCard] = {
        let numbers: [(String, String, String, String, CardScenario)] = [
            ("Test Case 1", "Successful frictionless authentication",
             "4000000000002701", "5200000000002235|340000000002708", .frictionless(.authenticated, reason: nil)),
            ("Test Case 2", "Failed frictionless authentication",
             "4000000000002925", "5200000000002276|340000000002096",
             .frictionless(.notAuthenticated, reason: .cardAuthenticationFailed)),
            ("Test Case 3", "Attempts stand-in frictionless authentication",
             "4000000000002719", "5200000000002482|340000000002872", .frictionless(.attempted, reason: nil)),
            ("Test Case 4", "Unavailable frictionless authentication",
             "4000000000002313", "5200000000002268|340000000002922",
             .frictionless(.couldNotBePerformed, reason: .acsTechnicalIssue)),
            ("Test Case 5", "Rejected frictionless authentication",
             "4000000000002537", "5200000000002185|340000000002062",
             .frictionless(.rejected, reason: .suspectedFraud)),
            ("Test Case 10", "Successful step-up authentication",
             "4000000000002503", "5200000000002151|340000000002534", .challenge(.oneTimeCode())),
            ("Test Case 11", "Failed step-up authentication",
             "4000000000002370", "5200000000002490|340000000002237",
             .challenge(.oneTimeCode(outcome: .notAuthenticated, reason: .cardAuthenticationFailed))),
            ("Test Case 12", "Step-up authentication unavailable",
             "4000000000002420", "5200000000002664|340000000002484",
             .challenge(.oneTimeCode(outcome: .couldNotBePerformed, reason: .acsTechnicalIssue))),
        ]
        return numbers.flatMap { source, title, visa, others, scenario in
            let parts = others.split(separator: "|").map(String.init)
            return [
                TestCard(number: visa, brand: .visa, title: title, source: source, scenario: scenario),
                TestCard(number: parts[0], brand: .mastercard, title: title, source: source, scenario: scenario),
                TestCard(number: parts[1], brand: .amex, title: title, source: source, scenario: scenario),
            ]
        }
    }()

    static let ownChallengeCards: [TestCard] = [
        TestCard(
            number: "4000009900000012", brand: .visa, title: "Challenge: single-select", source: nil,
            scenario: .challenge(ChallengeDesign(
                uiType: .singleSelect, prompt: "Where did you last use this card?",
                options: ["Amsterdam", "Berlin", "Lisbon"], correctOptions: [2]))),
        TestCard(
            number: "4000009900000020", brand: .visa, title: "Challenge: multi-select", source: nil,
            scenario: .challenge(ChallengeDesign(
                uiType: .multiSelect, prompt: "Which of these did you buy from this month? Select all that apply.",
                options: ["Bookshop", "Cinema", "Bakery", "Garage"], correctOptions: [0, 2]))),
        TestCard(
            number: "4000009900000038", brand: .visa, title: "Challenge: out-of-band", source: nil,
            scenario: .challenge(ChallengeDesign(
                uiType: .outOfBand, prompt: "Approve this payment in your banking app, then continue."))),
        TestCard(
            number: "4000009900000046", brand: .visa, title: "Challenge: HTML (not supported in a terminal)",
            source: nil,
            scenario: .challenge(ChallengeDesign(
                uiType: .htmlOther, prompt: "The issuer shows its own HTML page for this challenge."))),
    ]
}
