import FlowRecords
import Threading
import Crypto
import Determinism
import IdentityProvider
import IdpSdk
import KSMasterController
import kssidp
import Q2ModuleInterfaces
import Dispatch
import Synchronization

/// One run of one flow: the app's orchestration of the MC-SDK and the IdpSdk, as the migration guide's
/// `IdpHandler` does it (getAstClientData → getAuthorizationCode → setAuthorizationCode), with every call
/// recorded as a flow event and every wait open to cancel.
///
/// The IdpSdk flows (activate, login, logout) go on from each SDK call's completion, as the guide's handler
/// does: no thread waits for a call, and since the service's flow queue and the SDKs' queues share the
/// device's queue, a call and its completion follow one another on one thread. The other flows wait for
/// their calls on the thread they run on.
final class FlowRun: Sendable {
    let id: Int
    let kind: FlowKind
    let service: FlowService
    private let cancelled = Atomic(false)
    /// Ends the wait in progress with a cancel (nil while nothing is awaited).
    private let stopWaiting = Locked<(@Sendable () -> Void)?>(nil)
    let started: SimulationInstant
    /// Every event of this run, for history (kept only when the service has a history).
    private let transcript = Locked<[FlowEvent]>([])
    /// Set once the result is made: what abandoned work emits later is not part of the transcript.
    private let finished = Atomic(false)

    init(id: Int, kind: FlowKind, service: FlowService) {
        self.id = id
        self.kind = kind
        self.service = service
        started = service.environment.clock.now
    }

    var environment: SimulationEnvironment { service.environment }
    var configuration: FlowConfiguration { service.configuration }

    /// Whether this flow goes on from its calls' completions on the device's queue (else it waits for them on
    /// its own thread, off the device's queue).
    var continuesFromCompletions: Bool {
        switch kind {
        case .activate, .login, .logout: true
        case .payerAuth, .q2Login, .legacyActivate, .legacyLogin: false
        }
    }

    // MARK: Cancel

    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // At a prompt, the cancel goes to the SDK as the "User cancelled" error and the flow ends through it.
        if service.channel.cancel(flowID: id) { return }
        stopWaiting.withLock { $0 }?()
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    // MARK: The flows

    /// Runs the flow; `done` gets its result once, on the flow's queue (or on the service's side queue when a
    /// cancel ended a call in flight: see ``awaitReply(_:then:)``).
    func run(done: @escaping @Sendable (FlowResult) -> Void) {
        if isCancelled { return done(cancelledResult(at: nil, inFlight: false)) }
        switch kind {
        case .activate: signIn(clientId: configuration.enrollmentClientId, done: done)
        case .login: signIn(clientId: configuration.loginClientId, done: done)
        case .logout: logout(done: done)
        case .payerAuth: done(payerAuthentication())
        case .q2Login: done(q2Login())
        case .legacyActivate, .legacyLogin: done(legacy())
        }
    }

    private func signIn(clientId: String, done: @escaping @Sendable (FlowResult) -> Void) {
        send(.start, KSMStartEvent(), detail: "") { [self] startReply in
            guard let startReply else { return done(cancelledResult(at: .start)) }
            guard let start = startReply as? KSMStartResultEvent, start.status == .KSMOK else {
                return done(mcFailure(.start, startReply))
            }
            let userId = kind == .login ? start.userList.first?.userId : nil
            // After a restart (logout) the app tries OfflineLogin first, and logs in at the IdP when it is not OK.
            guard kind == .login && start.sdkState == .loginRequired && !environment.masterController.snapshot.loggedIn else {
                return authorize(clientId: clientId, userId: userId, done: done)
            }
            send(.offlineLogin, KSMOfflineLoginEvent(), detail: "") { [self] offlineReply in
                guard let offlineReply else { return done(cancelledResult(at: .offlineLogin)) }
                if let offline = offlineReply as? KSMOfflineLoginResultEvent, offline.status == .KSMOK {
                    var loggedIn = result(.success, status: StatusType.OK.name, step: nil, error: nil)
                    loggedIn.offline = true
                    return done(loggedIn)
                }
                authorize(clientId: clientId, userId: userId, done: done)
            }
        }
    }

