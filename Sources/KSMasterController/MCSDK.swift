import Threading
import Crypto
import Determinism
import Dispatch
import IdentityProvider
import Secrets

/// What the SDKs ask of an object they call on their own threads (``KSAsyncEventReceiver``, the IdpSdk's
/// `IdpSdkInteractionInterface`): a class whose conformance is not isolated to an actor. From Swift 6.2 a
/// `@MainActor` conformance to such a protocol is refused when it is compiled (`SendableMetatype`): the SDK
/// would call main-actor code on its own thread, unchecked. Ours, not the vendors' (docs/sdk-names.md).
#if compiler(>=6.2)
public typealias CalledOnSDKThreads = AnyObject & SendableMetatype
#else
public typealias CalledOnSDKThreads = AnyObject
#endif

/// What receives the MC-SDK's events: the master controller itself (the app sends it events), and the app's
/// consumer, given to ``KSMasterControllerFactory``, which hears the events the controller sends unasked.
public protocol KSAsyncEventReceiver: CalledOnSDKThreads {
    /// Takes an event; `completionBlock`, when given, gets the result event on the MC-SDK's own thread.
    func receive(_ event: any KsEvent, withCompletionHandler completionBlock: (((any KsEvent)?) -> Void)?)
}

/// The simulated MC-SDK master controller of one device: the type the migration guide calls `MCSDK`.
///
/// On a device the factory returns it as `any KSAsyncEventReceiver & KSEcoModulInterface & KSEventSource`;
/// here it is one class, got the same way:
///
/// ```swift
/// let masterController = KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: receiver)!
/// let start = await masterController.receive(KSMStartEvent()) as! KSMStartResultEvent
/// ```
///
/// Events are handled one at a time, in order, on the controller's own serial queue (named `MC-SDK`), as the
/// real controller's event loop does; results come back on that queue, never the main thread. An event that
/// does not fit the state gets an invalid-state result. The device (its id, activation, session and offline
/// token) lives in a ``DeviceStore``: read again at every Start, written in one transaction at every change.
public final class MCSDK: KSAsyncEventReceiver, Sendable {
    private let configuration: MasterControllerConfiguration
    /// The events in turn, on the controller's queue: a round trip's latency leaves the queue's thread free.
    private let lane: SerialTaskLane
    private let state: Locked<DeviceState>
    /// The configuration's `clientDataKey`, keyed once.
    private let clientDataSealer: HMAC.Key
    /// The app's consumer: it hears the runtime errors the controller reports unasked.
    private let consumer: Locked<WeakReceiver>
    /// What the event being handled makes the controller report unasked (a runtime error), before its result.
    private let unasked = Locked<(any KsEvent)?>(nil)
    /// A RestartEvent sent whose result has not been handed back: the vendor's rule is to wait for it.
    private let restartInFlight = Locked(false)
    /// Released by the factory: what is sent from then on is refused (``release()``).
    private let released = Locked(false)

    /// The store is read at the first Start (and at every Start after): a store that fails makes Start fail,
    /// never this.
    package init(configuration: MasterControllerConfiguration, consumer: (any KSAsyncEventReceiver)? = nil) {
        self.configuration = configuration
        lane = SerialTaskLane(
            queue: QueueName.makeSerialQueue("MC-SDK", target: configuration.targetQueue), counting: configuration.network.clock.pendingWork)
        clientDataSealer = HMAC.Key(configuration.clientDataKey)
        state = Locked(DeviceState(deviceID: configuration.deviceID))
        self.consumer = Locked(WeakReceiver(receiver: consumer))
    }

    /// The consumer that hears what the controller reports unasked, for a controller made without one (the flows'
    /// device: its family listens as an app's receiver would). Held weakly, as the factory's is.
    package func listen(_ receiver: any KSAsyncEventReceiver) {
        consumer.withLock { $0 = WeakReceiver(receiver: receiver) }
    }

    /// This device's id (the stored one once the store has been read).
    package var deviceID: String { state.withLock { $0.deviceID } }

