import Crypto
import FlowEngine
import FlowRecords
import IdentityProvider
import IdpSdk
import KSMasterController
import Simulation
import Synchronization
import Threading

/// The IdpSdk flows — activate, login, logout — written as the migration guide's `IdpHandler`:
/// GetAstClientData → getAuthorizationCode → SetAuthorisationCode, each call awaited.
public struct IdpSdkFlow {
    let run: FlowRun
    let family: IdpSdkFamily

    public init(run: FlowRun, family: IdpSdkFamily) {
        self.run = run
        self.family = family
    }

    var environment: SimulationEnvironment { family.environment }
    var kind: FlowKind { run.kind }

    /// What a cancel does to a call in flight, beyond discarding its late result: the device's round trips
    /// waiting on the network are abandoned, their requests never delivered (the log says so), so that the device's
    /// thread is free for the next flow at once (a request-timeout fault would hold it 30 s). docs/decisions.md.
    var abandonWaits: @Sendable () -> Void {
        let network = environment.network
        return { [family, run] in family.abandoned(network.abandonWaits(), in: run) }
    }

    func signIn(clientId: String) async -> FlowResult? {
        guard let startReply = await send(.start, KSMStartEvent(), detail: "") else { return nil }
        guard let start = startReply as? KSMStartResultEvent, start.status == .KSMOK else { return mcFailure(.start, startReply) }
        let userId = kind == .login ? start.userList.first?.userId : nil
        // After a restart (logout) the app tries OfflineLogin first, and logs in at the IdP when it is not OK.
        if kind == .login && start.sdkState == .loginRequired && !environment.masterController.snapshot.loggedIn {
            guard let offlineReply = await send(.offlineLogin, KSMOfflineLoginEvent(), detail: "") else { return nil }
            if let offline = offlineReply as? KSMOfflineLoginResultEvent, offline.status == .KSMOK {
                var loggedIn = run.result(.success, status: StatusType.OK.name, step: nil, error: nil)
                var device = family.deviceDetail
                device.offline = true
                loggedIn.set(device)
                return loggedIn
            }
        }
        return await authorize(clientId: clientId, userId: userId)
    }

    /// GetAstClientData → getAuthorizationCode → SetAuthorisationCode.
    private func authorize(clientId: String, userId: String?) async -> FlowResult? {
        guard let astReply = await send(.getAstClientData, KSMGetAstClientDataEvent(tenantId: environment.tenantId), detail: "")
        else { return nil }
        guard let ast = astReply as? KSMGetAstClientDataResultEvent, ast.status == .KSMOK else {
            return mcFailure(.getAstClientData, astReply)
        }
        guard let sdkResult = await getAuthorizationCode(AstClientDataInfo(astClientData: ast), clientId: clientId, userId: userId)
        else { return nil }
        if let error = sdkResult.idpSdkError, family.settings.guardsSetAuthorisationCode {
            let (outcome, status) = FlowResult.classify(error)
            return run.result(outcome, status: status, step: .getAuthorizationCode, error: FlowError(error))
        }
        // The guide's code as written goes on with "" where the IdpSdk gave no code.
        guard let code = sdkResult.authorizationCode ?? (family.settings.guardsSetAuthorisationCode ? nil : "") else {
            return run.result(
                .failure, status: StatusType.FAILED.name, step: .getAuthorizationCode,
                error: FlowError(subsystem: nil, code: nil, message: "the IdpSdk returned neither a code nor an error"))
        }
        let mode = family.settings.authenticationMode
        let event = KSMSetAuthorisationCodeEvent(
            tenantId: environment.tenantId, authenticationMode: mode, authorisationCode: code, clientId: clientId)
        let detail = "tenantId=\(environment.tenantId), clientId=\(clientId), authenticationMode=\(mode.rawValue)"
        guard let setReply = await send(.setAuthorisationCode, event, detail: detail) else { return nil }
        guard let set = setReply as? KSMSetAuthorisationCodeResultEvent, set.status == .KSMOK else {
            return mcFailure(.setAuthorisationCode, setReply)
        }
        return run.result(.success, status: StatusType.OK.name, step: nil, error: nil)
    }

