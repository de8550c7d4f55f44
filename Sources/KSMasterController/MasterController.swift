import Threading
import Crypto
import Determinism
import Dispatch
import IdentityProvider
import Secrets

/// Where a simulated master controller finds its IdP and what it shares with it.
public struct MasterControllerConfiguration: Sendable {
    public var idpUrl: String
    public var network: SimulatedNetwork
    public var random: RandomSource
    /// The key that seals `clientData` for the IdP (``IdentityProvider/clientDataKey``).
    public var clientDataKey: [UInt8]
    /// This device's identity, fixed for its life (a stored device keeps the one it was given first).
    public var deviceID: String
    /// Where the device is kept between runs.
    public var store: any DeviceStore
    /// The faults that bite here: an insecure device, a runtime error.
    public var faults: FaultSwitchboard
    /// How long an offline token lets OfflineLogin work (idp-tui's choice).
    public var offlineTokenLifetime: Duration
    /// The serial queue the controller's own queue (`MC-SDK`) runs on, shared with the app's queues of the same
    /// device so that a call and its completion need no thread hop; nil for a queue of its own.
    public var targetQueue: DispatchQueue?

    public init(
        idpUrl: String, network: SimulatedNetwork, random: RandomSource, clientDataKey: [UInt8], deviceID: String? = nil,
        store: any DeviceStore = MemoryDeviceStore(), faults: FaultSwitchboard = FaultSwitchboard(),
        offlineTokenLifetime: Duration = .seconds(30 * 86_400), targetQueue: DispatchQueue? = nil
    ) {
        self.idpUrl = idpUrl
        self.network = network
        self.random = random
        self.clientDataKey = clientDataKey
        self.deviceID = deviceID ?? Base64URL.encode(random.bytes(12))
        self.store = store
        self.faults = faults
        self.offlineTokenLifetime = offlineTokenLifetime
        self.targetQueue = targetQueue
    }
}

/// What a device's master controller holds, for status lines and tests.
public struct DeviceSnapshot: Sendable, Equatable {
    public var started: Bool
    public var activatedUser: KSMUserIdentifier?
    public var astClientId: String
    public var loggedIn: Bool
    public var authenticationMode: KSMAuthenticationMode?
    public var hasOfflineToken: Bool = false
}

/// The simulated MC-SDK master controller of one device.
///
/// Events are handled one at a time, in order, on the controller's own serial queue (named `MC-SDK`), as the
/// real controller's event loop does. An event that does not fit the state gets an invalid-state result.
/// The device (its id, activation, session and offline token) lives in the configuration's ``DeviceStore``:
/// read again at every Start, written in one transaction at every change.
public final class MasterController: Sendable {
    private let configuration: MasterControllerConfiguration
    private let queue: DispatchQueue
    private let state: Locked<DeviceState>
    /// The configuration's `clientDataKey`, keyed once.
    private let clientDataSealer: HMAC.Key

    /// The store is read at the first Start (and at every Start after): a store that fails makes Start fail,
    /// never this.
    public init(configuration: MasterControllerConfiguration) {
        self.configuration = configuration
        queue = QueueName.makeSerialQueue("MC-SDK", target: configuration.targetQueue)
        clientDataSealer = HMAC.Key(configuration.clientDataKey)
        state = Locked(DeviceState(deviceID: configuration.deviceID))
    }

    /// This device's id (the stored one once the store has been read).
    public var deviceID: String { state.withLock { $0.deviceID } }

    /// Reads the stored device now, so that ``snapshot`` shows it before the first Start. A store that fails
    /// is left for Start to report.
    public func loadStoredDevice() {
        guard let device = try? configuration.store.load() else { return }
        state.withLock { $0.load(device) }
    }

    /// Sends an event and returns its result event.
    public func receive(_ event: any KSMEvent) async -> any KSMEvent {
        await withCheckedContinuation { continuation in
            sendEvent2MasterController(event) { continuation.resume(returning: $0) }
        }
    }

    /// Sends an event; `completion` gets the result on the controller's queue (the iOS call's shape).
    public func sendEvent2MasterController(_ event: any KSMEvent, completion: @escaping @Sendable (any KSMEvent) -> Void) {
        queue.async { [self] in completion(handle(event)) }
    }

    public var snapshot: DeviceSnapshot {
        state.withLock { state in
            DeviceSnapshot(
                started: state.started, activatedUser: state.activation?.user,
                astClientId: state.activation?.astClientId ?? ClientData.unactivatedAstClientId,
                loggedIn: state.loggedIn, authenticationMode: state.activation?.authenticationMode,
                hasOfflineToken: state.offlineToken != nil)
        }
    }

    // MARK: Handling

