import FlowEngine
import Foundation
import IdentityProvider
import IdpSdk
import KSMasterController
import Simulation
import Threading

/// How the app uses the IdpSdk: what it pins, whether it hashes the PIN, which local authentication mode it
/// asks for, and its client ids.
public struct IdpSettings: FamilySettings {
    public static let defaults = IdpSettings()

    /// The PEM chain passed to `IdpSdkService(certificateChain:)`; nil pins the IdP's own.
    public var certificateChainPEM: String?
    public var shouldHashPin: Bool
    public var authenticationMode: KSMAuthenticationMode
    public var enrollmentClientId: String
    public var loginClientId: String
    /// Whether SetAuthorisationCode goes out only with the code getAuthorizationCode gave (the default). Off, the
    /// flow is the migration guide's code as written: its `getAuthorizationCode` returns "" when the IdpSdk gives
    /// no code (an IdP error, a cancel), and its Step 3 sends that, which the MC-SDK refuses (`compare --variant
    /// guide-as-written`).
    public var guardsSetAuthorisationCode = true

    public init(
        certificateChainPEM: String? = nil, shouldHashPin: Bool = false, authenticationMode: KSMAuthenticationMode = .no,
        enrollmentClientId: String = KSMClientId.enrollment, loginClientId: String = KSMClientId.login
    ) {
        self.certificateChainPEM = certificateChainPEM
        self.shouldHashPin = shouldHashPin
        self.authenticationMode = authenticationMode
        self.enrollmentClientId = enrollmentClientId
        self.loginClientId = loginClientId
    }

    /// The chain the app pins, as `IdpSdkService` takes it.
    var pinnedChain: Data { Data((certificateChainPEM ?? IdentityProviderCertificates.genuinePEM).utf8) }
}

/// The IdpSdk on the MC-SDK: activate, login and logout on one device, as the migration guide's `IdpHandler`
/// orchestrates them. The device (its master controller) is the environment's; the legacy KSSIDP family works
/// on the same device.
public final class IdpSdkFamily: FlowFamily {
    public let environment: SimulationEnvironment
    public let settings: IdpSettings
    let idpSdk: IdpSdkService
    private let observer = Locked<Int?>(nil)
    /// The token of this family's observer of its device's requests (``SimulatedNetwork/onSending(_:)``).
    private let sendingToken = Locked<Int?>(nil)
    private let service = Locked<WeakService>(WeakService())
    /// The app's receiver of what the MC-SDK reports unasked; the controller holds it weakly.
    private let listener = MasterControllerListener()
    /// The faults the session started with (the scenario's), whose values a switch takes when switched on again.
    private let startingFaults: IdentityFaults

    public init(environment: SimulationEnvironment, settings: IdpSettings = IdpSettings()) {
        self.environment = environment
        self.settings = settings
        startingFaults = environment.world.identityFaults
        idpSdk = IdpSdkService(
            tenantId: environment.tenantId, idpUrl: environment.idpUrl, certificateChain: settings.pinnedChain,
            shouldHashPin: settings.shouldHashPin, network: environment.network, targetQueue: environment.deviceQueue)
    }

    deinit {
        if let token = observer.withLock({ $0 }) { environment.world.identityProvider.removeObserver(token) }
        if let token = sendingToken.withLock({ $0 }) { environment.network.stopSending(token) }
    }

    /// The device's master controller.
    public var device: MCSDK { environment.masterController }

    public static let kinds: [FlowKind] = [.activate, .login, .logout]

    public func run(_ run: FlowRun) async -> FlowResult? {
        // A flow cancelled before left its device's line abandoned: this one's round trips wait again.
        environment.network.resumeWaits()
        let flow = IdpSdkFlow(run: run, family: self)
        switch run.kind {
        case .activate: return await flow.signIn(clientId: settings.enrollmentClientId)
        case .login: return await flow.signIn(clientId: settings.loginClientId)
        default: return await flow.logout()
        }
    }

    public func details(of kind: FlowKind) -> [any FlowResultDetail] { [deviceDetail] }

    /// The identity side's faults (the network's, the IdP's, the device's): every family's flows cross that side.
    /// Made when asked (the faults panel), not with the family: a benchmark makes a device for each activation.
    public var faultSwitches: [FaultSwitch] { environment.world.identityFaultSwitches(start: startingFaults) }

