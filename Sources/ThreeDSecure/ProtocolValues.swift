/// `transStatus`: the outcome of an authentication (EMV 3DS 2.2).
public enum TransStatus: String, Sendable, Codable, CaseIterable {
    case authenticated = "Y"
    case notAuthenticated = "N"
    case couldNotBePerformed = "U"
    case attempted = "A"
    case challengeRequired = "C"
    case decoupled = "D"
    case rejected = "R"
    case informational = "I"

    public var meaning: String {
        switch self {
        case .authenticated: "authentication successful"
        case .notAuthenticated: "not authenticated; the transaction is denied"
        case .couldNotBePerformed: "authentication could not be performed (technical or other problem)"
        case .attempted: "attempts processing: not authenticated, but a proof of attempt is provided"
        case .challengeRequired: "additional authentication is required: a challenge follows"
        case .decoupled: "decoupled authentication confirmed"
        case .rejected: "authentication rejected by the issuer; do not attempt authorisation"
        case .informational: "informational only; the 3DS Requestor's challenge preference is acknowledged"
        }
    }
}

/// `transStatusReason`: why a transaction was not authenticated (EMV 3DS 2.2, values 01–26).
public enum TransStatusReason: String, Sendable, Codable, CaseIterable {
    case cardAuthenticationFailed = "01"
    case unknownDevice = "02"
    case unsupportedDevice = "03"
    case exceedsAuthenticationFrequencyLimit = "04"
    case expiredCard = "05"
    case invalidCardNumber = "06"
    case invalidTransaction = "07"
    case noCardRecord = "08"
    case securityFailure = "09"
    case stolenCard = "10"
    case suspectedFraud = "11"
    case transactionNotPermittedToCardholder = "12"
    case cardholderNotEnrolledInService = "13"
    case transactionTimedOutAtACS = "14"
    case lowConfidence = "15"
    case mediumConfidence = "16"
    case highConfidence = "17"
    case veryHighConfidence = "18"
    case exceedsACSMaximumChallenges = "19"
    case nonPaymentTransactionNotSupported = "20"
    case threeRITransactionNotSupported = "21"
    case acsTechnicalIssue = "22"
    case decoupledRequiredButNotRequested = "23"
    case decoupledMaxExpiryTimeExceeded = "24"
    case decoupledInsufficientTime = "25"
    case attemptedButNotPerformedByCardholder = "26"

    public var meaning: String {
        switch self {
        case .cardAuthenticationFailed: "card authentication failed"
        case .unknownDevice: "unknown device"
        case .unsupportedDevice: "unsupported device"
        case .exceedsAuthenticationFrequencyLimit: "exceeds authentication frequency limit"
        case .expiredCard: "expired card"
        case .invalidCardNumber: "invalid card number"
        case .invalidTransaction: "invalid transaction"
        case .noCardRecord: "no card record"
        case .securityFailure: "security failure"
        case .stolenCard: "stolen card"
        case .suspectedFraud: "suspected fraud"
        case .transactionNotPermittedToCardholder: "transaction not permitted to cardholder"
        case .cardholderNotEnrolledInService: "cardholder not enrolled in service"
        case .transactionTimedOutAtACS: "transaction timed out at the ACS"
        case .lowConfidence: "low confidence"
        case .mediumConfidence: "medium confidence"
        case .highConfidence: "high confidence"
        case .veryHighConfidence: "very high confidence"
        case .exceedsACSMaximumChallenges: "exceeds ACS maximum challenges"
        case .nonPaymentTransactionNotSupported: "non-payment transaction not supported"
        case .threeRITransactionNotSupported: "3RI transaction not supported"
        case .acsTechnicalIssue: "ACS technical issue"
        case .decoupledRequiredButNotRequested: "decoupled authentication required by the ACS but not requested"
        case .decoupledMaxExpiryTimeExceeded: "3DS Requestor decoupled max expiry time exceeded"
        case .decoupledInsufficientTime: "decoupled authentication was provided insufficient time"
        case .attemptedButNotPerformedByCardholder: "authentication attempted but not performed by the cardholder"
        }
    }
}

