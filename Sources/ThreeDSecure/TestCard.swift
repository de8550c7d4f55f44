import Secrets

/// What the simulated issuer does with a card.
public enum CardScenario: Sendable, Equatable {
    /// The ARes is final: no challenge.
    case frictionless(TransStatus, reason: TransStatusReason?)
    /// The ARes says C and a challenge follows.
    case challenge(ChallengeDesign)
    /// No ARes: the lookup ends without authentication (Cardinal's Enrolled U or B).
    case lookup(LookupOutcome)
}

/// How a lookup ends without an ARes, as Cardinal's test cases 6, 7, 8 and 13 do.
public enum LookupOutcome: String, Sendable, Equatable, CaseIterable {
    /// The card range does not take part: Enrolled U, the directory server's Erro 101.
    case unavailable
    /// The lookup fails: Enrolled U, the directory server's Erro 101 (Cardinal's error 1001).
    case error
    /// No answer within the lookup timeout: Enrolled U, Erro 402 from the 3DS Server.
    case timeout
    /// The merchant's rules bypass authentication: Enrolled B, no error.
    case bypassed

    public var enrolled: Enrollment { self == .bypassed ? .bypassed : .unavailable }

    /// The detail of a lookup that fails (case 7), its Erro's errorDetail: how a result tells it
    /// from case 6's Erro 101 (the card range takes no part).
    public static let errorDetail = "Cardinal error 1001: Error Processing Message Request"

    public var error: ProtocolError? {
        switch self {
        // One code, one description (EMV 3DS 2.2, table A.4); Cardinal's words go in the detail. The two read
        // "Invalid Formatted Message" and "Error Processing Message Request" under the same 101.
        case .unavailable: .messageReceivedInvalid(.directoryServer, detail: "authentication not available on lookup (Cardinal: Invalid Formatted Message)")
        case .error: .messageReceivedInvalid(.directoryServer, detail: Self.errorDetail)
        case .timeout: .timedOut(.server, detail: "no ARes within the lookup timeout")
        case .bypassed: nil
        }
    }
}

/// One challenge: how it asks, what it accepts, and how a completed challenge ends.
public struct ChallengeDesign: Sendable, Equatable {
    public var uiType: AcsUiType
    /// What a challenge answered correctly ends in: Y on the success cards; N or U on the cards whose
    /// challenge fails or is unavailable whatever the answer (as in the Cardinal test cases).
    public var outcome: TransStatus
    public var outcomeReason: TransStatusReason?
    /// The ACS fails while the challenge runs (Cardinal's "Error on Authentication"): the first answer gets an
    /// Erro 403 and the result is U with challengeCancel 06, whatever was answered.
    public var endsInError: Bool
    /// The challenge text shown to the cardholder.
    public var prompt: String
    /// The choices of a select challenge.
    public var options: [String]
    /// The indices of the right choices (one for single-select).
    public var correctOptions: Set<Int>

    public init(
        uiType: AcsUiType, outcome: TransStatus = .authenticated, outcomeReason: TransStatusReason? = nil,
        endsInError: Bool = false, prompt: String, options: [String] = [], correctOptions: Set<Int> = []
    ) {
        self.uiType = uiType
        self.outcome = outcome
        self.outcomeReason = outcomeReason
        self.endsInError = endsInError
        self.prompt = prompt
        self.options = options
        self.correctOptions = correctOptions
    }

    /// What a challenge of `uiType` asks when its card names no prompt (a select, out-of-band or HTML card got the
    /// one-time code's "Enter the one-time code we sent …").
    public static func defaultPrompt(for uiType: AcsUiType) -> String {
        switch uiType {
        case .text: "Enter the one-time code we sent to your phone ending in 42."
        case .singleSelect: "Choose the right answer."
        case .multiSelect: "Select every right answer."
        case .outOfBand: "Approve this payment in your banking app, then continue."
        case .htmlOther: "The issuer shows its own HTML page for this challenge."
        }
    }

