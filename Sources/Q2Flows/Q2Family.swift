import Dispatch
import FlowEngine
import FlowRecords
import IdentityProvider
import IdpTuiWorld
import Q2Core
import Q2ModuleInterfaces
import Threading

extension FlowKind {
    /// The Q2 authentication module's password login against Core.
    public static let q2Login = FlowKind(
        "q2-login", title: "Q2 login", lanes: [.app, .q2Module, .securityModule, .q2Core], sdk: "Q2 Mobile SDK · authentication module",
        // The security module's pass, and the sign-in screen's choices: none is a failure.
        goodStatuses: ["allow", "auto-login", "no auto-login", "another account", "credential forgotten"], summarize: Q2Wording.summarize)
}

extension FlowStep {
    public static let signInScreen = FlowStep("sign-in screen")
    public static let allowLogin = FlowStep("allowLogin")
    public static let authenticate = FlowStep("authenticate(using:)")
    public static let completePlatformAuthentication = FlowStep("completePlatformAuthentication(with:)")
}

extension Participant {
    /// The Q2 Mobile SDK's authentication module.
    public static let q2Module = Participant("Q2 SDK")
    /// The institution's Q2 Core (its logon endpoint).
    public static let q2Core = Participant("Q2 Core")
    /// The app's security module, asked before a password login.
    public static let securityModule = Participant("SecurityModule")
}

/// How the app opened and what its security module says.
public struct Q2Settings: FamilySettings {
    public static let defaults = Q2Settings()

    /// How the app was opened: `normal`, `deep-link` (a banner asks to sign in) or `push` (no auto-login).
    public var launch: Q2Launch
    /// `--insecure-device REASON`: the security module denies every Q2 login with this reason.
    public var insecureDeviceReason: String?

    public init(launch: Q2Launch = .normal, insecureDeviceReason: String? = nil) {
        self.launch = launch
        self.insecureDeviceReason = insecureDeviceReason
    }
}

/// What the Q2 sign-in screen shows: a credential form, with the platform's banner and the saved user.
public struct Q2SignIn: ChoosingForm, Equatable {
    /// `presentWithLocalizedErrorMessage`, when set.
    public let banner: String?
    /// The user of the credential saved by the last successful Q2 login in this process, if any.
    public let savedUsername: String?
    /// How the app was opened.
    public let launch: Q2Launch
    /// The screen asked again after the user set the saved credential aside (another account, or forgotten): the
    /// form is empty, and says why.
    public let setAside: Q2SetAside?

    public init(banner: String?, savedUsername: String?, launch: Q2Launch, setAside: Q2SetAside? = nil) {
        self.banner = banner
        self.savedUsername = savedUsername
        self.launch = launch
        self.setAside = setAside
    }

    /// What the sign-in screen asks for, whatever the state: a headless run checks its answers for it up front.
    public static let fields: [CredentialField] = [.username, .password]
    public var fields: [CredentialField] { Self.fields }

    /// The saved credential's user, when the screen shows (no auto-login): the form asks for the password.
    public var knownUsername: String? { savedUsername }

    public var sending: String? { "Q2: security check and password login…" }

    public var hint: String? { "Sign in to online banking (the Q2 module's own sign-in)" }

    /// The form's values, the auto-login, or (with a saved credential) the user's choice to set it aside.
    public func accepts(_ answer: PromptAnswer) -> Bool {
        answer.value(as: Credentials.self) != nil || answer.value(as: Q2AutoLogin.self) != nil
            || (savedUsername != nil && answer.value(as: Q2AccountChoice.self) != nil)
    }

    public func title(in flow: FlowKind) -> String { "\(flow.title) — sign in" }
}

/// Q2: sign in with the saved credential (only when `shouldAllowAutoLogin()` said yes).
public struct Q2AutoLogin: Sendable {}

/// Q2, at the sign-in screen with a saved credential ("Welcome back, alice — not you?"): not signing in with it.
/// Either way the screen asks again, with an empty form.
public enum Q2AccountChoice: Sendable, Equatable {
    /// Another account: the saved credential stays saved, unused this time.
    case anotherAccount
    /// The saved credential is cleared from memory.
    case forgetSavedCredential
}

/// What the user did with the saved credential at the sign-in screen, and whose it was.
public struct Q2SetAside: Sendable, Equatable {
    public let choice: Q2AccountChoice
    public let username: String

    public init(_ choice: Q2AccountChoice, username: String) {
        self.choice = choice
        self.username = username
    }
}