    private func handle(_ event: any KSMEvent) -> any KSMEvent {
        switch event {
        case is KSMStartEvent: return start()
        case is KSMGetAstClientDataEvent: return getAstClientData()
        case let event as KSMSetAuthorisationCodeEvent: return setAuthorisationCode(event)
        case is KSMRestartEvent: return restart()
        case is KSMOfflineLoginEvent: return offlineLogin()
        default: return KSMInvalidStateEvent(errorMessage: "\(event.eventName) is not handled by this master controller")
        }
    }

    private func start() -> KSMStartResultEvent {
        if configuration.faults.faults.insecureDevice {
            configuration.faults.triggered("insecure device: the MC-SDK's integrity check finds it rooted or jailbroken")
            var result = KSMStartResultEvent(status: .failed, sdkState: .uninitialised, userList: [])
            result.errorDescription = "the device is rooted or jailbroken; the MC-SDK does not run on an insecure device"
            return result
        }
        // Another process on the same state file may have activated or logged out this device. The first
        // Start on a new store stores the device.
        let given = configuration.deviceID
        let stored: PersistedDevice
        do {
            stored = try configuration.store.update { device -> PersistedDevice in
                if device == nil { device = PersistedDevice(deviceID: given) }
                return device ?? PersistedDevice(deviceID: given)
            }
        } catch {
            var result = KSMStartResultEvent(status: .internalError, sdkState: .uninitialised, userList: [])
            result.errorDescription = "the device's store failed: \(error.description)"
            return result
        }
        return state.withLock { state in
            state.load(stored)
            state.started = true
            return KSMStartResultEvent(status: .ok, sdkState: state.sdkState, userList: state.userList)
        }
    }

    private func getAstClientData() -> KSMGetAstClientDataResultEvent {
        var verifierBytes = Array(Base64URL.encode(configuration.random.bytes(32)).utf8)
        let challenge = Base64URL.encode(SHA256.digest(verifierBytes))
        let verifier = Secret(consuming: &verifierBytes)
        let nonce = Base64URL.encode(configuration.random.bytes(12))
        return state.withLock { state in
            guard state.started else { return .failure(.invalidState, "send StartEvent before GetAstClientDataEvent") }
            let astClientId = state.activation?.astClientId ?? ClientData.unactivatedAstClientId
            let clientData = ClientData(deviceID: state.deviceID, astClientId: astClientId, nonce: nonce)
                .sealed(with: clientDataSealer)
            state.pending = PendingLogin(verifier: verifier, clientData: clientData)
            return KSMGetAstClientDataResultEvent(
                status: .ok, clientData: clientData, astClientId: astClientId, codeChallange: challenge,
                codeChallangeMethod: "S256", hasErrorOccurred: false, errorCode: 0, reportId: nil,
                errorDescription: nil)
        }
    }

    private func setAuthorisationCode(_ event: KSMSetAuthorisationCodeEvent) -> any KSMEvent {
        let taken: Taken = state.withLock { state in
            guard state.started else {
                return .refused(.failure(.invalidState, 0, "send StartEvent before SetAuthorisationCodeEvent"))
            }
            guard let pending = state.pending else {
                return .refused(.failure(.invalidState, 0, "send GetAstClientDataEvent before SetAuthorisationCodeEvent"))
            }
            state.pending = nil
            return .pending(pending)
        }
        let login: PendingLogin
        switch taken {
        case .refused(let result): return result
        case .pending(let value): login = value
        }
        guard !event.authorisationCode.isEmpty else {
            return KSMSetAuthorisationCodeResultEvent.failure(.failed, 0, "the authorisation code is empty")
        }
        let provider: IdentityProvider
        do {
            provider = try configuration.network.connect(to: configuration.idpUrl)
        } catch {
            return KSMSetAuthorisationCodeResultEvent.failure(.notReachable, 0, error.description)
        }
        let request = TokenRequest(
            tenantId: event.tenantId, clientId: event.clientId, authorizationCode: event.authorisationCode,
            codeVerifier: login.verifier, clientData: login.clientData)
        let exchanged = provider.exchange(request)
        if configuration.faults.takeRuntimeError() {
            configuration.faults.triggered("MC runtime error: the MC-SDK fails while storing the tokens and restarts itself")
            state.withLock { state in
                state.started = false
                state.pending = nil
            }
            return KSMRuntimeErrorEvent(errorMessage: "internal error while storing the token data; the MC-SDK restarted itself")
        }
        switch exchanged {
        case .failure(let failure):
            let status: StatusType = failure == .unactivatedClient ? .cannotAcquireTokenData : .failed
            return KSMSetAuthorisationCodeResultEvent.failure(status, failure.code, failure.message)
        case .success(let tokens):
            return store(tokens, mode: event.authenticationMode)
        }
    }

