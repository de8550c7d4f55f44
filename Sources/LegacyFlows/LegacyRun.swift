import FlowEngine
import FlowRecords
import Foundation
import IdentityProvider
import IdpFlows
import IdpSdk
import KSMasterController
import kssidp
import Secrets
import Simulation
import Threading

extension FlowKind {
    public static let legacyActivate = FlowKind(
        "legacy-activate", title: "Activate device (KSSIDP)", lanes: identityLanesWithWrapper, sdk: "KSSIDP wrapper on MC-SDK",
        goodStatuses: ["Success"], summarize: DeviceWording.summarize(success: "Device activated and logged in (KSSIDP)", wrapperCall: LegacyFlow.wrapperStep(activating: true)))
    public static let legacyLogin = FlowKind(
        "legacy-login", title: "Log in (KSSIDP)", lanes: identityLanesWithWrapper, sdk: "KSSIDP wrapper on MC-SDK",
        goodStatuses: ["Success"], summarize: DeviceWording.summarize(success: "Logged in (KSSIDP)", wrapperCall: LegacyFlow.wrapperStep(activating: false)))

    /// No IdpSdk: KSSIDP did the IdP's HTTP itself (REFERENCE.md), and a migrator read an IdpSdk lane as "KSSIDP
    /// already uses the IdpSdk".
    static let identityLanesWithWrapper: [Participant] = [.app, .kssidp, .masterController, .identityProvider]
}


/// The legacy KSSIDP wrapper: activation and login with every credential up front, on the IdpSdk family's
/// device, as an app did before the migration.
public final class LegacyFamily: FlowFamily {
    let idp: IdpSdkFamily

    public init(idp: IdpSdkFamily) {
        self.idp = idp
    }

    public static let kinds: [FlowKind] = [.legacyActivate, .legacyLogin]

    /// What a KSSIDP app collects before it calls the wrapper (every field up front, whatever the IdP's form
    /// holds): fixed by the flow, so that a headless run can check its answers before anything runs.
    public static func credentialFields(for kind: FlowKind) -> [CredentialField] {
        kind == .legacyActivate ? [.username, .password, .activationCode] : [.username, .password]
    }

    public func run(_ run: FlowRun) async -> FlowResult? {
        // A flow cancelled before left the device's line abandoned; KSSIDP's own call, once made, is never
        // abandoned: it cannot be stopped (a cancel only stops the app from waiting for it).
        idp.environment.network.resumeWaits()
        return await LegacyFlow(run: run, idp: idp).run()
    }

    public func details(of kind: FlowKind) -> [any FlowResultDetail] { idp.details(of: kind) }

    /// A KSSIDP activation cancelled while the wrapper's call was under way: the wrapper cannot be stopped, and
    /// goes on without the app; its one call hides whether the IdP had accepted, and so spent, the code yet.
    public func cancelAdvice(for kind: FlowKind, step: FlowStep?) -> String? {
        guard kind == .legacyActivate, step == LegacyFlow.wrapperStep(activating: true) else { return nil }
        return "KSSIDP cannot be stopped once called: it may have gone on to activate the device, and the IdP spends the activation code when it accepts it. If the next activation says the code was used, log in, or \(idp.environment.startOver) gives the scenario's codes back."
    }

    /// Ended with the process, the wrapper's call went no further: the device is not activated, and the code may be
    /// spent all the same (it said the wrapper may have gone on to activate the device, and to log in: the login then
    /// failed, not activated; the chaos re-tester).
    public func interruptedAdvice(for kind: FlowKind, step: FlowStep?) -> String? {
        guard kind == .legacyActivate, step == LegacyFlow.wrapperStep(activating: true) else { return cancelAdvice(for: kind, step: step) }
        return "KSSIDP's call ended with the process, so the device is not activated; the IdP may have spent the activation code if it had accepted it. If the next activation says the code was used, \(idp.environment.startOver) gives the scenario's codes back."
    }

    /// The wrapper's one call hides its steps: of its failures, only the MC-SDK's at SetAuthorisationCode (a runtime
    /// error, a device it could not store: INTERNAL_ERROR once the wrapper was called, not at Start) is known to come
    /// after the IdP accepted, and so spent, the activation code.
    public func advice(for kind: FlowKind, status: String, error: FlowError?, step: FlowStep?) -> String? {
        idp.deviceAdvice(status: status, error: error, step: step,
                         codeSpent: kind == .legacyActivate && status == StatusType.INTERNAL_ERROR.name && step != .start,
                         activation: kind == .legacyActivate, login: kind == .legacyLogin && step == LegacyFlow.wrapperStep(activating: false))
    }
}

struct LegacyFlow {
    let run: FlowRun
    let idp: IdpSdkFamily

    /// The app's one call to the wrapper: `KssIdpWrapper.activate` or `KssIdpWrapper.login`.
    static func wrapperStep(activating: Bool) -> FlowStep { FlowStep("KssIdpWrapper.\(activating ? "activate" : "login")") }

    var kind: FlowKind { run.kind }
    var environment: SimulationEnvironment { idp.environment }
    var configuration: IdpSettings { idp.settings }