    /// A one-time-code challenge.
    public static func oneTimeCode(
        outcome: TransStatus = .authenticated, reason: TransStatusReason? = nil, endsInError: Bool = false
    ) -> ChallengeDesign {
        ChallengeDesign(
            uiType: .text, outcome: outcome, outcomeReason: reason, endsInError: endsInError,
            prompt: defaultPrompt(for: .text))
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

/// The default cards: every Cardinal Commerce EMV 3DS 2.x test case (their 3DS 2.2.0 numbers, in Cardinal's
/// current numbering) for Visa, Mastercard, American Express and Discover where Cardinal's tables give one, and
/// idp-tui's own Visa cards for the challenge types those cases do not cover.
///
/// The tables give the number, Enrolled, the transStatus, the ECI and any error; where they give no
/// transStatusReason, idp-tui chooses one (docs/payer-authentication.md lists them, each with its source).
public enum CardCatalog {
    public static let defaults: [TestCard] = cardinal + ownChallengeCards

    static let cardinal: [TestCard] = {
        // Case, title, then the Visa, Mastercard, American Express and Discover numbers ("" where none is published).
        let cases: [(Int, String, [String], CardScenario)] = [
            (1, "Successful frictionless authentication",
             ["4000000000002701", "5200000000002235", "340000000002708", "6011000000002117"], .frictionless(.authenticated, reason: nil)),
            (2, "Failed frictionless authentication",
             ["4000000000002925", "5200000000002276", "340000000002096", "6011000000002364"],
             .frictionless(.notAuthenticated, reason: .cardAuthenticationFailed)),
            (3, "Attempts stand-in frictionless authentication",
             ["4000000000002719", "5200000000002482", "340000000002872", "6011000000002646"], .frictionless(.attempted, reason: nil)),
            (4, "Unavailable frictionless authentication from the issuer",
             ["4000000000002313", "5200000000002268", "340000000002922", "6011000000002612"],
             .frictionless(.couldNotBePerformed, reason: .acsTechnicalIssue)),
            (5, "Rejected frictionless authentication by the issuer",
             ["4000000000002537", "5200000000002185", "340000000002062", "6011000000002711"],
             .frictionless(.rejected, reason: .suspectedFraud)),
            (6, "Authentication not available on lookup",
             ["4000000000002990", "5200000000002409", "340000000002468", "6011000000002836"], .lookup(.unavailable)),
            (7, "Error on lookup",
             ["4000000000002446", "5200000000002037", "340000000002732", "6011000000002315"], .lookup(.error)),
            (8, "Timeout on lookup",
             ["4000000000002354", "5200000000002326", "340000000002047", "6011000000002869"], .lookup(.timeout)),
            (9, "Successful step-up authentication",
             ["4000000000002503", "5200000000002151", "340000000002534", "6011000000002265"], .challenge(.oneTimeCode())),
            (10, "Failed step-up authentication",
             ["4000000000002370", "5200000000002490", "340000000002237", "6011000000002695"],
             .challenge(.oneTimeCode(outcome: .notAuthenticated, reason: .cardAuthenticationFailed))),
            (11, "Step-up authentication is unavailable",
             ["4000000000002420", "5200000000002664", "340000000002484", ""],
             .challenge(.oneTimeCode(outcome: .couldNotBePerformed, reason: .acsTechnicalIssue))),
            (12, "Error on authentication",
             ["4000000000002644", "5200000000002656", "340000000002351", "6011000000002570"],
             .challenge(.oneTimeCode(outcome: .couldNotBePerformed, endsInError: true))),
            (13, "Bypassed authentication (CyberSource's; Cardinal has removed it)",
             ["4000000000002560", "5200000000002508", "340000000002948", "6011000000002976"], .lookup(.bypassed)),
        ]
        let brands: [CardBrand] = [.visa, .mastercard, .amex, .discover]
        return cases.flatMap { number, title, numbers, scenario in
            zip(brands, numbers).filter { !$0.1.isEmpty }.map { brand, card in
                TestCard(number: card, brand: brand, title: title, source: "Test Case \(number)", scenario: scenario)
            }
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