    func logout() async -> FlowResult? {
        if !environment.masterController.snapshot.started {
            guard let startReply = await send(.start, KSMStartEvent(), detail: "") else { return nil }
            guard (startReply as? KSMStartResultEvent)?.status == .KSMOK else { return mcFailure(.start, startReply) }
        }
        guard let reply = await send(.restart, KSMRestartEvent(), detail: "") else { return nil }
        guard (reply as? KSMRestartResultEvent)?.status == .KSMOK else { return mcFailure(.restart, reply) }
        var result = run.result(.success, status: StatusType.OK.name, step: nil, error: nil)
        if var device = result.device {
            // As the state file had it when the restart ended the session: another process may have logged out
            // since this one loaded the device.
            device.wasLoggedIn = environment.masterController.restartEndedASession
            result.set(device)
        }
        return result
    }

    // MARK: Calls

    /// Sends an event to the master controller and awaits its result event; nil once the flow is cancelled.
    public func send(_ step: FlowStep, _ event: any KsEvent, detail: String) async -> (any KsEvent)? {
        if run.stopIfCancelled(before: step) { return nil }
        run.emit(step, from: .app, to: .masterController, detail: detail.isEmpty ? event.getName() : "\(event.getName()): \(detail)")
        let sent = environment.clock.now
        let controller = environment.masterController
        guard let reply = await run.call({ step }, atCancel: abandonWaits, { deliver in
            controller.receive(event) { result in
                deliver(ResultEvent(event: result ?? KSMInvalidStateEvent(errorMessage: "no result event"), thread: QueueName.current))
            }
        }) else { return nil }
        let (status, summary) = Self.describe(reply.event)
        run.emit(step, from: .masterController, to: .app, thread: reply.thread, duration: sent.duration(to: environment.clock.now),
             status: status, detail: summary)
        return reply.event
    }

    private func getAuthorizationCode(_ info: AstClientDataInfo, clientId: String, userId: String?) async -> IdpSdkResult? {
        if run.stopIfCancelled(before: .getAuthorizationCode) { return nil }
        let traceParent = "00-\(Hex.encode(environment.world.random.bytes(16)))-\(Hex.encode(environment.world.random.bytes(8)))-01"
        run.emit(.getAuthorizationCode, from: .app, to: .idpSdk,
             detail: "clientId=\(clientId), userId=\(userId ?? "nil"), traceParent=\(traceParent)")
        let sent = environment.clock.now
        let interaction = PromptingInteraction(run: run, clientId: clientId, knownUsername: userId)
        let idpSdk = family.idpSdk
        guard let reply = await run.call({ .getAuthorizationCode }, atCancel: abandonWaits, { deliver in
            idpSdk.getAuthorizationCode(
                withAstClientData: info, clientId: clientId, interactionInterface: interaction, userId: userId,
                traceParent: traceParent
            ) { result in deliver(SDKResult(result: result, thread: QueueName.current)) }
        }) else { return nil }
        let result = reply.result
        let status = result.idpSdkError.map { "\($0.subsystem)/\($0.errorCode)" } ?? StatusType.OK.name
        let detail = result.idpSdkError?.errorDescription ?? "authorization code received"
        run.emit(.getAuthorizationCode, from: .idpSdk, to: .app, thread: reply.thread,
             duration: sent.duration(to: environment.clock.now), status: status, detail: detail)
        return result
    }

    // MARK: Failures