extension PromptAnswer {
    public static let q2AutoLogin = PromptAnswer(Q2AutoLogin())
    public static let q2AnotherAccount = PromptAnswer(Q2AccountChoice.anotherAccount)
    public static let q2ForgetSavedCredential = PromptAnswer(Q2AccountChoice.forgetSavedCredential)
}

/// The Q2 authentication module: the platform (its context and delegate), the app's sign-in module, Core's
/// password login, and the credential the last login saved.
public final class Q2Family: FlowFamily {
    public let settings: Q2Settings
    private let saved = Locked<PasswordCredential?>(nil)
    private let service = Locked<WeakService>(WeakService())
    private let world: SimulatedWorld
    private let deviceQueue: DispatchQueue
    /// The platform and the module's executor, made at the first Q2 sign-in: every device makes every family, and
    /// one that never signs in to Q2 (idp-bench's, most of the terminal's) made a queue and a platform for nothing.
    private let made = Locked<Made?>(nil)

    private struct Made {
        let platform: SimulatedQ2Platform
        let executor: DispatchTaskExecutor
    }

    public init(world: SimulatedWorld, deviceQueue: DispatchQueue, settings: Q2Settings = Q2Settings()) {
        self.settings = settings
        self.world = world
        self.deviceQueue = deviceQueue
    }

    /// The Q2 platform the app's authentication module is loaded into.
    public var platform: SimulatedQ2Platform { parts.platform }
    /// Where the Q2 module's async calls run (labelled `Q2 SDK` in the log), on the device's queue.
    var executor: DispatchTaskExecutor { parts.executor }

    private var parts: Made {
        made.withLock { made in
            if let made { return made }
            let service = service
            // The platform, built once as the app's is: its security module's answers go to the log of the flow
            // that asked.
            let security = ReportingSecurityModule(
                SimulatedSecurityModule(faults: world.faults, reason: settings.insecureDeviceReason)
            ) { decision in
                guard let run = service.withLock({ $0.service })?.runningFlow else { return }
                Self.report(decision, in: run)
            }
            let parts = Made(
                platform: SimulatedQ2Platform(world: world, launch: settings.launch, security: security),
                executor: DispatchTaskExecutor(queue: QueueName.makeSerialQueue("Q2 SDK", target: deviceQueue)))
            made = parts
            return parts
        }
    }

    public static let kinds: [FlowKind] = [.q2Login]

    public func run(_ run: FlowRun) async -> FlowResult? { await Q2Flow(run: run, family: self).run() }

    /// The network's faults (Core's logon crosses it), Core's server error and the security module's insecure
    /// device; not the IdP's pages, its certificate, the MC-SDK or 3-D Secure, which a Q2 sign-in never reaches.
    public static func faultKeys(reaching kind: FlowKind) -> [String] { reachingKeys }

    private static let reachingKeys = (IdentityFaults.Fault.network + [.serverError, .insecureDevice]).map(\.key)

    /// A sign-in's own line onto the world's network: a cancel abandons its request to Core, and only its.
    func signInLine() -> SimulatedNetwork {
        let line = world.network.line()
        // The request as it leaves, before the latency and faults it meets; Core's answer when it comes.
        line.onSending { [weak self] request in self?.requestSent(request) }
        return line
    }

    /// Core's logon requests and answers appear in the running flow's log.
    /// `--insecure-device` (``Q2Settings/insecureDeviceReason``) is the insecure-device fault held on, its reason
    /// what the security module says: the MC-SDK's integrity check fails on the same rooted device (the faults panel
    /// showed the switch on while the IdpSdk flows ran as on a sound device).
    public func attach(to service: FlowService) {
        self.service.withLock { $0 = WeakService(service: service) }
        world.q2Core.observe { [weak self] userId, response in self?.coreAnswered(userId, response) }
        if settings.insecureDeviceReason != nil { service.world.updateFaults { identity, _ in identity.insecureDevice = true } }
    }

    /// What ends a denial `--insecure-device` made, in Q2's advice and the MC-SDK's alike.
    static let heldAdvice = "--insecure-device holds for this session; run without it"

    /// `--insecure-device` holds the insecure-device switch on, under its reason.
    public var heldFaults: [HeldFault] {
        guard let reason = settings.insecureDeviceReason else { return [] }
        return [HeldFault(
            key: IdentityFaults.Fault.insecureDevice.key, label: "insecure device: \(VisibleText.escaped(reason)) (--insecure-device)",
            notice: "on for this session: --insecure-device \"\(VisibleText.escaped(reason))\" was given",
            heldBy: "--insecure-device holds the device insecure", advice: Self.heldAdvice)]
    }

