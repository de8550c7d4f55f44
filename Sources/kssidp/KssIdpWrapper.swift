import Dispatch
import Foundation
import IdentityProvider
import IdpSdk
import IdpTuiWorld
import KSMasterController
import Secrets
import Threading

/// The legacy wrapper's configuration, as the migration guide shows it.
public struct KssIdpConfig: Sendable {
    /// A PEM file with the IdP's chain to pin (leaf first). A path that names no readable file fails every call
    /// with a request error saying so.
    public let certificatePath: String
    public let baseUrl: String
    public let tenantId: String
    public let masterController: MCSDK
    public let shouldKssIdpHandleTms: Bool
    public let shouldHashPin: Bool
    /// The simulated network that reaches the IdP.
    let network: SimulatedNetwork
    /// The chain itself, for idp-tui's own front ends, which pin the IdP's bundled chain without a file.
    let certificateChain: Data?

    /// The wrapper reaches the identity provider of ``SimulatedWorld/current``.
    public init(certificatePath: String, baseUrl: String, tenantId: String, masterController: MCSDK,
                shouldKssIdpHandleTms: Bool, shouldHashPin: Bool) {
        self.init(certificatePath: certificatePath, baseUrl: baseUrl, tenantId: tenantId, masterController: masterController,
                  shouldKssIdpHandleTms: shouldKssIdpHandleTms, shouldHashPin: shouldHashPin, network: SimulatedWorld.current.network)
    }

    /// `certificateChain`, when given, is pinned instead of the file (which then only names it in messages).
    package init(certificatePath: String, certificateChain: Data? = nil, baseUrl: String, tenantId: String, masterController: MCSDK,
                 shouldKssIdpHandleTms: Bool, shouldHashPin: Bool, network: SimulatedNetwork) {
        self.certificateChain = certificateChain
        self.certificatePath = certificatePath
        self.baseUrl = baseUrl
        self.tenantId = tenantId
        self.masterController = masterController
        self.shouldKssIdpHandleTms = shouldKssIdpHandleTms
        self.shouldHashPin = shouldHashPin
        self.network = network
    }
}

/// The legacy KSSIDP wrapper: it takes every credential up front, and runs GetAstClientData, the IdP's login
/// (HTTP) and SetAuthorisationCode itself, on its own queue (`KSSIDP`). Once called it cannot be cancelled.
public final class KssIdpWrapper: Sendable {
    private let config: KssIdpConfig
    private let queue = QueueName.makeSerialQueue("KSSIDP")
    private let observer: (@Sendable (_ event: String, _ status: String?) -> Void)?

    public convenience init(config: KssIdpConfig) {
        self.init(config: config, observer: nil)
    }

    /// `observer` hears each MC-SDK event the wrapper sends and its result status, for logs.
    package init(config: KssIdpConfig, observer: (@Sendable (_ event: String, _ status: String?) -> Void)?) {
        self.config = config
        self.observer = observer
    }

    /// Activates the device: every credential the IdP's form asks for is given up front (`username`, `password`,
    /// `activation-code`). The values become secrets as they enter the wrapper. `completion` runs on the wrapper's
    /// queue (`KSSIDP`).
    public func activate(clientId: String, authMode: KSMAuthenticationMode, credentials: [String: String], parentSpan: String?,
                         completion: @escaping (ResultObject, KssIdpResultObject) -> Void) {
        start(clientId: clientId, authMode: authMode, credentials: credentials.mapValues { Secret($0) }, parentSpan: parentSpan,
              completion: completion)
    }

    /// Logs in (`username`, `password`); otherwise as ``activate(clientId:authMode:credentials:parentSpan:completion:)``.
    public func login(clientId: String, authMode: KSMAuthenticationMode, credentials: [String: String], parentSpan: String?,
                      completion: @escaping (ResultObject, KssIdpResultObject) -> Void) {
        start(clientId: clientId, authMode: authMode, credentials: credentials.mapValues { Secret($0) }, parentSpan: parentSpan,
              completion: completion)
    }

    /// The order KOBIL's KSSIDP activation page calls it in (`activate(clientId:credentials:authMode:)`, no
    /// parent span); otherwise as ``activate(clientId:authMode:credentials:parentSpan:completion:)``. Code copied
    /// from that page did not compile.
    public func activate(clientId: String, credentials: [String: String], authMode: KSMAuthenticationMode,
                         completion: @escaping (ResultObject, KssIdpResultObject) -> Void) {
        activate(clientId: clientId, authMode: authMode, credentials: credentials, parentSpan: nil, completion: completion)
    }