    public func mcFailure(_ step: FlowStep, _ reply: any KsEvent) -> FlowResult {
        // The MC-SDK fails Start or Restart with UNINITIALISED only when its integrity check fails.
        func status(_ status: StatusType, _ state: KSMSdkState) -> String {
            status == .KSMFAILED && state == .uninitialised ? SimulatorStatus.insecureDevice : status.name
        }
        switch reply {
        case let event as KSMStartResultEvent:
            return run.result(.failure, status: status(event.status, event.sdkState), step: step,
                          error: FlowError(subsystem: nil, code: nil, message: event.errorDescription.isEmpty ? "StartEvent failed" : event.errorDescription))
        case let event as KSMOfflineLoginResultEvent:
            return run.result(.failure, status: event.status.name, step: step,
                          error: FlowError(subsystem: nil, code: nil, message: event.errorDescription.isEmpty ? "OfflineLogin failed" : event.errorDescription))
        case let event as KSMSetAuthorisationCodeResultEvent:
            let code = event.errorCode == 0 ? nil : event.errorCode
            return run.result(.failure, status: event.status.name, step: step, error: FlowError(
                subsystem: code.map { _ in IdpFailure.subsystem }, code: code,
                message: event.errorDescription.isEmpty ? "SetAuthorisationCode failed" : event.errorDescription))
        case let event as KSMGetAstClientDataResultEvent:
            return run.result(.failure, status: event.status.name, step: step, error: FlowError(
                subsystem: nil, code: event.errorCode == 0 ? nil : event.errorCode,
                message: event.errorDescription.isEmpty ? "GetAstClientData failed" : event.errorDescription))
        case let event as KSMRestartResultEvent:
            return run.result(.failure, status: status(event.status, event.sdkState), step: step, error: FlowError(
                subsystem: nil, code: nil, message: event.errorDescription.isEmpty ? "Restart failed" : event.errorDescription))
        case let event as KSMInvalidStateEvent:
            return run.result(.failure, status: StatusType.INVALID_STATE.name, step: step,
                          error: FlowError(subsystem: nil, code: nil, message: event.errorMessage))
        default:
            return run.result(.failure, status: StatusType.FAILED.name, step: step,
                          error: FlowError(subsystem: nil, code: nil, message: "unexpected \(reply.getName())"))
        }
    }

    /// A result event's status and a secret-free summary.
    private static func describe(_ event: any KsEvent) -> (String, String) {
        switch event {
        case let result as KSMStartResultEvent where result.status != .KSMOK:
            return (result.status.name, result.errorDescription.isEmpty ? "sdkState=\(result.sdkState.rawValue)" : result.errorDescription)
        case let result as KSMStartResultEvent:
            let users = result.userList.map(\.description).joined(separator: ",")
            return (result.status.name, "sdkState=\(result.sdkState.rawValue), userList=[\(users)]")
        case let result as KSMOfflineLoginResultEvent where result.status == .KSMOK:
            return (result.status.name, "logged in offline as \(result.userIdentifier?.description ?? "?") (local authentication passed)")
        case let result as KSMOfflineLoginResultEvent:
            return (result.status.name, result.errorDescription + "; logging in at the IdP instead")
        case let result as KSMGetAstClientDataResultEvent where result.status == .KSMOK:
            return (result.status.name, "astClientId=\(result.astClientId), codeChallangeMethod=\(result.codeChallangeMethod)")
        case let result as KSMGetAstClientDataResultEvent:
            return (result.status.name, result.errorDescription)
        case let result as KSMSetAuthorisationCodeResultEvent where result.status == .KSMOK:
            return (result.status.name, "logged in as \(result.userIdentifier?.description ?? "?")")
        case let result as KSMSetAuthorisationCodeResultEvent:
            let code = result.errorCode == 0 ? "" : "\(IdpFailure.subsystem)/\(result.errorCode): "
            return (result.status.name, code + result.errorDescription)
        case let result as KSMRestartResultEvent where result.status != .KSMOK:
            return (result.status.name, result.errorDescription.isEmpty ? "sdkState=\(result.sdkState.rawValue)" : result.errorDescription)
        case let result as KSMRestartResultEvent:
            return (result.status.name, "sdkState=\(result.sdkState.rawValue)")
        case let result as KSMInvalidStateEvent:
            return (StatusType.INVALID_STATE.name, "\(result.getName()): \(result.errorMessage)")
        default:
            return ("?", event.getName())
        }
    }
}


/// A master controller's result event, with the thread it came on.
struct ResultEvent: Sendable {
    let event: any KsEvent
    let thread: String
}

/// The IdpSdk's result, with the thread it came on.
struct SDKResult: Sendable {
    let result: IdpSdkResult
    let thread: String
}

