import Secrets

/// The AReq: what the 3DS Server asks the directory server to authenticate.
public struct AuthenticationRequest: Sendable {
    public var threeDSServerTransID: String
    public var card: CardNumber
    public var expiryMonth: Int
    public var expiryYear: Int
    /// In minor units (cents).
    public var amountMinorUnits: Int
    /// ISO 4217 alphabetic code.
    public var currency: String
    public var merchantName: String
    /// `threeDSCompInd`: whether the 3DS Method (device data collection) completed: Y, N or U.
    public var methodCompletion: String

    public init(
        threeDSServerTransID: String, card: CardNumber, expiryMonth: Int, expiryYear: Int, amountMinorUnits: Int,
        currency: String, merchantName: String, methodCompletion: String = "Y"
    ) {
        self.threeDSServerTransID = threeDSServerTransID
        self.card = card
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear
        self.amountMinorUnits = amountMinorUnits
        self.currency = currency
        self.merchantName = merchantName
        self.methodCompletion = methodCompletion
    }
}

/// The ARes: the ACS's answer, through the directory server. Final unless `transStatus` is C, when `challenge`
/// holds the first screen. Without an ARes (Cardinal's Enrolled U or B) `transStatus` is nil, and `error` holds
/// the Erro message if one came instead.
public struct AuthenticationResponse: Sendable, Equatable {
    public let threeDSServerTransID: String
    public let dsTransID: String?
    public let acsTransID: String?
    public let messageVersion: String
    public let enrolled: Enrollment
    public let transStatus: TransStatus?
    public let transStatusReason: TransStatusReason?
    public let eci: String?
    /// The CAVV (or AAV) for Y and A, base64.
    public let authenticationValue: String?
    /// `acsChallengeMandated`: Y when the challenge is required by local mandate (every C here), else nil.
    public let acsChallengeMandated: String?
    /// Whether the 3DS Method completed, as the AReq said: Y, N or U.
    public let threeDSCompInd: String
    /// Cardinal's SignatureVerification of the ARes: Y when there is one to verify.
    public let signatureVerification: String?
    public let error: ProtocolError?
    public let challenge: ChallengeScreen?

    /// What the 3DS Server reports when no ARes came back at all (the DS unreachable, timing out, answering an
    /// Erro, HTTP 5xx or garbage): Enrolled U, the brand's not-authenticated ECI, and the error.
    public static func noAnswer(to request: AuthenticationRequest, error: ProtocolError) -> AuthenticationResponse {
        AuthenticationResponse(
            threeDSServerTransID: request.threeDSServerTransID, dsTransID: nil, acsTransID: nil,
            messageVersion: AccessControlServer.messageVersion, enrolled: .unavailable, transStatus: nil, transStatusReason: nil,
            eci: request.card.brand.eci(for: .couldNotBePerformed), authenticationValue: nil, acsChallengeMandated: nil,
            threeDSCompInd: request.methodCompletion, signatureVerification: nil, error: error, challenge: nil)
    }
}

/// What a challenge screen shows.
public struct ChallengeScreen: Sendable, Equatable {
    public let uiType: AcsUiType
    public let issuerName: String
    public let merchantName: String
    /// e.g. "EUR 49.99".
    public let amount: String
    /// e.g. "•••• 2503".
    public let maskedCard: String
    public let prompt: String
    public let options: [String]
    public let attemptsLeft: Int
    public let resendsLeft: Int
    /// Why the previous answer did not complete the challenge, if it did not.
    public let message: String?
    /// The message warns (a wrong or refused answer), rather than tells news ("a new code was sent"): EMV 3DS's
    /// challengeInfoTextIndicator Y.
    public var messageWarns = true
    /// The message counts the attempts left itself ("wrong code; 2 attempts left"): a screen need not say them
    /// again beside it.
    public var messageCountsAttempts = false
    /// What the simulated issuer takes on a select screen ("Lisbon"; "Amsterdam and Lisbon"): test data shown
    /// beside the options, as the code screen shows its code. Not part of any message. Nil for a scenario's own
    /// card, whose answer is a secret no screen shows.
    public var expectedChoice: String? = nil
    /// A code screen's code when it is the published test value (``ChallengePolicy/shownCode``); nil when the
    /// scenario set its own, a secret no screen shows.
    public var shownCode: String? = nil

    /// A select screen of a scenario's own card: its answer is a secret, so the CReq and the logs say an option was
    /// chosen, not which (the number with transStatus Y gave the answer away).
    public var hidesChoice: Bool { (uiType == .singleSelect || uiType == .multiSelect) && expectedChoice == nil }