    /// The order KOBIL's KSSIDP login page calls it in; otherwise as ``login(clientId:authMode:credentials:parentSpan:completion:)``.
    public func login(clientId: String, credentials: [String: String], authMode: KSMAuthenticationMode,
                      completion: @escaping (ResultObject, KssIdpResultObject) -> Void) {
        login(clientId: clientId, authMode: authMode, credentials: credentials, parentSpan: nil, completion: completion)
    }

    /// Either call, with the credentials held as secrets (idp-tui's front ends never turn them back into text).
    package func start(clientId: String, authMode: KSMAuthenticationMode, credentials: [String: Secret], parentSpan: String?,
                       completion: @escaping (ResultObject, KssIdpResultObject) -> Void) {
        // The vendor's block is not `Sendable`: the wrapper calls it once, on its own queue.
        let done = UncheckedSendable(completion)
        queue.async(counting: config.network.clock.pendingWork) { [self] in
            let (result, object) = run(clientId: clientId, authMode: authMode, credentials: credentials, parentSpan: parentSpan)
            done.value(result, object)
        }
    }

    // MARK: The wrapped orchestration

    private func run(clientId: String, authMode: KSMAuthenticationMode, credentials: [String: Secret], parentSpan: String?)
        -> (ResultObject, KssIdpResultObject)
    {
        observer?("GetAstClientData", nil)
        let astReply = send(KSMGetAstClientDataEvent(tenantId: config.tenantId))
        let trace = parentSpan.flatMap { $0.isEmpty ? nil : TraceContext(traceParent: $0, traceState: nil) }
        guard let ast = astReply as? KSMGetAstClientDataResultEvent, ast.status == .KSMOK else {
            let status = (astReply as? KSMGetAstClientDataResultEvent)?.status ?? .KSMINVALID_STATE
            observer?("GetAstClientData", status.name)
            return eventFailed(status, code: 0, message: describe(astReply), event: nil, trace: trace)
        }
        observer?("GetAstClientData", ast.status.name)

        guard let chain = config.certificateChain ?? FileManager.default.contents(atPath: config.certificatePath) else {
            return requestFailed(IdpSdkError(510, 2, "KssIdpConfig.certificatePath names no readable file: \(config.certificatePath)"), trace: trace)
        }
        let service = IdpSdkService(
            tenantId: config.tenantId, idpUrl: config.baseUrl, certificateChain: chain, shouldHashPin: config.shouldHashPin,
            network: config.network, queueLabel: "KSSIDP")
        let outcome = OneShot<IdpSdkResult>(counting: config.network.clock.pendingWork)
        let upFront = UpFrontCredentials(credentials)
        service.getAuthorizationCode(
            withAstClientData: AstClientDataInfo(astClientData: ast), clientId: clientId,
            interactionInterface: upFront, userId: nil, traceParent: parentSpan
        ) { result in
            outcome.fulfil(result)
        }
        let result = outcome.wait()
        guard let code = result.authorizationCode else {
            // KSSIDP has no provideCredentials: a value the IdP's form asks for and the dictionary lacks is named
            // as the dictionary's (the IdpSdk's own words named a callback KSSIDP apps never write).
            if let key = upFront.firstMissing, let error = result.idpSdkError {
                return requestFailed(IdpSdkError(error.subsystem, error.errorCode,
                                                 "the credentials dictionary has no \"\(key)\", which the IdP's form asks for"), trace: trace)
            }
            return requestFailed(result.idpSdkError ?? IdpSdkError(510, 0, "no authorization code"), trace: trace)
        }

        observer?("SetAuthorisationCode", nil)
        let setReply = send(KSMSetAuthorisationCodeEvent(
            tenantId: config.tenantId, authenticationMode: authMode, authorisationCode: code, clientId: clientId))
        guard let set = setReply as? KSMSetAuthorisationCodeResultEvent, set.status == .KSMOK else {
            let event = setReply as? KSMSetAuthorisationCodeResultEvent
            let status = event?.status ?? .KSMINVALID_STATE
            observer?("SetAuthorisationCode", status.name)
            return eventFailed(status, code: event?.errorCode ?? 0, message: describe(setReply), event: event, trace: trace)
        }
        observer?("SetAuthorisationCode", set.status.name)
        let user = set.userIdentifier?.userId ?? ""
        return (ResultObject(status: .KSMOK, errorCode: 0, reportId: 0, userId: user, errorDescription: nil, event: set),
                KssIdpResultObject(
                    status: .success(message: "logged in as \(set.userIdentifier?.description ?? user)"), userId: user, traceContext: trace))
    }

