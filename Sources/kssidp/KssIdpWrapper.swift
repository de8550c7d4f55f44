import Dispatch
import Foundation
import IdentityProvider
import IdpSdk
import KSMasterController
import Secrets
import Threading

/// The legacy wrapper's configuration, as the migration guide shows it.
public struct KssIdpConfig: Sendable {
    /// A PEM file with the IdP's chain to pin; a path that does not exist pins the bundled chain (ours).
    public let certificatePath: String
    public let baseUrl: String
    public let tenantId: String
    public let masterController: MasterController
    public let shouldKssIdpHandleTms: Bool
    public let shouldHashPin: Bool
    /// The simulated network (ours).
    public let network: SimulatedNetwork

    public init(certificatePath: String, baseUrl: String, tenantId: String, masterController: MasterController,
                shouldKssIdpHandleTms: Bool, shouldHashPin: Bool, network: SimulatedNetwork = .shared) {
        self.certificatePath = certificatePath
        self.baseUrl = baseUrl
        self.tenantId = tenantId
        self.masterController = masterController
        self.shouldKssIdpHandleTms = shouldKssIdpHandleTms
        self.shouldHashPin = shouldHashPin
        self.network = network
    }
}

/// The wrapper's status (the Android names).
public enum KssIdpStatus: String, Sendable {
    case success = "Success"
    /// The HTTP part (the IdP) failed.
    case requestFailed = "RequestFailed"
    /// An MC-SDK event failed.
    case eventFailed = "EventFailed"
}

public struct ResultObject: Sendable, Equatable {
    public let status: KssIdpStatus
    public let message: String?
}

/// What the wrapper learned: the user and device on success; the failing event's status or the IdP's error.
public struct KssIdpResultObject: Sendable, Equatable {
    public let userIdentifier: KSMUserIdentifier?
    public let astClientId: String?
    /// The MC-SDK status of the event that failed.
    public let eventStatus: StatusType?
    public let eventErrorCode: Int?
    /// The IdP's (or the connection's) error, as subsystem and code.
    public let requestError: IdpSdkError?
}

/// The legacy KSSIDP wrapper: it takes every credential up front, and runs GetAstClientData, the IdP's login
/// (HTTP) and SetAuthorisationCode itself, on its own queue (`KSSIDP`). Once called it cannot be cancelled.
public final class KssIdpWrapper: Sendable {
    private let config: KssIdpConfig
    private let queue = QueueName.makeSerialQueue("KSSIDP")
    private let observer: (@Sendable (_ event: String, _ status: String?) -> Void)?

    /// `observer` (ours) hears each MC-SDK event the wrapper sends and its result status, for logs.
    public init(config: KssIdpConfig, observer: (@Sendable (_ event: String, _ status: String?) -> Void)? = nil) {
        self.config = config
        self.observer = observer
    }

    public func activate(clientId: String, authMode: KSMAuthenticationMode, credentials: [String: Secret], parentSpan: String?,
                         completion: @escaping @Sendable (ResultObject, KssIdpResultObject) -> Void) {
        queue.async { [self] in
            let (result, object) = run(clientId: clientId, authMode: authMode, credentials: credentials, parentSpan: parentSpan)
            completion(result, object)
        }
    }

    public func login(clientId: String, authMode: KSMAuthenticationMode, credentials: [String: Secret], parentSpan: String?,
                      completion: @escaping @Sendable (ResultObject, KssIdpResultObject) -> Void) {
        activate(clientId: clientId, authMode: authMode, credentials: credentials, parentSpan: parentSpan, completion: completion)
    }

    // MARK: The wrapped orchestration