/// `challengeCancel`: why a challenge ended without being completed (EMV 3DS 2.2; 02 is reserved).
public enum ChallengeCancel: String, Sendable, Codable, CaseIterable {
    case cardholderSelectedCancel = "01"
    case decoupledTimedOut = "03"
    case timedOutAtACS = "04"
    case firstCReqNotReceived = "05"
    case transactionError = "06"
    case unknown = "07"
    case timedOutAtSDK = "08"

    public var meaning: String {
        switch self {
        case .cardholderSelectedCancel: "the cardholder selected Cancel"
        case .decoupledTimedOut: "transaction timed out (decoupled authentication)"
        case .timedOutAtACS: "transaction timed out at the ACS (other timeouts)"
        case .firstCReqNotReceived: "transaction timed out at the ACS: first CReq not received"
        case .transactionError: "transaction error"
        case .unknown: "unknown"
        case .timedOutAtSDK: "transaction timed out at the SDK"
        }
    }
}

/// `acsUiType`: how the challenge asks the cardholder.
public enum AcsUiType: String, Sendable, Codable, CaseIterable {
    case text = "01"
    case singleSelect = "02"
    case multiSelect = "03"
    case outOfBand = "04"
    case htmlOther = "05"

    public var name: String {
        switch self {
        case .text: "text (one-time code)"
        case .singleSelect: "single-select"
        case .multiSelect: "multi-select"
        case .outOfBand: "out-of-band"
        case .htmlOther: "HTML other"
        }
    }
}

/// Whether the card can be authenticated, as Cardinal's lookup (`cmpi_lookup`) reports it: `Enrolled`.
public enum Enrollment: String, Sendable, Codable, CaseIterable {
    /// An ARes came back: authentication is available (its transStatus says how it went).
    case enrolled = "Y"
    case notEnrolled = "N"
    /// No ARes: the card range does not take part, the lookup failed, or it timed out.
    case unavailable = "U"
    /// The merchant's rules bypassed authentication.
    case bypassed = "B"

    public var meaning: String {
        switch self {
        case .enrolled: "authentication available"
        case .notEnrolled: "not enrolled"
        case .unavailable: "authentication unavailable at lookup"
        case .bypassed: "authentication bypassed"
        }
    }
}

/// The protocol's Erro message (EMV 3DS 2.2): who found the problem, its code and its description.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `errorComponent`: C 3DS SDK, S 3DS Server, D directory server, A ACS.
    public enum Component: String, Sendable, Codable {
        case sdk = "C", server = "S", directoryServer = "D", acs = "A"

        public var name: String {
            switch self {
            case .sdk: "3DS SDK"
            case .server: "3DS Server"
            case .directoryServer: "directory server"
            case .acs: "ACS"
            }
        }
    }

    public let errorCode: String
    public let errorComponent: Component
    public let errorDescription: String
    public let errorDetail: String?

    public init(_ code: String, _ component: Component, _ description: String, detail: String? = nil) {
        errorCode = code
        errorComponent = component
        errorDescription = description
        errorDetail = detail
    }

    public var description: String {
        "Erro \(errorCode) from the \(errorComponent.name): \(errorDescription)" + (errorDetail.map { " — \($0)" } ?? "")
    }

    // The codes the simulation sends (EMV 3DS 2.2, table A.4).
    public static func messageReceivedInvalid(_ from: Component, detail: String? = nil) -> ProtocolError {
        ProtocolError("101", from, "Message Received Invalid", detail: detail)
    }
    public static func invalidFormat(_ from: Component, detail: String? = nil) -> ProtocolError {
        ProtocolError("203", from, "Format of one or more Data Elements is Invalid according to the Specification", detail: detail)
    }
    public static func timedOut(_ from: Component, detail: String? = nil) -> ProtocolError {
        ProtocolError("402", from, "Transaction Timed Out", detail: detail)
    }
    public static func transientFailure(_ from: Component, detail: String? = nil) -> ProtocolError {
        ProtocolError("403", from, "Transient System Failure", detail: detail)
    }
    public static func connectionFailure(_ from: Component, detail: String? = nil) -> ProtocolError {
        ProtocolError("405", from, "System Connection Failure", detail: detail)
    }
}
