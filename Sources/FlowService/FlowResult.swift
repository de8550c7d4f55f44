import FlowRecords
import Threading
import Determinism
import IdentityProvider
import IdpSdk
import KSMasterController

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
        self.init(subsystem: error.subsystem, code: error.errorCode, message: error.errorDescription)
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
    /// For a payment: the 3-D Secure outcome and the delegate callback that reported it.
    public internal(set) var payment: PaymentOutcome? = nil
    /// A login that OfflineLogin completed, without the IdP.
    public internal(set) var offline: Bool = false
    /// For a Q2 login: the module's outcome.
    public internal(set) var q2: Q2Outcome? = nil
    /// What to try next, in plain words, when the flow did not succeed.
    public var advice: String? { Self.advice(status: status, code: error?.code) }

    enum CodingKeys: String, CodingKey {
        case flowID = "flowId", flow, outcome, status, failedStep, error, user, tenantId, astClientId
        case authenticationMode = "authMode", duration, payment, offline, q2, advice
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(flowID, forKey: .flowID)
        try container.encode(flow, forKey: .flow)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(failedStep, forKey: .failedStep)
        try container.encodeIfPresent(error, forKey: .error)
        if flow.usesIdentityProvider {
            try container.encodeIfPresent(user, forKey: .user)
            try container.encode(tenantId, forKey: .tenantId)
            try container.encode(astClientId, forKey: .astClientId)
            try container.encodeIfPresent(authenticationMode, forKey: .authenticationMode)
        }
        try container.encode(duration.microseconds, forKey: .duration)
        try container.encodeIfPresent(payment, forKey: .payment)
        if offline { try container.encode(offline, forKey: .offline) }
        try container.encodeIfPresent(q2, forKey: .q2)
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
    /// The MC-SDK refused to start on a rooted or jailbroken device.
    public static let insecureDevice = "INSECURE_DEVICE"
}

/// The statuses of a payment's result, after the delegate callback that ended it (docs/payer-authentication.md).
public enum PaymentStatus {
    /// `onPayerAuthenticationFrictionless`: Y or A without a challenge.
    public static let frictionless = "FRICTIONLESS"
    /// `onPayerAuthenticationSuccess`: the challenge ended Y.
    public static let authenticated = "AUTHENTICATED"
    /// `onPayerAuthenticationFailure`: the challenge ended N or U (but not by a cancel).
    public static let authenticationFailed = "AUTHENTICATION_FAILED"
    /// `onPayerAuthenticationUnavailable`: N, R or U before any challenge.
    public static let authenticationUnavailable = "AUTHENTICATION_UNAVAILABLE"
    /// `onSafepayError`: a bad configuration, the bridge, or the directory server refused the AReq.
    public static let safepayError = "SAFEPAY_ERROR"
}

/// What a payment ended in: the callback that fired and the 3-D Secure values it carried.
public struct PaymentOutcome: Sendable, Equatable, Encodable {
    /// The delegate method, e.g. `onPayerAuthenticationSuccess`; nil when the payment stopped before any.
    public let callback: String?
    public let transStatus: String?
    public let transStatusReason: String?
    public let eci: String?
    public let challengeCancel: String?
    /// The card as screens show it (`•••• 2503`), and its brand.
    public let card: String?
    public let brand: String?
    /// e.g. "EUR 49.99".
    public let amount: String?
    public let merchant: String?

    public init(callback: String?, transStatus: String?, transStatusReason: String?, eci: String?, challengeCancel: String?,
                card: String?, brand: String?, amount: String?, merchant: String?) {
        self.callback = callback
        self.transStatus = transStatus
        self.transStatusReason = transStatusReason
        self.eci = eci
        self.challengeCancel = challengeCancel
        self.card = card
        self.brand = brand
        self.amount = amount
        self.merchant = merchant
    }
}

extension FlowResult {
    /// The outcome and status an IdpSdk error stands for.
    static func classify(_ error: IdpSdkError) -> (FlowOutcome, String) {
        if error == .userCancelled { return (.cancelled, StatusType.USER_CANCEL.name) }
        switch (error.subsystem, error.errorCode) {
        case (IdpSdkError.appSubsystem, 2): return (.failure, SimulatorStatus.promptTimeout)
        case (IdpSdkError.appSubsystem, _): return (.cancelled, StatusType.USER_CANCEL.name)
        case (IdpSdkError.transportSubsystem, _): return (.failure, StatusType.NOT_REACHABLE.name)
        case (IdpFailure.subsystem, let code): return (.failure, status(forIdpCode: code))
        default: return (.failure, StatusType.FAILED.name)
        }
    }