    /// GetAstClientData → getAuthorizationCode → SetAuthorisationCode.
    private func authorize(clientId: String, userId: String?, done: @escaping @Sendable (FlowResult) -> Void) {
        send(.getAstClientData, KSMGetAstClientDataEvent(tenantId: environment.tenantId), detail: "") { [self] astReply in
            guard let astReply else { return done(cancelledResult(at: .getAstClientData)) }
            guard let ast = astReply as? KSMGetAstClientDataResultEvent, ast.status == .KSMOK else {
                return done(mcFailure(.getAstClientData, astReply))
            }
            getAuthorizationCode(AstClientDataInfo(astClientData: ast), clientId: clientId, userId: userId) { [self] sdkResult in
                guard let sdkResult else { return done(cancelledResult(at: .getAuthorizationCode)) }
                if let error = sdkResult.idpSdkError {
                    let (outcome, status) = FlowResult.classify(error)
                    return done(result(outcome, status: status, step: .getAuthorizationCode, error: FlowError(error)))
                }
                guard let code = sdkResult.authorizationCode else {
                    return done(result(
                        .failure, status: StatusType.FAILED.name, step: .getAuthorizationCode,
                        error: FlowError(subsystem: nil, code: nil, message: "the IdpSdk returned neither a code nor an error")))
                }
                if isCancelled { return done(cancelledResult(at: .setAuthorisationCode, inFlight: false)) }
                setAuthorisationCode(code, clientId: clientId, done: done)
            }
        }
    }

    private func setAuthorisationCode(_ code: String, clientId: String, done: @escaping @Sendable (FlowResult) -> Void) {
        let mode = configuration.authenticationMode
        let event = KSMSetAuthorisationCodeEvent(
            tenantId: environment.tenantId, authenticationMode: mode, authorisationCode: code, clientId: clientId)
        let detail = "tenantId=\(environment.tenantId), clientId=\(clientId), authenticationMode=\(mode.rawValue)"
        send(.setAuthorisationCode, event, detail: detail) { [self] setReply in
            guard let setReply else { return done(cancelledResult(at: .setAuthorisationCode)) }
            guard let set = setReply as? KSMSetAuthorisationCodeResultEvent, set.status == .KSMOK else {
                return done(mcFailure(.setAuthorisationCode, setReply))
            }
            done(result(.success, status: StatusType.OK.name, step: nil, error: nil))
        }
    }

    private func logout(done: @escaping @Sendable (FlowResult) -> Void) {
        let restart: @Sendable () -> Void = { [self] in
            send(.restart, KSMRestartEvent(), detail: "") { [self] reply in
                guard let reply else { return done(cancelledResult(at: .restart)) }
                guard (reply as? KSMRestartResultEvent)?.status == .KSMOK else { return done(mcFailure(.restart, reply)) }
                done(result(.success, status: StatusType.OK.name, step: nil, error: nil))
            }
        }
        if environment.masterController.snapshot.started { return restart() }
        send(.start, KSMStartEvent(), detail: "") { [self] startReply in
            guard let startReply else { return done(cancelledResult(at: .start)) }
            guard (startReply as? KSMStartResultEvent)?.status == .KSMOK else { return done(mcFailure(.start, startReply)) }
            restart()
        }
    }

    // MARK: Calls