    /// The entry's label the ACS sends in the CRes (challengeInfoLabel), which a native 3DS SDK draws by the field:
    /// the terminal's screen draws it too (it drew its own "Code").
    public var infoLabel: String? {
        switch uiType {
        case .text: "Enter the code"
        case .singleSelect: "Choose one"
        case .multiSelect: "Choose all that apply"
        case .outOfBand, .htmlOther: nil
        }
    }

    /// The screen's header the ACS sends (challengeInfoHeader), on a native screen.
    public var infoHeader: String? { uiType == .htmlOther ? nil : "Purchase authentication" }
}

extension ChallengeScreen {
    /// "2 attempts left", "1 resend left": how the ACS's message, the event log and the screens count.
    public static func left(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s") left" }
    /// "2 attempts left".
    public var attemptsLeftPhrase: String { Self.left(attemptsLeft, "attempt") }
    /// Whether a wrong answer spends an attempt (a code, a choice): an out-of-band challenge ends at the other
    /// device's answer and an HTML one at Continue, so no attempt of theirs is ever spent.
    public var spendsAttempts: Bool { uiType == .text || uiType == .singleSelect || uiType == .multiSelect }
    /// "3 resends left".
    public var resendsLeftPhrase: String { Self.left(resendsLeft, "resend") }
}

/// The cardholder's side of a CReq.
public enum ChallengeAnswer: Sendable {
    /// A one-time code (text challenge).
    case code(Secret)
    /// The chosen options (single- or multi-select), by index.
    case select(Set<Int>)
    /// Continue after approving (or not) on the other device (out-of-band).
    case continueOutOfBand
    /// Ask for a new one-time code.
    case resend
    /// The cardholder cancelled.
    case cancel
    /// The device cannot show this challenge (HTML in a terminal).
    case unsupportedInterface
    /// Nobody answered the screen before the 3DS SDK's own challenge timer ran out.
    case timedOutAtSDK
    /// The app gave up on the challenge after an error of its own (a headless run's answers ran out): the 3DS SDK
    /// ends it as a transaction error (challengeCancel 06), not as the cardholder's cancel (01).
    case transactionError
}

extension ChallengeAnswer {
    /// Whether the cardholder answered the screen (a code, a choice, continue, a resend): what
    /// `interactionCounter` counts. A cancel, a timeout and a device's or app's error are not.
    public var isAuthenticationAttempt: Bool {
        switch self {
        case .code, .select, .continueOutOfBand, .resend: true
        case .cancel, .unsupportedInterface, .timedOutAtSDK, .transactionError: false
        }
    }

    /// The answer in words, for logs; a code is never shown, nor the options chosen on a screen that hides them.
    public func summary(on screen: ChallengeScreen) -> String {
        if case .select = self, screen.hidesChoice { return "options chosen (a scenario's own answer is not shown)" }
        return summary
    }

    /// The answer in words, for logs; a code is never shown.
    public var summary: String {
        switch self {
        case .code: "one-time code entered"
        case .select(let chosen): "\(chosen.count == 1 ? "option" : "options") \(chosen.sorted().map { String($0 + 1) }.joined(separator: ", ")) chosen"
        case .continueOutOfBand: "continue after the other device"
        case .resend: "resend the code"
        case .cancel: "cardholder cancelled"
        case .unsupportedInterface: "this device cannot show an HTML challenge"
        case .timedOutAtSDK: "the challenge timed out on this device"
        case .transactionError: "the app abandoned the challenge after an error"
        }
    }
}

/// The CRes: another screen, or the end of the challenge.
public enum ChallengeResponse: Sendable, Equatable {
    case screen(ChallengeScreen)
    case completed(AuthenticationResult)
}

/// The final result of a challenge, as the ACS reports it in the RReq.
public struct AuthenticationResult: Sendable, Equatable {
    public let acsTransID: String
    public let transStatus: TransStatus
    public let transStatusReason: TransStatusReason?
    public let eci: String
    public let authenticationValue: String?
    public let challengeCancel: ChallengeCancel?
    /// How many CReqs carrying the cardholder's answers the challenge took.
    public let interactionCounter: Int
    /// The Erro message that ended the challenge, if one did.
    public let error: ProtocolError?
}

/// Why the directory server refused an AReq outright (the protocol's Erro message).
public enum DirectoryServerError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidAmount
    case invalidCurrency(String)
    case invalidExpiry
    case unknownTransaction(String)

    public var description: String {
        switch self {
        case .invalidAmount: "the amount must be above zero"
        case .invalidCurrency(let code): "\"\(code)\" is not an ISO 4217 currency code with two decimals"
        case .invalidExpiry: "the expiry month must be 1 to 12"
        case .unknownTransaction(let id): "no challenge with acsTransID \(id) is open"
        }
    }
}