    static func status(forIdpCode code: Int) -> String {
        switch code {
        case IdpFailure.wrongCredentials(attemptsLeft: 0).code, IdpFailure.wrongActivationCode(attemptsLeft: 0).code:
            StatusType.WRONG_CREDENTIALS.name
        case IdpFailure.activationCodeExpired.code: StatusType.ACTIVATION_CODE_EXPIRED.name
        case IdpFailure.activationCodeUsed.code: SimulatorStatus.activationCodeUsed
        case IdpFailure.userLocked(remaining: .zero).code: StatusType.TEMPORARY_LOCKED.name
        case IdpFailure.notActivated.code: SimulatorStatus.activationRequired
        case IdpFailure.alreadyActivated.code: StatusType.INVALID_STATE.name
        case IdpFailure.unactivatedClient.code: StatusType.CANNOT_ACQUIRE_TOKEN_DATA.name
        default: StatusType.FAILED.name
        }
    }

    static func advice(status: String, code: Int?) -> String? {
        switch (status, code) {
        case ("OK", _), (StatusType.USER_CANCEL.name, _), (PaymentStatus.frictionless, _), (PaymentStatus.authenticated, _): nil
        case (StatusType.WRONG_CREDENTIALS.name, IdpFailure.wrongActivationCode(attemptsLeft: 0).code):
            "Check the activation code; wrong codes count towards the lock."
        case (StatusType.WRONG_CREDENTIALS.name, _):
            "Check the user name and password; the account locks after too many wrong attempts in a row."
        case (StatusType.TEMPORARY_LOCKED.name, _): "Wait until the lock ends, then try again."
        case (StatusType.ACTIVATION_CODE_EXPIRED.name, _): "Ask for a new activation code."
        case (SimulatorStatus.activationCodeUsed, _):
            "Activation codes work once: log in if this device is activated, or ask for a new code."
        case (SimulatorStatus.activationRequired, _): "Activate this device first, then log in."
        case (StatusType.INVALID_STATE.name, IdpFailure.alreadyActivated.code):
            "This device is already activated: log in instead, or reset the device to activate again."
        case (StatusType.INVALID_STATE.name, _): "Send the events in order: Start, GetAstClientData, then SetAuthorisationCode."
        case (StatusType.FAILED.name, IdpFailure.activatedForDifferentAccount.code):
            "Log in as the user this device was activated for, or reset the device."
        case (StatusType.CANNOT_ACQUIRE_TOKEN_DATA.name, _):
            "The identity provider does not know this device as activated: reset the device and activate again."
        case (StatusType.NOT_REACHABLE.name, 2):
            "Pin the identity provider's own certificate chain (the default), or turn the pinning fault off."
        case (StatusType.NOT_REACHABLE.name, 4): "The device is offline: bring the network back (the network-unavailable fault)."
        case (StatusType.NOT_REACHABLE.name, 5):
            "The identity provider did not answer in time: try again, or turn the request-timeout fault off."
        case (StatusType.FAILED.name, IdpFailure.serverError("").code):
            "The identity provider failed (HTTP 500): try again later, or turn the server-error fault off."
        case (StatusType.FAILED.name, 5): "The identity provider's page could not be read: turn the malformed-page fault off."
        case (StatusType.INTERNAL_ERROR.name, _):
            "The MC-SDK restarted itself after a runtime error: run the flow again (it starts with StartEvent)."
        case (SimulatorStatus.insecureDevice, _):
            "The MC-SDK does not run on a rooted or jailbroken device: use a secure device, or turn the insecure-device fault off."
        case (StatusType.NOT_REACHABLE.name, _): "Check the identity provider's URL and the network."
        case (SimulatorStatus.promptTimeout, _): "Answer the prompt sooner, or allow more time with --prompt-timeout."
        case (PaymentStatus.authenticationFailed, _):
            "The issuer did not authenticate the cardholder: do not authorise this payment. For a wrong one-time code, the simulated issuer's code is 1234."
        case (PaymentStatus.authenticationUnavailable, _):
            "No 3-D Secure authentication: authorise only if your liability rules allow it, or ask for another card."
        case (Q2Status.invalidCredentials, _):
            "Check the user id and password; Core locks the user after too many wrong attempts in a row."
        case (Q2Status.networkUnavailable, _): "The device could not reach Core: check the network (or turn the network fault off)."
        case (Q2Status.genericError, _): "Core failed: try again later (or turn the server-error fault off)."
        case (Q2Status.insecure, _): "The security module blocks logins on this device: use a secure device."
        case (Q2Status.noSavedCredential, _): "Sign in with a username and password first; a successful login saves the credential."
        case (PaymentStatus.safepayError, _):
            "The Drops page or its configuration failed: check the configuration and any bridge fault, then start the payment again."
        default: "See the error message for what the SDK reported."
        }
    }
}
