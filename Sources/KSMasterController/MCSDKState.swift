import Secrets

/// What a master controller knows of its device, under its lock: the store's copy, and this process's own
/// `started` and `pending`.
struct DeviceState {
    var deviceID: String
    var started = false
    var activation: PersistedDevice.Activation?
    var loggedIn = false
    var offlineToken: PersistedDevice.OfflineToken?
    var pending: PendingLogin?
    /// Whether a SetAuthorisationCodeEvent consumed the last GetAstClientDataEvent's `pending` (a restart or a runtime
    /// error forgets it: nothing was taken since; a StartEvent keeps `pending`, and so this, as it was).
    var pendingConsumed = false
    /// Whether the last RestartEvent ended a session: a user was logged in by the store's copy, which another
    /// process on the same state file may have changed since this one loaded it.
    var restartEndedASession = false
    /// How many times the store's device has been taken: a reload that read the store before another load
    /// took it keeps that newer one.
    var loads = 0

    var sdkState: KSMSdkState { activation == nil ? .activationRequired : .loginRequired }
    var userList: [KsUserIdentifier] { activation.map { [$0.user] } ?? [] }

    /// Takes what the store holds (the process's own `started` and `pending` stay).
    mutating func load(_ device: PersistedDevice) {
        loads &+= 1
        deviceID = device.deviceID
        activation = device.activation
        loggedIn = device.accessTokenHash != nil
        offlineToken = device.offlineToken
    }
}

/// What SetAuthorisationCode found: the pending login it takes, or the result that refuses it.
enum PendingLoginCheck {
    case pending(PendingLogin)
    case refused(KSMSetAuthorisationCodeResultEvent)
}

/// The PKCE verifier and client data of the last GetAstClientData, used by the next SetAuthorisationCode.
struct PendingLogin {
    let verifier: Secret
    let clientData: String
}