    private func store(_ tokens: TokenResponse, mode: KSMAuthenticationMode) -> any KSMEvent {
        let user = KSMUserIdentifier(tenantId: tokens.tenantId, userId: tokens.username)
        let accessHash = tokens.accessToken.withUnsafeBytes { SHA256.digest(Array($0)) }
        // With no local authentication there is nothing to protect an offline token with: none is kept.
        let offline = mode == .no ? nil : PersistedDevice.OfflineToken(
            hash: tokens.offlineToken.withUnsafeBytes { SHA256.digest(Array($0)) },
            expiresAt: configuration.network.clock.now.advanced(by: configuration.offlineTokenLifetime))
        let deviceID = state.withLock { $0.deviceID }
        do {
            let device = try configuration.store.update { device -> PersistedDevice in
                var updated = device ?? PersistedDevice(deviceID: deviceID)
                if tokens.activated || updated.activation == nil {
                    updated.activation = PersistedDevice.Activation(user: user, astClientId: tokens.astClientId, authenticationMode: mode)
                }
                updated.activation?.authenticationMode = mode
                updated.accessTokenHash = accessHash
                updated.offlineToken = offline
                device = updated
                return updated
            }
            state.withLock { $0.load(device) }
        } catch {
            return KSMSetAuthorisationCodeResultEvent.failure(.internalError, 0, "the device's store failed: \(error.description)")
        }
        return KSMSetAuthorisationCodeResultEvent(status: .ok, userIdentifier: user, errorCode: 0, errorDescription: nil)
    }

    private func restart() -> any KSMEvent {
        guard state.withLock({ $0.started }) else { return KSMInvalidStateEvent(errorMessage: "send StartEvent before RestartEvent") }
        do {
            let device = try configuration.store.update { device -> PersistedDevice? in
                device?.accessTokenHash = nil
                return device
            }
            return state.withLock { state -> any KSMEvent in
                if let device { state.load(device) }
                state.pending = nil
                return KSMRestartResultEvent(status: .ok, sdkState: state.sdkState)
            }
        } catch {
            return KSMRestartResultEvent(status: .internalError, sdkState: state.withLock { $0.sdkState })
        }
    }

    private func offlineLogin() -> KSMOfflineLoginResultEvent {
        let now = configuration.network.clock.now
        let (started, activation, token, loggedIn) = state.withLock { ($0.started, $0.activation, $0.offlineToken, $0.loggedIn) }
        guard started else {
            return KSMOfflineLoginResultEvent(status: .invalidState, userIdentifier: nil, errorDescription: "send StartEvent before OfflineLoginEvent")
        }
        guard let activation else {
            return KSMOfflineLoginResultEvent(status: .invalidState, userIdentifier: nil, errorDescription: "the device is not activated")
        }
        if loggedIn { return KSMOfflineLoginResultEvent(status: .ok, userIdentifier: activation.user, errorDescription: nil) }
        guard let token else {
            let why = activation.authenticationMode == .no
                ? "no offline token: the last login used authentication mode no, which keeps none"
                : "no offline token on this device"
            return KSMOfflineLoginResultEvent(status: .noTokenDataAvailable, userIdentifier: nil, errorDescription: why)
        }
        guard token.expiresAt > now else {
            return KSMOfflineLoginResultEvent(status: .loginRequired, userIdentifier: nil, errorDescription: "the offline token has expired")
        }
        // The simulated local authentication (biometric, PIN or password) always passes.
        let session = token.hash
        do {
            let device = try configuration.store.update { device -> PersistedDevice? in
                device?.accessTokenHash = SHA256.digest(session + Array("offline".utf8))
                return device
            }
            state.withLock { state in if let device { state.load(device) } }
        } catch {
            return KSMOfflineLoginResultEvent(status: .internalError, userIdentifier: nil, errorDescription: "the device's store failed: \(error.description)")
        }
        return KSMOfflineLoginResultEvent(status: .ok, userIdentifier: activation.user, errorDescription: nil)
    }
}

extension KSMSetAuthorisationCodeResultEvent {
    static func failure(_ status: StatusType, _ code: Int, _ description: String) -> KSMSetAuthorisationCodeResultEvent {
        KSMSetAuthorisationCodeResultEvent(status: status, userIdentifier: nil, errorCode: code, errorDescription: description)
    }
}

// MARK: - State

private struct DeviceState {
    var deviceID: String
    var started = false
    var activation: PersistedDevice.Activation?
    var loggedIn = false
    var offlineToken: PersistedDevice.OfflineToken?
    var pending: PendingLogin?

    var sdkState: KSMSdkState { activation == nil ? .activationRequired : .loginRequired }
    var userList: [KSMUserIdentifier] { activation.map { [$0.user] } ?? [] }

    /// Takes what the store holds (the process's own `started` and `pending` stay).
    mutating func load(_ device: PersistedDevice) {
        deviceID = device.deviceID
        activation = device.activation
        loggedIn = device.accessTokenHash != nil
        offlineToken = device.offlineToken
    }
}

private enum Taken {
    case pending(PendingLogin)
    case refused(KSMSetAuthorisationCodeResultEvent)
}

/// The PKCE verifier and client data of the last GetAstClientData, used by the next SetAuthorisationCode.
private struct PendingLogin {
    let verifier: Secret
    let clientData: String
}