    /// Reads the stored device now, so that ``snapshot`` shows it before the first Start (a store that fails is
    /// left for Start to report). Off the controller's queue: a call a cancel left in flight may store and load
    /// the device between this read and its load, and what it loaded is newer.
    package func loadStoredDevice() {
        let loads = state.withLock { $0.loads }
        let stored: PersistedDevice?
        do {
            stored = try configuration.store.load()
        } catch {
            return
        }
        // No device stored: another process reset the file (`idp-tui reset`). This one is then a new device too,
        // as its next StartEvent will store it; it kept showing the device from before the reset.
        let device = stored ?? PersistedDevice(deviceID: configuration.deviceID)
        state.withLock { state in
            if state.loads == loads { state.load(device) }
        }
    }

    /// Sends an event; `completionBlock` gets the result event on the controller's queue (`MC-SDK`).
    public func receive(_ event: any KsEvent, withCompletionHandler completionBlock: (((any KsEvent)?) -> Void)?) {
        // The vendor's block is not `Sendable`: it is called once, on this controller's queue, as on a device.
        let completion = UncheckedSendable(completionBlock)
        if released.withLock({ $0 }) {
            let refusal = KSMInvalidStateEvent(errorMessage: "\(event.getName()) was sent to a released master controller: "
                + "get the device's controller again (KSMasterControllerFactory.getMasterController)")
            lane.add { [self] in finish(refusal, restart: false, completion.value) }
            return
        }
        // Logout is RestartEvent, and nothing may follow it until its result has arrived (a fire-and-forget logout
        // would pass here and fail on a device): what is sent meanwhile is refused as out of order.
        let isRestart = event is KSMRestartEvent
        let (restart, early) = restartInFlight.withLock { inFlight -> (Bool, Bool) in
            defer { inFlight = inFlight || isRestart }
            return (isRestart && !inFlight, inFlight)
        }
        // Only SetAuthorisationCode crosses the network: the others run as plain jobs, with no task made.
        if !early, let event = event as? KSMSetAuthorisationCodeEvent {
            lane.add { [self] in finish(await setAuthorisationCode(event), restart: restart, completion.value) }
        } else {
            lane.add { [self] in finish(early ? refusedBeforeRestartResult(event) : handle(event), restart: restart, completion.value) }
        }
    }

    /// Hands an event's result back: what the controller reports unasked first, to the consumer.
    private func finish(_ result: any KsEvent, restart: Bool, _ completion: (((any KsEvent)?) -> Void)?) {
        // Cleared before the result is handed back: whatever is sent once it has arrived is in order.
        if restart { restartInFlight.withLock { $0 = false } }
        if let report = unasked.withLock({ report in defer { report = nil }; return report }),
            let consumer = consumer.withLock({ $0.receiver })
        {
            consumer.receive(report, withCompletionHandler: nil)
        }
        completion?(result)
    }

    /// Sends an event and returns its result event (the Swift form of `receive(_:withCompletionHandler:)`;
    /// never nil here).
    public func receive(_ event: any KsEvent) async -> (any KsEvent)? {
        // Meanwhile the caller counts as nothing in a test's count: the event's work on the queue counts instead.
        let pending = configuration.network.clock.pendingWork
        return await withCheckedContinuation { continuation in
            receive(event) { result in
                pending?.begin()
                continuation.resume(returning: result)
            }
            pending?.end()
        }
    }

    /// The factory released this controller: each event sent from now on is answered `KSMInvalidStateEvent`, on its
    /// queue, as an event that does not fit the state is; one sent before is handled as usual. The device stays.
    package func release() { released.withLock { $0 = true } }

    /// Whether the last RestartEvent ended a session (a user was logged in, by the state file at that moment).
    package var restartEndedASession: Bool { state.withLock { $0.restartEndedASession } }

    package var snapshot: DeviceSnapshot {
        state.withLock { state in
            DeviceSnapshot(
                started: state.started, activatedUser: state.activation?.user,
                astClientId: state.activation?.astClientId ?? ClientData.unactivatedAstClientId,
                loggedIn: state.loggedIn, authenticationMode: state.activation?.authenticationMode,
                hasOfflineToken: state.offlineToken != nil)
        }
    }

    // MARK: Handling

