import Threading
import Determinism
import IdentityProvider
import IdpSdk
import MCSDK

/// How a flow ended.
public enum FlowOutcome: String, Sendable, Codable {
    case success
    case failure
    case cancelled
}

/// An error as a result reports it: the IdpSdk's subsystem and code where there is one.
public struct FlowError: Sendable, Equatable, Encodable {
    public let subsystem: Int?
    public let code: Int?
    public let message: String

    public init(subsystem: Int?, code: Int?, message: String) {
        self.subsystem = subsystem
        self.code = code
        self.message = message
    }

    init(_ error: IdpSdkError) {
        self.init(subsystem: error.subsystem, code: error.errorCode, message: error.message)
    }
}

/// The end of a flow: its outcome, a status name, the error, and the device afterwards.
public struct FlowResult: Sendable, Equatable, Encodable {
    public let flowID: Int
    public let flow: FlowKind
    public let outcome: FlowOutcome
    /// `OK`, a `StatusType` name, or one of the simulator's own (docs/sdk-names.md).
    public let status: String
    /// The step that failed or was cancelled.
    public let failedStep: FlowStep?
    public let error: FlowError?
    public let user: String?
    public let tenantId: String
    public let astClientId: String
    public let authenticationMode: KSMAuthenticationMode?
    public let duration: Duration
    /// What to try next, in plain words, when the flow did not succeed.
    public var advice: String? { Self.advice(status: status, code: error?.code) }

    enum CodingKeys: String, CodingKey {
        case flowID = "flowId", flow, outcome, status, failedStep, error, user, tenantId, astClientId
        case authenticationMode = "authMode", duration, advice
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(flowID, forKey: .flowID)
        try container.encode(flow, forKey: .flow)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(failedStep, forKey: .failedStep)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(user, forKey: .user)
        try container.encode(tenantId, forKey: .tenantId)
        try container.encode(astClientId, forKey: .astClientId)
        try container.encodeIfPresent(authenticationMode, forKey: .authenticationMode)
        try container.encode(duration.microseconds, forKey: .duration)
        try container.encodeIfPresent(advice, forKey: .advice)
    }
}

/// The statuses the simulator reports beyond the MC-SDK's `StatusType`.
public enum SimulatorStatus {
    /// A one-time activation code was presented a second time.
    public static let activationCodeUsed = "ACTIVATION_CODE_USED"
    /// Nobody answered a credential prompt before the timeout.
    public static let promptTimeout = "PROMPT_TIMEOUT"
    /// A login on a device that is not activated (the `sdkState` name).
    public static let activationRequired = KSMSdkState.activationRequired.rawValue
}

extension FlowResult {
    /// The outcome and status an IdpSdk error stands for.
    static func classify(_ error: IdpSdkError) -> (FlowOutcome, String) {
        if error == .userCancelled { return (.cancelled, StatusType.userCancel.rawValue) }
        switch (error.subsystem, error.errorCode) {
        case (IdpSdkError.appSubsystem, 2): return (.failure, SimulatorStatus.promptTimeout)
        case (IdpSdkError.appSubsystem, _): return (.cancelled, StatusType.userCancel.rawValue)
        case (IdpSdkError.transportSubsystem, _): return (.failure, StatusType.notReachable.rawValue)
        case (IdpFailure.subsystem, let code): return (.failure, status(forIdpCode: code))
        default: return (.failure, StatusType.failed.rawValue)
        }
    }

    static func status(forIdpCode code: Int) -> String {
        switch code {
        case IdpFailure.wrongCredentials(attemptsLeft: 0).code, IdpFailure.wrongActivationCode(attemptsLeft: 0).code:
            StatusType.wrongCredentials.rawValue
        case IdpFailure.activationCodeExpired.code: StatusType.activationCodeExpired.rawValue
        case IdpFailure.activationCodeUsed.code: SimulatorStatus.activationCodeUsed
        case IdpFailure.userLocked(remaining: .zero).code: StatusType.temporaryLocked.rawValue
        case IdpFailure.notActivated.code: SimulatorStatus.activationRequired
        case IdpFailure.alreadyActivated.code: StatusType.invalidState.rawValue
        case IdpFailure.unactivatedClient.code: StatusType.cannotAcquireTokenData.rawValue
        default: StatusType.failed.rawValue
        }
    }

    static func advice(status: String, code: Int?) -> String? {
        switch (status, code) {
        case ("OK", _), (StatusType.userCancel.rawValue, _): nil
        case (StatusType.wrongCredentials.rawValue, IdpFailure.wrongActivationCode(attemptsLeft: 0).code):
            "Check the activation code; wrong codes count towards the lock."
        case (StatusType.wrongCredentials.rawValue, _):
            "Check the user name and password; the account locks after too many wrong attempts in a row."
        case (StatusType.temporaryLocked.rawValue, _): "Wait until the lock ends, then try again."
        case (StatusType.activationCodeExpired.rawValue, _): "Ask for a new activation code."
        case (SimulatorStatus.activationCodeUsed, _):
            "Activation codes work once: log in if this device is activated, or ask for a new code."
        case (SimulatorStatus.activationRequired, _): "Activate this device first, then log in."
        case (StatusType.invalidState.rawValue, IdpFailure.alreadyActivated.code):
            "This device is already activated: log in instead, or reset the device to activate again."
        case (StatusType.invalidState.rawValue, _): "Send the events in order: Start, GetAstClientData, then SetAuthorisationCode."
        case (StatusType.failed.rawValue, IdpFailure.activatedForDifferentAccount.code):
            "Log in as the user this device was activated for, or reset the device."
        case (StatusType.cannotAcquireTokenData.rawValue, _):
            "The identity provider does not know this device as activated: reset the device and activate again."
        case (StatusType.notReachable.rawValue, 2):
            "Pin the identity provider's own certificate chain (the default), or turn the pinning fault off."
        case (StatusType.notReachable.rawValue, _): "Check the identity provider's URL and the network."
        case (SimulatorStatus.promptTimeout, _): "Answer the credential prompt sooner, or allow more time with --prompt-timeout."
        default: "See the error message for what the SDK reported."
        }
    }
}