    /// Every identity fault for an activation and a login. A logout sends the MC-SDK its Start (when it has not
    /// started) and Restart, neither of which crosses the network or reaches the IdP or SetAuthorisationCode: only
    /// the insecure device, found by Start's integrity check, can bite it (the others were announced as on and
    /// taken from its answers, and bit nothing).
    public static func faultKeys(reaching kind: FlowKind) -> [String] { kind == .logout ? logoutFaultKeys : IdentityFaults.Fault.keys }

    private static let logoutFaultKeys = [IdentityFaults.Fault.insecureDevice.key]

    /// The settings (the pinned chain, `shouldHashPin`, the authentication mode) are for the IdP and
    /// SetAuthorisationCode, which a logout never reaches.
    public static func isChangedBySettings(_ kind: FlowKind) -> Bool { kind != .logout }

    /// The device as a result reports it.
    var deviceDetail: DeviceDetail {
        let device = device.snapshot
        return DeviceDetail(user: device.activatedUser?.userId, tenantId: environment.tenantId,
                            astClientId: device.activatedUser == nil ? nil : device.astClientId,
                            authenticationMode: device.authenticationMode)
    }

    /// An activation that got as far as SetAuthorisationCode has spent its code: the IdP took it when it accepted
    /// the code's page and issued the authorization code. A failure there (the network, a runtime error) used to
    /// leave it spent with nothing said, and the next activation failed with ACTIVATION_CODE_USED.
    public func advice(for kind: FlowKind, status: String, error: FlowError?, step: FlowStep?) -> String? {
        if kind == .logout, status == SimulatorStatus.insecureDevice, let kept = sessionKept(after: step) { return kept }
        let spent = kind == .activate && step == .setAuthorisationCode
        return deviceAdvice(status: status, error: error, step: step, codeSpent: spent, activation: spent,
                            login: kind == .login && step == .setAuthorisationCode)
    }

    /// A logout the insecure device stopped leaves the session as it was (docs/faults.md): it said the restart was
    /// refused, not that the user was still logged in.
    private func sessionKept(after step: FlowStep?) -> String? {
        let device = device.snapshot
        guard device.loggedIn, let user = device.activatedUser?.userId else { return nil }
        let why = step == .restart ? "a refused restart keeps the session" : "the MC-SDK did not start, so no RestartEvent was sent"
        return "\(user) is still logged in (\(why)): \(endInsecureDevice), then log out again."
    }

    /// What ends the insecure device: the option that holds it on (`--insecure-device`), else its fault's switch.
    /// The advice named both, the option to a session run without it and the switch the option holds on.
    private var endInsecureDevice: String {
        let fault = "the insecure-device fault"
        return service.withLock { $0.service }?.howToEnd(IdentityFaults.Fault.insecureDevice.key, fault: fault) ?? "turn \(fault) off"
    }

    /// The same for a cancel there.
    public func cancelAdvice(for kind: FlowKind, step: FlowStep?) -> String? {
        guard kind == .activate, step == .setAuthorisationCode else { return nil }
        return DeviceAdvice.codeSpent(startOver: environment.startOver)
    }

