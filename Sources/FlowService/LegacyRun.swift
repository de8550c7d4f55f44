import FlowRecords
import Foundation
import IdentityProvider
import IdpSdk
import kssidp
import KSMasterController
import Secrets
import Threading

extension FlowRun {
    /// The app's orchestration before the IdpSdk: Start, then every credential up front, then one call to the
    /// KSSIDP wrapper, which runs GetAstClientData, the IdP's login and SetAuthorisationCode itself.
    func legacy() async -> FlowResult? {
        let activating = kind == .legacyActivate
        guard let startReply = await send(.start, KSMStartEvent(), detail: "") else { return nil }
        guard let start = startReply as? KSMStartResultEvent, start.status == .KSMOK else { return mcFailure(.start, startReply) }
        let clientId = activating ? configuration.enrollmentClientId : configuration.loginClientId
        let fields: [IdpSdkInputFieldId] = activating ? [.username, .password, .activationCode] : [.username, .password]

        // KSSIDP needs the credentials before it starts: the app asks for all of them first.
        let callName = activating ? "activate" : "login"
        let step = FlowStep("KssIdpWrapper.\(callName)")
        emit(.provideCredentials, from: .app, to: .app, detail: "the app collects \(fields.map(\.rawValue).joined(separator: ", ")) before calling KSSIDP")
        let (resolution, _) = await ask(.credentials(fields: fields, clientId: clientId, page: 1, pageCount: 1))
        let credentials: [String: Secret]
        switch resolution {
        case .answered(.credentials(let values)): credentials = values
        case .timedOut:
            return result(.failure, status: SimulatorStatus.promptTimeout, step: .provideCredentials,
                          error: FlowError(subsystem: nil, code: nil, message: "nobody gave the credentials in time"))
        default: return cancelledResult(at: .provideCredentials, inFlight: false)
        }
        if stopIfCancelled(before: step) { return nil }

        let mode = configuration.authenticationMode
        emit(step, from: .app, to: .kssidp,
             detail: "\(callName)(clientId: \(clientId), authMode: \(mode.rawValue), credentials: [\(credentials.keys.sorted().joined(separator: ", "))], parentSpan:)")
        let wrapper = KssIdpWrapper(
            config: KssIdpConfig(
                certificatePath: "bundle:idp-chain.pem",
                certificateChain: Data((configuration.certificateChainPEM ?? IdentityProviderCertificates.genuinePEM).utf8),
                baseUrl: environment.idpUrl, tenantId: environment.tenantId,
                masterController: environment.masterController, shouldKssIdpHandleTms: false, shouldHashPin: configuration.shouldHashPin,
                network: environment.world.network),
            observer: { [weak self] event, status in
                guard let self else { return }
                if let status {
                    self.emit(FlowStep(event), from: .masterController, to: .kssidp, thread: "MC-SDK", status: status, detail: "\(event)ResultEvent")
                } else {
                    self.emit(FlowStep(event), from: .kssidp, to: .masterController, detail: "\(event)Event")
                }
            })
        let sent = environment.clock.now
        // Once called, KSSIDP cannot be stopped: a cancel only stops the app from waiting for it.
        guard let reply = await call({ step }, { deliver in
            wrapper.start(clientId: clientId, authMode: mode, credentials: credentials, parentSpan: nil) { result, object in
                deliver(LegacyReply(outcome: result, object: object, thread: QueueName.current))
            }
        }) else { return nil }
        let (outcome, object, thread) = (reply.outcome, reply.object, reply.thread)
        switch object.status {
        case .success(let message, _):
            emit(step, from: .kssidp, to: .app, thread: thread, duration: sent.duration(to: environment.clock.now), status: "Success",
                 detail: message)
            return result(.success, status: StatusType.OK.name, step: nil, error: nil)
        case .requestFailed(_, _, let model, _):
            emit(step, from: .kssidp, to: .app, thread: thread, duration: sent.duration(to: environment.clock.now),
                 status: "RequestFailed", detail: model.description)
            let error = IdpSdkError(model.subsystem, Int(model.code) ?? 0, model.description)
            let (flowOutcome, status) = FlowResult.classify(error)
            return result(flowOutcome, status: status, step: step, error: FlowError(error))
        case .eventFailed(let status, let description, _):
            emit(step, from: .kssidp, to: .app, thread: thread, duration: sent.duration(to: environment.clock.now),
                 status: "EventFailed", detail: description)
            let code = outcome.errorCode == 0 ? nil : outcome.errorCode
            return result(.failure, status: status.name, step: step,
                          error: FlowError(subsystem: code.map { _ in IdpFailure.subsystem }, code: code, message: description))
        case .biometricError(let code, let description):
            emit(step, from: .kssidp, to: .app, thread: thread, duration: sent.duration(to: environment.clock.now),
                 status: "BiometricError", detail: description)
            return result(.failure, status: StatusType.FAILED.name, step: step, error: FlowError(subsystem: nil, code: code, message: description))
        }
    }
}

/// What the wrapper's completion handed over, with the thread it came on.
struct LegacyReply: Sendable {
    let outcome: ResultObject
    let object: KssIdpResultObject
    let thread: String
}