    /// Every event but SetAuthorisationCode, which awaits the network (``setAuthorisationCode(_:)``).
    private func handle(_ event: any KsEvent) -> any KsEvent {
        switch event {
        case is KSMStartEvent: return start()
        case is KSMGetAstClientDataEvent: return getAstClientData()
        case is KSMRestartEvent: return restart()
        case let event as KSMOfflineLoginEvent: return offlineLogin(event.userIdentifier)
        default: return KSMInvalidStateEvent(errorMessage: "\(event.getName()) is not handled by this master controller")
        }
    }

    private func start() -> KSMStartResultEvent {
        if let insecure = configuration.integrityFailure() {
            // Stopped, as a refused restart leaves it: the next event but Start is out of order.
            state.withLock { $0.started = false }
            return KSMStartResultEvent(status: .KSMFAILED, sdkState: .uninitialised, userList: [], errorDescription: insecure)
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
            return KSMStartResultEvent(status: .KSMINTERNAL_ERROR, sdkState: .uninitialised, userList: [],
                                       errorDescription: "the device's store failed: \(error.description)")
        }
        return state.withLock { state in
            state.load(stored)
            state.started = true
            return KSMStartResultEvent(status: .KSMOK, sdkState: state.sdkState, userList: state.userList)
        }
    }

    private func getAstClientData() -> KSMGetAstClientDataResultEvent {
        var verifierBytes = Array(Base64URL.encode(configuration.random.bytes(32)).utf8)
        let challenge = Base64URL.encode(SHA256.digest(verifierBytes))
        let verifier = Secret(consuming: &verifierBytes)
        let nonce = Base64URL.encode(configuration.random.bytes(12))
        return state.withLock { state in
            guard state.started else { return .failure(.KSMINVALID_STATE, "send StartEvent before GetAstClientDataEvent") }
            let astClientId = state.activation?.astClientId ?? ClientData.unactivatedAstClientId
            let clientData = ClientData(deviceID: state.deviceID, astClientId: astClientId, nonce: nonce)
                .sealed(with: clientDataSealer)
            state.pending = PendingLogin(verifier: verifier, clientData: clientData)
            state.pendingConsumed = false
            return KSMGetAstClientDataResultEvent(
                status: .KSMOK, clientData: clientData, astClientId: astClientId, codeChallange: challenge,
                codeChallangeMethod: "S256")
        }
    }

    private func setAuthorisationCode(_ event: KSMSetAuthorisationCodeEvent) async -> any KsEvent {
        let taken: PendingLoginCheck = state.withLock { state in
            guard state.started else {
                return .refused(.failure(.KSMINVALID_STATE, 0, "send StartEvent before SetAuthorisationCodeEvent"))
            }
            guard let pending = state.pending else {
                // Two logins at once (a double tap): each GetAstClientDataEvent replaces the one before, and the first
                // SetAuthorisationCodeEvent takes it. The second did send one: say what became of it.
                return .refused(.failure(.KSMINVALID_STATE, 0, state.pendingConsumed
                    ? "the last GetAstClientDataEvent's client data was already taken by a SetAuthorisationCodeEvent: each is good for one, and a newer one replaces an older one's; send GetAstClientDataEvent again"
                    : "send GetAstClientDataEvent before SetAuthorisationCodeEvent"))
            }
            state.pending = nil
            state.pendingConsumed = true
            return .pending(pending)
        }
        let login: PendingLogin
        switch taken {
        case .refused(let result): return result
        case .pending(let value): login = value
        }
        guard !event.authorisationCode.isEmpty else {
            return KSMSetAuthorisationCodeResultEvent.failure(.KSMFAILED, 0, "the authorisation code is empty")
        }
        let provider: IdentityProvider
        do {
            provider = try await configuration.network.connect(to: configuration.idpUrl, sending: .token(clientId: event.clientId))
        } catch {
            return KSMSetAuthorisationCodeResultEvent.failure(.KSMNOT_REACHABLE, 0, error.description)
        }
        let request = TokenRequest(
            tenantId: event.tenantId, clientId: event.clientId, authorizationCode: event.authorisationCode,
            codeVerifier: login.verifier, clientData: login.clientData)
        let exchanged = provider.exchange(request)
        if configuration.faults.takeRuntimeError() {
            configuration.faults.triggered("MC runtime error: the MC-SDK fails while storing the tokens and restarts itself")
            // The restart ends the session before it, as every restart does (RestartEvent is the logout): a tester
            // found the device still logged in after "the MC-SDK restarted itself", and the next logout said so.
            let restarted = Result { () throws(StoreFailure) in try configuration.store.endSession() }
            state.withLock { state in
                state.started = false
                if let device = try? restarted.get().device { state.load(device) } else { state.loggedIn = false }
                state.pending = nil
                state.pendingConsumed = false
            }
            // The consumer hears the ErrorRuntimeEvent; the sender gets its own result type, INTERNAL_ERROR (a status
            // REFERENCE.md lists for it), so the guide's `as! KSMSetAuthorisationCodeResultEvent` holds: it got the
            // ErrorRuntimeEvent, and the cast trapped.
            // A store that fails too keeps the session on file, which the next Start reads: said.
            let stored = (try? restarted.get()) == nil ? "; the device's store failed too, so the next Start may find the session" : ""
            let message = "internal error while storing the token data; the MC-SDK restarted itself" + stored
            unasked.withLock { $0 = KSMErrorRuntimeEvent(errorCode: KSMErrorRuntimeEvent.tokenStorageFailed, errorDescription: message) }
            return KSMSetAuthorisationCodeResultEvent.failure(.KSMINTERNAL_ERROR, 0, message)
        }
        switch exchanged {
        case .failure(let failure):
            let status: KSMEventStatusType = failure == .unactivatedClient ? .KSMCANNOT_ACQUIRE_TOKEN_DATA : .KSMFAILED
            return KSMSetAuthorisationCodeResultEvent.failure(status, failure.code, failure.message)
        case .success(let tokens):
            return store(tokens, mode: event.authenticationMode)
        }
    }