    private func send(_ event: any KsEvent) -> (any KsEvent)? {
        let reply = OneShot<(any KsEvent)?>(counting: config.network.clock.pendingWork)
        config.masterController.receive(event) { result in
            reply.fulfil(result)
        }
        return reply.wait()
    }

    private func eventFailed(
        _ status: KSMEventStatusType, code: Int, message: String, event: KSMSetAuthorisationCodeResultEvent?, trace: TraceContext?,
        line: Int = #line
    ) -> (ResultObject, KssIdpResultObject) {
        (ResultObject(status: status, errorCode: code, reportId: 0, userId: "", errorDescription: message, event: event),
         KssIdpResultObject(status: .eventFailed(status: status, errorDescription: message, line: line), userId: "", traceContext: trace))
    }

    /// The IdP's login (the HTTP part) failed: its error page, the connection, or the SDK's own checks.
    private func requestFailed(_ error: IdpSdkError, trace: TraceContext?, line: Int = #line) -> (ResultObject, KssIdpResultObject) {
        let (request, http): (KSMCreateHttpCommonRequestStatus, Int) = switch error.subsystem {
        case IdpFailure.subsystem: (.failed, error.errorCode == IdpFailure.serverError("").code ? 500 : 400)
        case IdpSdkError.transportSubsystem: (.notReachable, 0)
        default: (.invalidParameter, 0)
        }
        let status: KSMEventStatusType = request == .notReachable ? .KSMNOT_REACHABLE : .KSMFAILED
        let model = KssIdpErrorModel(subsystem: error.subsystem, code: String(error.errorCode), description: error.errorDescription, parameters: [:])
        return (ResultObject(status: status, errorCode: error.errorCode, reportId: 0, userId: "", errorDescription: error.errorDescription, event: nil),
                KssIdpResultObject(status: .requestFailed(status: request, httpStatus: http, errorModel: model, line: line), userId: "",
                                   traceContext: trace))
    }

    private func describe(_ event: (any KsEvent)?) -> String {
        guard let event else { return "no result" }
        return switch event {
        case let result as KSMGetAstClientDataResultEvent: result.errorDescription.isEmpty ? result.status.name : result.errorDescription
        case let result as KSMSetAuthorisationCodeResultEvent: result.errorDescription.isEmpty ? result.status.name : result.errorDescription
        case let result as KSMInvalidStateEvent: result.errorMessage
        default: event.getName()
        }
    }

}

/// The credentials given up front, handed to the IdP's form as it asks.
private final class UpFrontCredentials: IdpSdkInteractionInterface {
    private let credentials: [String: Secret]

    init(_ credentials: [String: Secret]) {
        self.credentials = credentials
    }

    /// The first field a form asked for that the dictionary has no value for.
    private let missing = Locked<String?>(nil)

    var firstMissing: String? { missing.withLock { $0 } }

    func provideCredentials(_ interactionData: IdpSdkInteractionData) -> IdpSdkProvideCredentialsResult {
        if let key = interactionData.inputFieldIds.first(where: { credentials[$0] == nil }) {
            missing.withLock { $0 = $0 ?? key }
        }
        return IdpSdkProvideCredentialsResult(secrets: credentials)
    }
}

/// Printed or dumped, the configuration shows what the app gave it, as the migration guide writes it: not the
/// simulated network it reaches, nor the chain idp-tui's own front ends pin without a file ("certificateChain: nil"
/// beside a valid path read as a misconfiguration).
extension KssIdpConfig: CustomReflectable {
    public var customMirror: Mirror {
        Mirror(self, children: ["certificatePath": certificatePath, "baseUrl": baseUrl, "tenantId": tenantId,
                                "masterController": masterController, "shouldKssIdpHandleTms": shouldKssIdpHandleTms,
                                "shouldHashPin": shouldHashPin], displayStyle: .struct)
    }
}