    /// What to try after a flow on this device ended with `status`; `codeSpent`: an activation's that the IdP had
    /// accepted the code of (KSSIDP's too); `activation`: an activation's that reached SetAuthorisationCode, or a
    /// KSSIDP activation's (the wrapper's one call hides its steps); `login`: a login's that reached SetAuthorisationCode,
    /// or a KSSIDP login's that called the wrapper.
    public func deviceAdvice(status: String, error: FlowError?, step: FlowStep?, codeSpent: Bool, activation: Bool = false,
                             login: Bool = false) -> String? {
        let code = error?.code
        let spent = DeviceAdvice.codeSpent(startOver: environment.startOver)
        let advice: String?
        if activation, status == StatusType.INVALID_STATE.name, code != IdpFailure.alreadyActivated.code,
            let owner = device.snapshot.activatedUser
        {
            // An activation refused with INVALID_STATE though the device was not activated when it began (else the
            // IdP refuses it, 4043): another process on the same state file activated it meanwhile, and the
            // MC-SDK kept that activation.
            return "Another process on this state file activated the device first, for \(owner.userId): log in as that user, or reset the device to activate again (\(environment.startOver) also gives the scenario's activation codes back)."
        } else if login, status == StatusType.INVALID_STATE.name {
            // A login whose SetAuthorisationCode found the device reset by another process on the same state file, or
            // reset and activated again: a login sends its events in order, and one before activation is refused as
            // ACTIVATION_REQUIRED.
            return device.snapshot.activatedUser.map { "Another process on this state file reset the device and activated it again, for \($0.userId), while this login ran: log in again." }
                ?? "Another process on this state file reset the device while this login ran: activate it again."
        } else if status == StatusType.INTERNAL_ERROR.name {
            // A runtime error restarts the MC-SDK (it is no longer started); a device it could not store (a full disk)
            // leaves it started, or fails StartEvent itself. The advice spoke of a runtime error for both.
            advice = device.snapshot.started || step == .start
                ? "The MC-SDK could not read or store the device (the error says why: a state file another process keeps locked, damaged, on a full disk, or one it cannot write): fix that, then run the flow again."
                // "Run the flow again" would meet ACTIVATION_CODE_USED when the code is spent.
                : codeSpent ? "The MC-SDK restarted itself after a runtime error."
                : "The MC-SDK restarted itself after a runtime error: run the flow again (it starts with StartEvent)."
        } else if status == StatusType.NOT_REACHABLE.name, code == DeviceAdvice.timedOutCode || code == nil || code == 0 {
            // The request-timeout fault, or a latency at least as long as the SDK's timeout: the advice names which.
            // The MC-SDK's POST /token gives no transport code: the faults on say which there, the network being down
            // too (its advice was the generic "check the URL and the network" while a fault was the cause).
            let timedOut = code == DeviceAdvice.timedOutCode
            advice = !timedOut && environment.world.identityFaults.networkUnavailable
                ? DeviceAdvice.advice(status: status, code: DeviceAdvice.offlineCode, startOver: environment.startOver)
                : environment.network.slowness()?.advice(gaveUp: "the SDK gives up after \(environment.network.requestTimeout.secondsText)", then: "run the flow again")
                ?? (timedOut ? "The identity provider did not answer in time: run the flow again."
                    : DeviceAdvice.advice(status: status, code: code, startOver: environment.startOver))
        } else if status == StatusType.NOT_REACHABLE.name, code == DeviceAdvice.pinningCode {
            // The pinning fault, or a chain given that is not the IdP's: the advice names which (it named the fault
            // when only --certificate-chain was the cause).
            // A chain given that is the IdP's own (a copy of the default) is no cause.
            let foreign = settings.certificateChainPEM != nil && !IdentityProviderCertificates.pinsGenuineChain(settings.pinnedChain)
            advice = switch (environment.world.identityFaults.pinningFails, foreign) {
            case (true, true):
                "Turn the pinning fault off, and pin the identity provider's own certificate chain (run without --certificate-chain)."
            case (false, true):
                "The chain given with --certificate-chain is not the identity provider's: pin its own chain (run without --certificate-chain)."
            case (true, false): "Turn the pinning fault off: the identity provider then presents its own chain, the one the app pins."
            // The fault was switched off after it bit (the terminal UI's panel, mid-flow).
            case (false, false): "The identity provider presented another chain while the pinning fault was on: run the flow again."
            }
        } else if status == StatusType.ACTIVATION_CODE_EXPIRED.name, environment.world.identityFaults.clockSkew != .zero {
            // The fault on is named as the cause, not left to "if it is on" (a QA tester: the app knows it is).
            advice = "The clock-skew fault is on: the IdP's clock runs \(IdentityFaults.skewText(environment.world.identityFaults.clockSkew)), past the code's expiry. Turn it off, then activate again."
        } else if status == StatusType.FAILED.name, code == IdpFailure.serverError("").code, !environment.world.identityFaults.serverError {
            // An HTTP 500 with the server-error fault off is the IdP's own failure (its store on a full disk): the
            // advice was to turn off a fault that was not on.
            advice = "The identity provider failed (HTTP 500) with no fault on: its error says why (its store locked by another process or on a full disk, say); fix that, then run the flow again."
        } else if status == StatusType.TEMPORARY_LOCKED.name {
            advice = LockoutPolicy.advice(reportedBy: error?.message)
        } else if status == SimulatorStatus.insecureDevice {
            // Short: at 80×24 a longer one was cut.
            advice = "The MC-SDK does not run on a rooted or jailbroken device: \(endInsecureDevice)."
        } else {
            advice = DeviceAdvice.advice(status: status, code: code, startOver: environment.startOver)
        }
        guard codeSpent else { return advice }
        return (advice.map { $0 + " " } ?? "") + spent
    }

    /// The IdP's requests and answers appear in the running flow's log, between the SDK that made them and the
    /// IdP: this device's only, when several devices share the IdP.
    public func attach(to service: FlowService) {
        self.service.withLock { $0 = WeakService(service: service) }
        listener.service.withLock { $0 = WeakService(service: service) }
        device.listen(listener)
        let token = environment.world.identityProvider.observe { [weak self] traffic in self?.idpAnswered(traffic) }
        observer.withLock { $0 = token }
        // The request as it leaves this device's line, before the latency and faults it meets; the IdP's answer
        // when it comes.
        let sending = environment.network.onSending { [weak self] request in self?.requestSent(request) }
        sendingToken.withLock { $0 = sending }
    }