    /// Sends an event to the master controller; `next` gets its result, or nil once the flow is cancelled.
    func send(_ step: FlowStep, _ event: any KSMEvent, detail: String, then next: @escaping @Sendable ((any KSMEvent)?) -> Void) {
        if isCancelled { return next(nil) }
        emit(step, from: .app, to: .masterController, detail: detail.isEmpty ? event.getName() : "\(event.getName()): \(detail)")
        let sent = environment.clock.now
        awaitReply({ deliver in
            environment.masterController.receive(event) { result in
                deliver(.masterController(result ?? KSMInvalidStateEvent(errorMessage: "no result event"), thread: QueueName.current))
            }
        }) { [self] reply in
            guard case .masterController(let result, let thread)? = reply else { return next(nil) }
            let (status, summary) = Self.describe(result)
            emit(step, from: .masterController, to: .app, thread: thread, duration: sent.duration(to: environment.clock.now),
                 status: status, detail: summary)
            next(result)
        }
    }

    /// ``send(_:_:detail:then:)`` for a flow that waits on its own thread: returns the result, or nil once the
    /// flow is cancelled.
    func send(_ step: FlowStep, _ event: any KSMEvent, detail: String) -> (any KSMEvent)? {
        let reply = OneShot<ResultEventBox>()
        send(step, event, detail: detail) { reply.fulfil(ResultEventBox(event: $0)) }
        return reply.wait().event
    }

    private func getAuthorizationCode(
        _ info: AstClientDataInfo, clientId: String, userId: String?, then next: @escaping @Sendable (IdpSdkResult?) -> Void
    ) {
        if isCancelled { return next(nil) }
        let traceParent = "00-\(Hex.encode(environment.world.random.bytes(16)))-\(Hex.encode(environment.world.random.bytes(8)))-01"
        emit(.getAuthorizationCode, from: .app, to: .idpSdk,
             detail: "clientId=\(clientId), userId=\(userId ?? "nil"), traceParent=\(traceParent)")
        let sent = environment.clock.now
        let interaction = PromptingInteraction(
            run: self, clientId: clientId, channel: service.channel, clock: environment.clock,
            timeout: configuration.promptTimeout)
        awaitReply({ deliver in
            service.idpSdk.getAuthorizationCode(
                withAstClientData: info, clientId: clientId, interactionInterface: interaction, userId: userId,
                traceParent: traceParent
            ) { result in deliver(.idpSdk(result, thread: QueueName.current)) }
        }) { [self] reply in
            guard case .idpSdk(let result, let thread)? = reply else { return next(nil) }
            let status = result.idpSdkError.map { "\($0.subsystem)/\($0.errorCode)" } ?? StatusType.OK.name
            let detail = result.idpSdkError?.errorDescription ?? "authorization code received"
            emit(.getAuthorizationCode, from: .idpSdk, to: .app, thread: thread,
                 duration: sent.duration(to: environment.clock.now), status: status, detail: detail)
            next(result)
        }
    }

    /// Starts an asynchronous call; `next` gets its reply, or nil once the flow is cancelled, whichever comes
    /// first (the other is dropped).
    ///
    /// Where `next` runs: for a flow that continues from completions, on the service's flow queue, so that it
    /// follows the SDK's completion on the same thread; after a cancel, on the service's side queue, at once,
    /// even while the device's queue is still busy with the call (a slow network, a request-timeout fault, a
    /// state file locked by another process). For a flow that waits on its own thread, on the thread that
    /// delivers.
    func awaitReply(
        _ call: (@escaping @Sendable (StepReply) -> Void) -> Void, then next: @escaping @Sendable (StepReply?) -> Void
    ) {
        let once = OneTimeClaim()
        let lanes = continuesFromCompletions ? (reply: service.flowQueue, cancel: service.sideQueue) : nil
        let deliver: @Sendable (StepReply) -> Void = { [self] reply in
            guard once.claim() else { return }
            stopWaiting.withLock { $0 = nil }
            let value: StepReply? = if case .cancelled = reply { nil } else { reply }
            guard let lanes else { return next(value) }
            (value == nil ? lanes.cancel : lanes.reply).async { next(value) }
        }
        stopWaiting.withLock { $0 = { deliver(.cancelled) } }
        if isCancelled { deliver(.cancelled) } else { call(deliver) }
    }

