import FlowEngine
import FlowRecords
import IdentityProvider
import IdpSdk
import KSMasterController

/// What an IdpSdk or KSSIDP flow's result adds: the device afterwards.
public struct DeviceDetail: FlowResultDetail, Equatable {
    public let user: String?
    public let tenantId: String
    /// Nil for a device that is not activated (the MC-SDK's all-zero placeholder is no client's).
    public let astClientId: String?
    public let authenticationMode: KSMAuthenticationMode?
    /// A login that OfflineLogin completed, without the IdP.
    public var offline = false
    /// For a logout: whether a user was logged in before it (false: there was nothing to log out).
    public var wasLoggedIn: Bool?

    public func encode(to container: inout KeyedEncodingContainer<FlowResult.Key>) throws {
        try container.encodeIfPresent(user, forKey: .init("user"))
        try container.encode(tenantId, forKey: .init("tenantId"))
        try container.encodeIfPresent(astClientId, forKey: .init("astClientId"))
        try container.encodeIfPresent(authenticationMode, forKey: .init("authMode"))
        if offline { try container.encode(offline, forKey: .init("offline")) }
        try container.encodeIfPresent(wasLoggedIn, forKey: .init("wasLoggedIn"))
    }

    /// The device's user; none for a logout that found nobody logged in (its history row read as a real
    /// logout's, `alice success OK`).
    public var historyUser: String? { wasLoggedIn == false ? nil : user }
}

extension FlowResult {
    /// The device after an IdpSdk or KSSIDP flow; nil for the other families.
    public var device: DeviceDetail? { detail(DeviceDetail.self) }
    /// The device's activated user after an IdpSdk or KSSIDP flow.
    public var user: String? { device?.user }
    public var tenantId: String? { device?.tenantId }
    public var astClientId: String? { device?.astClientId }
    public var authenticationMode: KSMAuthenticationMode? { device?.authenticationMode }
    /// A login that OfflineLogin completed, without the IdP.
    public var offline: Bool { device?.offline ?? false }

    /// The outcome and status an IdpSdk error stands for.
    public static func classify(_ error: IdpSdkError) -> (FlowOutcome, String) {
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
}

enum DeviceAdvice {
    /// The transport error of a device that is offline (``IdpSdkError``'s code 4 in subsystem 511).
    static let offlineCode = 4
    /// The transport error of a request that timed out (``IdpSdkError``'s code 5 in subsystem 511).
    static let timedOutCode = 5
    /// The transport error of a certificate the app's pinned chain does not match (code 2 in subsystem 511).
    static let pinningCode = 2

    /// What an activation that failed or was cancelled after the IdP accepted its code leaves behind.
    static func codeSpent(startOver: String) -> String {
        "The IdP spent the activation code when it accepted it, before SetAuthorisationCode: activate again with another code; here, \(startOver) gives the scenario's codes back."
    }

    /// What to try next after an IdpSdk or KSSIDP flow ended with `status`; `startOver`: what gives the scenario's
    /// activation codes back (``SimulationStores/startOver``).
    static func advice(status: String, code: Int?, startOver: String) -> String? {
        switch (status, code) {
        case (StatusType.WRONG_CREDENTIALS.name, IdpFailure.wrongActivationCode(attemptsLeft: 0).code):
            "Check the activation code; wrong codes count towards the lock."
        case (StatusType.WRONG_CREDENTIALS.name, _):
            "Check the user name and password; the account locks after too many wrong attempts in a row."
        case (StatusType.ACTIVATION_CODE_EXPIRED.name, _): "Ask for a new activation code: this one is past its expiry."
        case (SimulatorStatus.activationCodeUsed, _):
            "Activation codes work once: log in if this device is activated, or ask for a new code; here, \(startOver) gives the scenario's codes back."
        case (SimulatorStatus.activationRequired, _): "Activate this device first, then log in."
        case (StatusType.INVALID_STATE.name, IdpFailure.alreadyActivated.code):
            "Log in, or, to activate again, reset the device first. Here: \(startOver)"
        case (StatusType.INVALID_STATE.name, _): "Send the events in order: Start, GetAstClientData, then SetAuthorisationCode."
        case (StatusType.FAILED.name, IdpFailure.activatedForDifferentAccount.code):
            "Log in as the user this device was activated for, or reset the device. Here: \(startOver)"
        case (StatusType.CANNOT_ACQUIRE_TOKEN_DATA.name, _):
            "The identity provider does not know this device as activated: reset the device and activate again. Here: \(startOver)"
        case (StatusType.NOT_REACHABLE.name, offlineCode): "Bring the network back (the network-unavailable fault), then run the flow again."
        case (StatusType.FAILED.name, IdpFailure.serverError("").code):
            "The identity provider failed (HTTP 500): try again later, or turn the server-error fault off."
        case (StatusType.FAILED.name, 5): "The identity provider's page could not be read: turn the malformed-page fault off."
        case (StatusType.NOT_REACHABLE.name, _): "Check the identity provider's URL and the network."
        default: nil
        }
    }
}