    /// The Q2 credential the last successful Q2 login saved: in this process's memory only, never on disk.
    public internal(set) var savedCredential: PasswordCredential? {
        get { saved.withLock { $0 } }
        set { saved.withLock { $0 = newValue } }
    }

    /// `shouldAllowAutoLogin()`, called as the module calls it: on the main actor. Front ends call this from
    /// their main thread when the sign-in screen comes up.
    @MainActor
    public func allowsAutoLogin() -> Bool {
        platform.context.shouldAllowAutoLogin()
    }

    public func advice(for kind: FlowKind, status: String, error: FlowError?, step: FlowStep?) -> String? {
        let code = error?.code
        return switch status {
        case Q2Status.invalidCredentials where code == HydraCode.lockedOut: LockoutPolicy.advice(reportedBy: error?.message)
        case Q2Status.invalidCredentials: "Check the user id and password; Core locks the user after too many wrong attempts in a row."
        // The status stands for both no connectivity and a request that timed out; the faults on say which.
        case Q2Status.networkUnavailable where world.identityFaults.networkUnavailable:
            "Bring the network back (the network-unavailable fault), then sign in again."
        case Q2Status.networkUnavailable:
            world.network.slowness()?.advice(gaveUp: "the request gives up after \(world.network.requestTimeout.secondsText)", then: "sign in again")
                ?? "The device could not reach Core: check the network."
        case Q2Status.genericError where code == HydraCode.missingField: "Give both a user id and a password: Core refuses an empty one."
        case Q2Status.genericError: "Core failed: try again later (or turn the server-error fault off)."
        // The option holds for the session; the fault is the panel's (or the answers') to switch off.
        case Q2Status.insecure where settings.insecureDeviceReason != nil:
            "The security module blocks logins on this device: \(Self.heldAdvice)."
        case Q2Status.insecure:
            "The security module blocks logins on this device: use a secure device (or turn the insecure-device fault off)."
        case Q2Status.noSavedCredential: "Sign in with a username and password first; a successful login saves the credential."
        default: nil
        }
    }

    /// Says in `run`'s log that the request a cancel abandoned on its way never reached Core.
    func abandoned(_ requests: [AbandonedRequest], in run: FlowRun) {
        for abandoned in requests {
            run.emit(FlowStep(abandoned.request.name), from: .q2Module, to: .q2Module, thread: abandoned.sentOn, status: EngineStatus.abandoned,
                     detail: "abandoned on its way by the cancel: Q2 Core never got it, so it counts for nothing (no failed attempt)")
        }
    }

    private func requestSent(_ request: NetworkRequest) {
        guard let run = service.withLock({ $0.service })?.runningFlow else { return }
        run.emit(FlowStep(request.name), from: .q2Module, to: .q2Core, detail: request.detail)
    }

    private func coreAnswered(_ userId: String, _ response: LogonResponse) {
        guard let run = service.withLock({ $0.service })?.runningFlow else { return }
        let step = FlowStep(Q2CoreServer.logonRequest(userId: userId).name)
        let hydra = response.hydraCode.map { ", hydraCode \($0)" } ?? ""
        let token = response.q2token == nil ? "" : ", q2token header"
        run.emit(step, from: .q2Core, to: .q2Module, status: String(response.status), detail: "\(response.message)\(hydra)\(token)")
    }

    /// The module's call to the security module, and its answer (nil: the call), in the flow's log (the module
    /// asks it before any password leaves).
    private static func report(_ decision: SecurityResult?, in run: FlowRun) {
        switch decision {
        case nil: run.emit(.allowLogin, from: .q2Module, to: .securityModule, detail: "allowLogin()")
        case .allow: run.emit(.allowLogin, from: .securityModule, to: .q2Module, status: "allow", detail: "the device passes the checks")
        case .deny(let reason): run.emit(.allowLogin, from: .securityModule, to: .q2Module, status: "deny", detail: reason)
        }
    }
}

/// A service, held weakly by the family that observes into its log.
struct WeakService: Sendable {
    weak var service: FlowService?
}

extension FlowConfiguration {
    /// How the app launches the Q2 module.
    public var q2: Q2Settings {
        get { self[Q2Settings.self] }
        set { self[Q2Settings.self] = newValue }
    }
}