    /// Starts an asynchronous call and waits on this thread until it completes or the flow is cancelled (nil).
    func waitForReply(_ call: (OneShot<StepReply>) -> Void) -> StepReply? {
        let shot = OneShot<StepReply>()
        stopWaiting.withLock { $0 = { shot.fulfil(.cancelled) } }
        defer { stopWaiting.withLock { $0 = nil } }
        if isCancelled { shot.fulfil(.cancelled) } else { call(shot) }
        let reply = shot.wait()
        if case .cancelled = reply { return nil }
        return reply
    }

    // MARK: Events and results

    func emit(
        _ step: FlowStep, from: Participant, to: Participant, thread: String = QueueName.current,
        duration: Duration? = nil, status: String? = nil, detail: String
    ) {
        let time = environment.clock.now
        let event = service.mailbox.postEvent { sequence in
            FlowEvent(
                flowID: self.id, flow: self.kind, sequence: sequence, step: step, from: from, to: to, thread: thread,
                mainThread: thread == "main", time: time, duration: duration, status: status, detail: detail)
        }
        if service.history != nil && !finished.load(ordering: .acquiring) { transcript.withLock { $0.append(event) } }
    }

    /// The events of this run, in order; nothing emitted after this call is added.
    func closeTranscript() -> [FlowEvent] {
        finished.store(true, ordering: .releasing)
        return transcript.withLock { $0.sorted { $0.sequence < $1.sequence } }
    }

    func result(_ outcome: FlowOutcome, status: String, step: FlowStep?, error: FlowError?) -> FlowResult {
        let device = environment.masterController.snapshot
        return FlowResult(
            flowID: id, flow: kind, outcome: outcome, status: status, failedStep: step, error: error,
            user: device.activatedUser?.userId, tenantId: environment.tenantId, astClientId: device.astClientId,
            authenticationMode: device.authenticationMode, duration: started.duration(to: environment.clock.now))
    }

    func cancelledResult(at step: FlowStep?, inFlight: Bool = true) -> FlowResult {
        let message = switch (step, inFlight) {
        case (let step?, true): "cancelled while \(step.rawValue) was in flight; its late result is discarded"
        case (let step?, false): "cancelled before \(step.rawValue)"
        case (nil, _): "cancelled before the flow started"
        }
        emit(.cancel, from: .app, to: .app, status: StatusType.USER_CANCEL.name, detail: message)
        return result(.cancelled, status: StatusType.USER_CANCEL.name, step: step,
                      error: FlowError(subsystem: nil, code: nil, message: message))
    }

    func mcFailure(_ step: FlowStep, _ reply: any KSMEvent) -> FlowResult {
        switch reply {
        case let event as KSMStartResultEvent:
            // The MC-SDK fails Start with UNINITIALISED only when its integrity check fails.
            let insecure = event.status == .KSMFAILED && event.sdkState == .uninitialised
            return result(.failure, status: insecure ? SimulatorStatus.insecureDevice : event.status.name, step: step,
                          error: FlowError(subsystem: nil, code: nil, message: event.errorDescription ?? "StartEvent failed"))
        case let event as KSMRuntimeErrorEvent:
            emit(.runtimeError, from: .masterController, to: .app, thread: "MC-SDK", status: StatusType.INTERNAL_ERROR.name,
                 detail: "the MC-SDK restarted itself; send StartEvent before anything else")
            return result(.failure, status: StatusType.INTERNAL_ERROR.name, step: step,
                          error: FlowError(subsystem: nil, code: nil, message: event.errorMessage))
        case let event as KSMOfflineLoginResultEvent:
            return result(.failure, status: event.status.name, step: step,
                          error: FlowError(subsystem: nil, code: nil, message: event.errorDescription ?? "OfflineLogin failed"))
        case let event as KSMSetAuthorisationCodeResultEvent:
            let code = event.errorCode == 0 ? nil : event.errorCode
            return result(.failure, status: event.status.name, step: step, error: FlowError(
                subsystem: code.map { _ in IdpFailure.subsystem }, code: code,
                message: event.errorDescription ?? "SetAuthorisationCode failed"))
        case let event as KSMGetAstClientDataResultEvent:
            return result(.failure, status: event.status.name, step: step, error: FlowError(
                subsystem: nil, code: event.errorCode == 0 ? nil : event.errorCode,
                message: event.errorDescription ?? "GetAstClientData failed"))
        case let event as KSMInvalidStateEvent:
            return result(.failure, status: StatusType.INVALID_STATE.name, step: step,
                          error: FlowError(subsystem: nil, code: nil, message: event.errorMessage))
        default:
            return result(.failure, status: StatusType.FAILED.name, step: step,
                          error: FlowError(subsystem: nil, code: nil, message: "unexpected \(reply.getName())"))
        }
    }