    /// The app's orchestration before the IdpSdk: Start, then every credential up front, then one call to the
    /// KSSIDP wrapper, which runs GetAstClientData, the IdP's login and SetAuthorisationCode itself.
    func run() async -> FlowResult? {
        let activating = kind == .legacyActivate
        let device = IdpSdkFlow(run: run, family: idp)
        guard let startReply = await device.send(.start, KSMStartEvent(), detail: "") else { return nil }
        guard let start = startReply as? KSMStartResultEvent, start.status == .KSMOK else { return device.mcFailure(.start, startReply) }
        let clientId = activating ? configuration.enrollmentClientId : configuration.loginClientId
        let fields = LegacyFamily.credentialFields(for: kind)

        // KSSIDP needs the credentials before it starts: the app asks for all of them first.
        let callName = activating ? "activate" : "login"
        let step = Self.wrapperStep(activating: activating)
        run.emit(.credentialForm, from: .app, to: .app, detail: "the app collects \(fields.map(\.key).joined(separator: ", ")) before calling KSSIDP")
        // A login's form starts with the device's user, as the IdpSdk login's does (the MC-SDK's user list names it).
        let known = activating ? nil : start.userList.first?.userId
        let (resolution, _) = await run.ask(CredentialsRequest(fields: fields, clientId: clientId, knownUsername: known, forWrapperCall: step.rawValue))
        let credentials: [String: Secret]
        switch resolution {
        case .answered(let answer) where answer.value(as: Credentials.self) != nil:
            credentials = answer.value(as: Credentials.self)?.values ?? [:]
            // The history lists the user the app signs in, as the IdpSdk's flows do, whatever the wrapper answers.
            if let username = credentials[CredentialField.username.key]?.reveal(), !username.isEmpty { run.actsFor(user: username) }
        case .timedOut:
            return run.result(.failure, status: SimulatorStatus.promptTimeout, step: .credentialForm,
                          error: FlowError(subsystem: nil, code: nil, message: "the credentials were not given in time"))
        default: return run.cancelledResult(at: .credentialForm, inFlight: false, atPrompt: true)
        }
        if run.stopIfCancelled(before: step) { return nil }

        let mode = configuration.authenticationMode
        run.emit(step, from: .app, to: .kssidp,
             detail: "\(callName)(clientId: \(clientId), authMode: \(mode.rawValue), credentials: [\(credentials.keys.sorted().joined(separator: ", "))], parentSpan: nil)")
        let wrapper = KssIdpWrapper(
            config: KssIdpConfig(
                certificatePath: "bundle:idp-chain.pem",
                certificateChain: Data((configuration.certificateChainPEM ?? IdentityProviderCertificates.genuinePEM).utf8),
                baseUrl: environment.idpUrl, tenantId: environment.tenantId,
                masterController: environment.masterController, shouldKssIdpHandleTms: false, shouldHashPin: configuration.shouldHashPin,
                network: environment.network),
            observer: { [run] event, status in
                if let status {
                    run.emit(FlowStep(event), from: .masterController, to: .kssidp, thread: "MC-SDK", status: status, detail: "\(event)ResultEvent")
                } else {
                    run.emit(FlowStep(event), from: .kssidp, to: .masterController, detail: "\(event)Event")
                }
            })
        let sent = run.clock.now
        // Once called, KSSIDP cannot be stopped: a cancel only stops the app from waiting for it. What it goes on to
        // do is still this flow's (``FlowService/runningFlow``): its requests, its MC-SDK events, and its answer,
        // which the app no longer waits for (the live log; the transcript ends at the cancel).
        guard let reply = await run.call({ step }, late: { [run] (reply: LegacyReply) in
            run.emit(step, from: .kssidp, to: .app, thread: reply.thread, duration: sent.duration(to: run.clock.now),
                     status: reply.statusName, detail: "after the cancel, unheard by the app: \(reply.detail)")
        }, { deliver in
            wrapper.start(clientId: clientId, authMode: mode, credentials: credentials, parentSpan: nil) { result, object in
                deliver(LegacyReply(outcome: result, object: object, thread: QueueName.current))
            }
        }) else { return nil }
        run.emit(step, from: .kssidp, to: .app, thread: reply.thread, duration: sent.duration(to: run.clock.now),
                 status: reply.statusName, detail: reply.detail)
        switch reply.object.status {
        case .success:
            return run.result(.success, status: StatusType.OK.name, step: nil, error: nil)
        case .requestFailed(_, _, let model, _):
            let error = IdpSdkError(model.subsystem, Int(model.code) ?? 0, model.description)
            let (flowOutcome, status) = FlowResult.classify(error)
            return run.result(flowOutcome, status: status, step: step, error: FlowError(error))
        case .eventFailed(let status, let description, _):
            let code = reply.outcome.errorCode == 0 ? nil : reply.outcome.errorCode
            return run.result(.failure, status: status.name, step: step,
                          error: FlowError(subsystem: code.map { _ in IdpFailure.subsystem }, code: code, message: description))
        case .biometricError(let code, let description):
            return run.result(.failure, status: StatusType.FAILED.name, step: step, error: FlowError(subsystem: nil, code: code, message: description))
        }
    }
}

/// What the wrapper's completion handed over, with the thread it came on.
struct LegacyReply: Sendable {
    let outcome: ResultObject
    let object: KssIdpResultObject
    let thread: String

    /// The wrapper's status as the log shows it.
    var statusName: String {
        switch object.status {
        case .success: "Success"
        case .requestFailed: "RequestFailed"
        case .eventFailed: "EventFailed"
        case .biometricError: "BiometricError"
        }
    }

    /// What the wrapper said: its message, or its error's description.
    var detail: String {
        switch object.status {
        case .success(let message, _): message
        case .requestFailed(_, _, let model, _): model.description
        case .eventFailed(_, let description, _), .biometricError(_, let description): description
        }
    }
}