    private func store(_ tokens: TokenResponse, mode: KSMAuthenticationMode) -> any KsEvent {
        let user = KsUserIdentifier(tenantId: tokens.tenantId, userId: tokens.username)
        let accessHash = tokens.accessToken.withUnsafeBytes { SHA256.digest(Array($0)) }
        // With no local authentication there is nothing to protect an offline token with: none is kept.
        let offline = mode == .no ? nil : PersistedDevice.OfflineToken(
            hash: tokens.offlineToken.withUnsafeBytes { SHA256.digest(Array($0)) },
            expiresAt: configuration.network.clock.now.advanced(by: configuration.offlineTokenLifetime))
        let deviceID = state.withLock { $0.deviceID }
        let device: PersistedDevice
        do {
            // An activation starts from a device that is not activated (the IdP refuses the enrollment client otherwise);
            // if the stored device is activated by now, another process on the same state file activated it meanwhile:
            // this one keeps that activation and fails, rather than the last write winning. A login finds its own
            // activation, unless another process reset the device meanwhile (it wrote the activation back, forgotten by
            // the IdP, and every login failed after), or reset it and activated it again: it fails too.
            let (stored, conflict) = try configuration.store.update { device -> (PersistedDevice, String?) in
                var updated = device ?? PersistedDevice(deviceID: deviceID)
                if tokens.activated, let other = updated.activation {
                    return (updated, "the device was activated meanwhile, as \(other.astClientId), by another process on this state file")
                }
                if !tokens.activated, updated.activation?.astClientId != tokens.astClientId {
                    return (updated, updated.activation.map { "the device was reset and activated again, as \($0.astClientId), by another process on this state file" }
                        ?? "the device was reset meanwhile by another process on this state file; activate it again")
                }
                if tokens.activated { updated.activation = .init(user: user, astClientId: tokens.astClientId, authenticationMode: mode) }
                updated.activation?.authenticationMode = mode
                updated.accessTokenHash = accessHash
                updated.offlineToken = offline
                device = updated
                return (updated, nil)
            }
            device = stored
            state.withLock { $0.load(device) }
            if let conflict { return KSMSetAuthorisationCodeResultEvent.failure(.KSMINVALID_STATE, 0, conflict) }
        } catch {
            return KSMSetAuthorisationCodeResultEvent.failure(.KSMINTERNAL_ERROR, 0, "the device's store failed: \(error.description)")
        }
        return KSMSetAuthorisationCodeResultEvent(status: .KSMOK, userIdentifier: user, astClientId: device.activation?.astClientId ?? "")
    }

