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
    /// This device's identity, fixed for its life.
    public var deviceID: String

    public init(
        idpUrl: String, network: SimulatedNetwork, random: RandomSource, clientDataKey: [UInt8], deviceID: String? = nil
    ) {
        self.idpUrl = idpUrl
        self.network = network
        self.random = random
        self.clientDataKey = clientDataKey
        self.deviceID = deviceID ?? Base64URL.encode(random.bytes(12))
    }
}

/// What a device's master controller holds, for status lines and tests.
public struct DeviceSnapshot: Sendable, Equatable {
    public var started: Bool
    public var activatedUser: KSMUserIdentifier?
    public var astClientId: String
    public var loggedIn: Bool
    public var authenticationMode: KSMAuthenticationMode?
}

/// The simulated MC-SDK master controller of one device.
///
/// Events are handled one at a time, in order, on the controller's own serial queue (named `MC-SDK`), as the
/// real controller's event loop does. An event that does not fit the state gets an invalid-state result.
public final class MasterController: Sendable {
    private let configuration: MasterControllerConfiguration
    private let queue = QueueName.makeSerialQueue("MC-SDK")
    private let state = Locked(DeviceState())

    public init(configuration: MasterControllerConfiguration) {
        self.configuration = configuration
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
                loggedIn: state.session != nil, authenticationMode: state.activation?.authenticationMode)
        }
    }

    // MARK: Handling

    private func handle(_ event: any KSMEvent) -> any KSMEvent {
        switch event {
        case is KSMStartEvent: return start()
        case is KSMGetAstClientDataEvent: return getAstClientData()
        case let event as KSMSetAuthorisationCodeEvent: return setAuthorisationCode(event)
        case is KSMRestartEvent: return restart()
        default: return KSMInvalidStateEvent(errorMessage: "\(event.eventName) is not handled by this master controller")
        }
    }

    private func start() -> KSMStartResultEvent {
        state.withLock { state in
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
            let clientData = ClientData(deviceID: configuration.deviceID, astClientId: astClientId, nonce: nonce)
                .sealed(with: configuration.clientDataKey)
            state.pending = PendingLogin(verifier: verifier, clientData: clientData)
            return KSMGetAstClientDataResultEvent(
                status: .ok, clientData: clientData, astClientId: astClientId, codeChallange: challenge,
                codeChallangeMethod: "S256", hasErrorOccurred: false, errorCode: 0, reportId: nil,
                errorDescription: nil)
        }
    }

    private func setAuthorisationCode(_ event: KSMSetAuthorisationCodeEvent) -> KSMSetAuthorisationCodeResultEvent {
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
        guard !event.authorisationCode.isEmpty else { return .failure(.failed, 0, "the authorisation code is empty") }
        let provider: IdentityProvider
        do {
            provider = try configuration.network.connect(to: configuration.idpUrl)
        } catch {
            return .failure(.notReachable, 0, error.description)
        }
        let request = TokenRequest(
            tenantId: event.tenantId, clientId: event.clientId, authorizationCode: event.authorisationCode,
            codeVerifier: login.verifier, clientData: login.clientData)
        switch provider.exchange(request) {
        case .failure(let failure):
            let status: StatusType = failure == .unactivatedClient ? .cannotAcquireTokenData : .failed
            return .failure(status, failure.code, failure.message)
        case .success(let tokens):
            return store(tokens, mode: event.authenticationMode)
        }
    }

    private func store(_ tokens: TokenResponse, mode: KSMAuthenticationMode) -> KSMSetAuthorisationCodeResultEvent {
        let user = KSMUserIdentifier(tenantId: tokens.tenantId, userId: tokens.username)
        state.withLock { state in
            if tokens.activated || state.activation == nil {
                state.activation = Activation(user: user, astClientId: tokens.astClientId, authenticationMode: mode)
            }
            state.activation?.authenticationMode = mode
            state.session = Session(
                accessTokenHash: tokens.accessToken.withUnsafeBytes { SHA256.digest(Array($0)) },
                offlineTokenHash: tokens.offlineToken.withUnsafeBytes { SHA256.digest(Array($0)) })
        }
        return KSMSetAuthorisationCodeResultEvent(status: .ok, userIdentifier: user, errorCode: 0, errorDescription: nil)
    }

    private func restart() -> any KSMEvent {
        state.withLock { state -> any KSMEvent in
            guard state.started else { return KSMInvalidStateEvent(errorMessage: "send StartEvent before RestartEvent") }
            state.session = nil
            state.pending = nil
            return KSMRestartResultEvent(status: .ok, sdkState: state.sdkState)
        }
    }
}

extension KSMSetAuthorisationCodeResultEvent {
    static func failure(_ status: StatusType, _ code: Int, _ description: String) -> KSMSetAuthorisationCodeResultEvent {
        KSMSetAuthorisationCodeResultEvent(status: status, userIdentifier: nil, errorCode: code, errorDescription: description)
    }
}

// MARK: - State

private struct DeviceState {
    var started = false
    var activation: Activation?
    var session: Session?
    var pending: PendingLogin?

    var sdkState: KSMSdkState { activation == nil ? .activationRequired : .loginRequired }
    var userList: [KSMUserIdentifier] { activation.map { [$0.user] } ?? [] }
}

private struct Activation {
    let user: KSMUserIdentifier
    let astClientId: String
    var authenticationMode: KSMAuthenticationMode
}

/// Tokens are kept only as SHA-256 hashes.
private struct Session {
    let accessTokenHash: [UInt8]
    let offlineTokenHash: [UInt8]
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