    /// A result event's status and a secret-free summary.
    private static func describe(_ event: any KSMEvent) -> (String, String) {
        switch event {
        case let result as KSMStartResultEvent where result.status != .KSMOK:
            return (result.status.name, result.errorDescription ?? "sdkState=\(result.sdkState.rawValue)")
        case let result as KSMStartResultEvent:
            let users = result.userList.map(\.description).joined(separator: ",")
            return (result.status.name, "sdkState=\(result.sdkState.rawValue), users=[\(users)]")
        case let result as KSMOfflineLoginResultEvent where result.status == .KSMOK:
            return (result.status.name, "logged in offline as \(result.userIdentifier?.description ?? "?") (local authentication passed)")
        case let result as KSMOfflineLoginResultEvent:
            return (result.status.name, (result.errorDescription ?? "") + "; logging in at the IdP instead")
        case let result as KSMRuntimeErrorEvent:
            return (StatusType.INTERNAL_ERROR.name, "RuntimeErrorEvent: \(result.errorMessage)")
        case let result as KSMGetAstClientDataResultEvent where result.status == .KSMOK:
            return (result.status.name, "astClientId=\(result.astClientId), codeChallangeMethod=\(result.codeChallangeMethod)")
        case let result as KSMGetAstClientDataResultEvent:
            return (result.status.name, result.errorDescription ?? "")
        case let result as KSMSetAuthorisationCodeResultEvent where result.status == .KSMOK:
            return (result.status.name, "logged in as \(result.userIdentifier?.description ?? "?")")
        case let result as KSMSetAuthorisationCodeResultEvent:
            let code = result.errorCode == 0 ? "" : "\(IdpFailure.subsystem)/\(result.errorCode): "
            return (result.status.name, code + (result.errorDescription ?? ""))
        case let result as KSMRestartResultEvent:
            return (result.status.name, "sdkState=\(result.sdkState.rawValue)")
        case let result as KSMInvalidStateEvent:
            return (StatusType.INVALID_STATE.name, "\(result.getName()): \(result.errorMessage)")
        default:
            return ("?", event.getName())
        }
    }
}

/// A master controller's result event, or nil for a cancel, as one value to wait for.
struct ResultEventBox: Sendable {
    let event: (any KSMEvent)?
}

/// True for the first call of ``claim()`` only.
final class OneTimeClaim: Sendable {
    private let claimed = Atomic(false)

    func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }
}

/// What a call waited for delivered, with the thread it was delivered on.
enum StepReply: Sendable {
    case masterController(any KSMEvent, thread: String)
    case idpSdk(IdpSdkResult, thread: String)
    case payment(PaymentEnd)
    case q2(Result<PasswordAuthenticationResult, MobileCoreLoginFailure>)
    case kssidp(ResultObject, KssIdpResultObject, thread: String)
    case cancelled
}