    private func run(clientId: String, authMode: KSMAuthenticationMode, credentials: [String: Secret], parentSpan: String?)
        -> (ResultObject, KssIdpResultObject)
    {
        observer?("GetAstClientData", nil)
        let astReply = send(KSMGetAstClientDataEvent())
        guard let ast = astReply as? KSMGetAstClientDataResultEvent, ast.status == .ok else {
            let status = (astReply as? KSMGetAstClientDataResultEvent)?.status ?? .invalidState
            observer?("GetAstClientData", status.rawValue)
            return eventFailed(status, code: nil, message: describe(astReply))
        }
        observer?("GetAstClientData", ast.status.rawValue)

        let service = IdpSdkService(
            tenantId: config.tenantId, idpUrl: config.baseUrl, certificateChain: pinnedChain(), shouldHashPin: config.shouldHashPin,
            network: config.network)
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<IdpSdkResult?>(nil)
        service.getAuthorizationCode(
            withAstClientData: AstClientDataInfo(astClientData: ast), clientId: clientId,
            interactionInterface: UpFrontCredentials(credentials), userId: nil, traceParent: parentSpan
        ) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.withLock({ $0 }), let code = result.authorizationCode else {
            let error = outcome.withLock { $0 }?.idpSdkError ?? IdpSdkError(subsystem: 510, errorCode: 0, message: "no authorization code")
            return (ResultObject(status: .requestFailed, message: error.message),
                    KssIdpResultObject(userIdentifier: nil, astClientId: nil, eventStatus: nil, eventErrorCode: nil, requestError: error))
        }

        observer?("SetAuthorisationCode", nil)
        let setReply = send(KSMSetAuthorisationCodeEvent(
            tenantId: config.tenantId, authenticationMode: authMode, authorisationCode: code, clientId: clientId))
        guard let set = setReply as? KSMSetAuthorisationCodeResultEvent, set.status == .ok else {
            let event = setReply as? KSMSetAuthorisationCodeResultEvent
            let status = event?.status ?? (setReply is KSMRuntimeErrorEvent ? .internalError : .invalidState)
            observer?("SetAuthorisationCode", status.rawValue)
            return eventFailed(status, code: event.flatMap { $0.errorCode == 0 ? nil : $0.errorCode }, message: describe(setReply))
        }
        observer?("SetAuthorisationCode", set.status.rawValue)
        let device = config.masterController.snapshot
        return (ResultObject(status: .success, message: nil),
                KssIdpResultObject(userIdentifier: set.userIdentifier, astClientId: device.astClientId, eventStatus: .ok,
                                   eventErrorCode: nil, requestError: nil))
    }

    private func send(_ event: any KSMEvent) -> (any KSMEvent)? {
        let done = DispatchSemaphore(value: 0)
        let reply = Locked<(any KSMEvent)?>(nil)
        config.masterController.sendEvent2MasterController(event) { result in
            reply.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return reply.withLock { $0 }
    }

    private func eventFailed(_ status: StatusType, code: Int?, message: String) -> (ResultObject, KssIdpResultObject) {
        (ResultObject(status: .eventFailed, message: message),
         KssIdpResultObject(userIdentifier: nil, astClientId: nil, eventStatus: status, eventErrorCode: code, requestError: nil))
    }

    private func describe(_ event: (any KSMEvent)?) -> String {
        guard let event else { return "no result" }
        return switch event {
        case let result as KSMGetAstClientDataResultEvent: result.errorDescription ?? result.status.rawValue
        case let result as KSMSetAuthorisationCodeResultEvent: result.errorDescription ?? result.status.rawValue
        case let result as KSMInvalidStateEvent: result.errorMessage
        case let result as KSMRuntimeErrorEvent: result.errorMessage
        default: event.eventName
        }
    }

    private func pinnedChain() -> String {
        if let data = FileManager.default.contents(atPath: config.certificatePath), let pem = String(data: data, encoding: .utf8) {
            return pem
        }
        return IdentityProviderCertificates.genuinePEM
    }
}

/// The credentials given up front, handed to the IdP's form as it asks.
private final class UpFrontCredentials: IdpSdkInteractionInterface {
    private let credentials: [String: Secret]

    init(_ credentials: [String: Secret]) {
        self.credentials = credentials
    }

    func provideCredentials(_ interactionData: IdpSdkInteractionData) -> IdpSdkProvideCredentialsResult {
        IdpSdkProvideCredentialsResult(credentials: credentials)
    }
}