    private func requestSent(_ request: NetworkRequest) {
        guard let run = service.withLock({ $0.service })?.runningFlow else { return }
        run.emit(FlowStep(request.name), from: Self.caller, to: .identityProvider, detail: request.detail)
    }

    private func idpAnswered(_ traffic: IdpTraffic) {
        if let device = traffic.deviceID, device != self.device.deviceID { return }
        guard let run = service.withLock({ $0.service })?.runningFlow else { return }
        run.emit(FlowStep(traffic.request.name), from: .identityProvider, to: Self.caller, status: traffic.status, detail: traffic.response)
    }

    /// The SDK on whose queue a request goes and its answer comes.
    private static var caller: Participant { caller(on: QueueName.current) }

    private static func caller(on queue: String) -> Participant {
        switch queue {
        case "IdpSdk": .idpSdk
        case "MC-SDK": .masterController
        case "KSSIDP": .kssidp
        default: .app
        }
    }

    /// Says in `run`'s log that each request a cancel abandoned on its way never reached the IdP: the log showed it
    /// leave, and nothing after (docs/decisions.md, "Round trips … are abandoned at the cancel").
    func abandoned(_ requests: [AbandonedRequest], in run: FlowRun) {
        for abandoned in requests {
            let sender = Self.caller(on: abandoned.sentOn)
            run.emit(FlowStep(abandoned.request.name), from: sender, to: sender, thread: abandoned.sentOn, status: EngineStatus.abandoned,
                     detail: "abandoned on its way by the cancel: the IdP never got it" + Self.abandonedMeaning(abandoned.request.idpEndpoint))
        }
    }

    /// What a request abandoned on its way leaves undone, by where it was going: the form's "no code used" read,
    /// under an abandoned token request, as if the activation code the form before it spent were still good.
    private static func abandonedMeaning(_ endpoint: IdpEndpoint?) -> String {
        switch endpoint {
        case .submitForm: ", so the form counts for nothing (no failed attempt, no activation code spent)"
        case .token: ", so no tokens were issued (what the IdP took before it stands: an activation code it accepted stays spent)"
        case .openLogin, nil: ""
        }
    }

    /// The device as stored (the MC-SDK reads it again at its next Start in any case).
    public func reloadStoredState() { device.loadStoredDevice() }

    /// "not activated", "activated as alice" or "logged in as alice".
    public var statusLine: String? {
        let device = device.snapshot
        guard let user = device.activatedUser else { return "not activated" }
        return device.loggedIn ? "logged in as \(user.userId)" : "activated as \(user.userId)"
    }
}

/// A service, held weakly by the family that observes into its log.
struct WeakService: Sendable {
    weak var service: FlowService?
}

/// The app's `KSAsyncEventReceiver`, as the guide's app registers one: what the MC-SDK reports unasked (a runtime
/// error, before it restarts itself) goes into the running flow's log, before the result of the event that met it.
final class MasterControllerListener: KSAsyncEventReceiver, Sendable {
    let service = Locked<WeakService>(WeakService())

    func receive(_ event: any KsEvent, withCompletionHandler completionBlock: (((any KsEvent)?) -> Void)?) {
        guard let error = event as? KSMErrorRuntimeEvent, let run = service.withLock({ $0.service })?.runningFlow else { return }
        // Its status is its errorType: the event has no status (INTERNAL_ERROR is the SetAuthorisationCode result's that
        // follows it, and read as this event's own field: the iOS engineer).
        run.emit(.errorRuntime, from: .masterController, to: .app, thread: QueueName.current, status: "\(error.errorType)",
                 // Every field the consumer hears, as docs/faults.md lists them (it gave the description alone), named
                 // as a request's are ("SetAuthorisationCodeEvent: tenantId=…").
                 detail: "\(error.getName()): errorType=\(error.errorType), errorCode=\(error.errorCode), "
                    + "errorDescription=\"\(error.errorDescription)\"; send StartEvent before anything else")
    }
}

extension FlowConfiguration {
    /// How the app uses the IdpSdk (and the KSSIDP wrapper over it).
    public var idp: IdpSettings {
        get { self[IdpSettings.self] }
        set { self[IdpSettings.self] = newValue }
    }
}