    private func restart() -> any KsEvent {
        guard state.withLock({ $0.started }) else { return KSMInvalidStateEvent(errorMessage: "send StartEvent before RestartEvent") }
        // A restart starts the MC-SDK again, integrity check first: on an insecure device it stops, the session kept.
        if let insecure = configuration.integrityFailure() {
            state.withLock { $0.started = false }
            return KSMRestartResultEvent(status: .KSMFAILED, sdkState: .uninitialised, userList: [], errorDescription: insecure)
        }
        do {
            let (device, endedASession) = try configuration.store.endSession()
            return state.withLock { state -> any KsEvent in
                state.restartEndedASession = endedASession
                if let device { state.load(device) }
                state.pending = nil
                state.pendingConsumed = false
                return KSMRestartResultEvent(status: .KSMOK, sdkState: state.sdkState, userList: state.userList)
            }
        } catch {
            let (sdkState, users) = state.withLock { ($0.sdkState, $0.userList) }
            return KSMRestartResultEvent(status: .KSMINTERNAL_ERROR, sdkState: sdkState, userList: users,
                                         errorDescription: "the device's store failed: \(error.description)")
        }
    }

    /// `asked`: the user the app asks to log in; nil for the device's.
    private func offlineLogin(_ asked: KsUserIdentifier?) -> KSMOfflineLoginResultEvent {
        let now = configuration.network.clock.now
        let (started, activation, token, loggedIn) = state.withLock { ($0.started, $0.activation, $0.offlineToken, $0.loggedIn) }
        guard started else {
            return KSMOfflineLoginResultEvent(status: .KSMINVALID_STATE, userIdentifier: nil, errorDescription: "send StartEvent before OfflineLoginEvent")
        }
        guard let activation else {
            return KSMOfflineLoginResultEvent(status: .KSMINVALID_STATE, userIdentifier: nil, errorDescription: "the device is not activated")
        }
        if let asked, asked != activation.user {  // The token is the device's user's (it logged the device's user in).
            return KSMOfflineLoginResultEvent(status: .KSMMISMATCHED_USER, userIdentifier: nil,
                                              errorDescription: "this device is activated for \(activation.user), not \(asked): only its user logs in offline")
        }
        if loggedIn { return KSMOfflineLoginResultEvent(status: .KSMOK, userIdentifier: activation.user) }
        guard let token else {
            let why = activation.authenticationMode == .no
                ? "no offline token: the last login used authentication mode no, which keeps none"
                : "no offline token on this device"
            return KSMOfflineLoginResultEvent(status: .KSMNO_TOKEN_DATA_AVAILABLE, userIdentifier: nil, errorDescription: why)
        }
        guard token.expiresAt > now else {
            return KSMOfflineLoginResultEvent(status: .KSMLOGIN_REQUIRED, userIdentifier: nil, errorDescription: "the offline token has expired")
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
            return KSMOfflineLoginResultEvent(status: .KSMINTERNAL_ERROR, userIdentifier: nil, errorDescription: "the device's store failed: \(error.description)")
        }
        return KSMOfflineLoginResultEvent(status: .KSMOK, userIdentifier: activation.user)
    }
}

/// The consumer, held weakly as the real factory holds it. Not `Sendable` by type: it is called only on the
/// controller's serial queue, as the vendor documents (the app's receiver must be thread-safe).
private struct WeakReceiver: @unchecked Sendable {
    weak var receiver: (any KSAsyncEventReceiver)?
}

/// A dump or a debug print of the controller shows the device, as the vendor's object's fields would, and not the
/// simulation's machinery (its task lane, the key that seals `clientData`, a pending login's PKCE verifier).
extension MCSDK: CustomReflectable {
    public var customMirror: Mirror {
        let device = state.withLock { $0 }
        return Mirror(self, children: ["deviceID": device.deviceID, "started": device.started, "sdkState": device.sdkState,
                                       "loggedIn": device.loggedIn, "users": device.userList], displayStyle: .class)
    }
}
