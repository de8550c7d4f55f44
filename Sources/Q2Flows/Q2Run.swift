import Dispatch
import FlowEngine
import FlowRecords
import IdentityProvider
import IdpTuiWorld
import JSONText
import Q2Core
import Q2ModuleInterfaces
import Secrets
import Threading

/// What a Q2 login ended in, for results and screens.
public struct Q2Outcome: FlowResultDetail, Equatable, Encodable {
    public let username: String?
    /// `MobileCoreLoginFailure`'s case, when the login failed.
    public let failure: String?
    public let statusCode: Int?
    public let hydraCode: Int?
    public let authenticationMethod: String?
    /// Signed in with the saved credential.
    public let autoLogin: Bool
    public let launch: Q2Launch
    /// The user data's top-level keys (never the values of a token).
    public let userDataKeys: [String]?

    /// The history lists who signed in, as it does for the IdpSdk's logins.
    public var historyUser: String? { username }

    public func encode(to container: inout KeyedEncodingContainer<FlowResult.Key>) throws {
        try container.encode(self, forKey: .init("q2"))
    }
}

extension FlowResult {
    /// For a Q2 login: the module's outcome.
    public var q2: Q2Outcome? {
        get { detail(Q2Outcome.self) }
        set { if let newValue { set(newValue) } else { details.removeAll { $0 is Q2Outcome } } }
    }
}

/// The statuses of a Q2 login's result: `OK`, or the `MobileCoreLoginFailure` case in capitals (ours).
public enum Q2Status {
    public static let invalidCredentials = "INVALID_CREDENTIALS"
    public static let networkUnavailable = "NETWORK_UNAVAILABLE"
    public static let genericError = "GENERIC_ERROR"
    public static let insecure = "INSECURE"
    public static let noSavedCredential = "NO_SAVED_CREDENTIAL"
}

/// idp-tui's own authentication module, written as the Q2 quick start's: its sign-in screen logs in with Core's
/// `passwordAuthentication` and hands the session to the platform through `moduleDelegate`.
final class SignInModule: Q2ModuleBase {
    override func viewControllerForPlatformAuthentication(with context: AuthenticationModuleContext) async throws -> ModuleViewController? {
        SignInViewController(passwordAuth: context.passwordAuthentication, delegate: moduleDelegate)
    }
}

/// The module's sign-in screen (the terminal's form stands for it): `login(username:password:)` as the quick
/// start writes it, returning what happened instead of handling it.
final class SignInViewController: ModuleViewController {
    private let passwordAuth: any PasswordAuthentication
    private let moduleDelegate: ModuleDelegate

    init(passwordAuth: any PasswordAuthentication, delegate: ModuleDelegate) {
        self.passwordAuth = passwordAuth
        moduleDelegate = delegate
        super.init(nibName: nil, bundle: nil)
    }

    func login(_ credential: PasswordCredential) async -> Result<PasswordAuthenticationResult, MobileCoreLoginFailure> {
        do {
            let result = try await passwordAuth.authenticate(using: credential)
            let response = result.asAuthenticationModuleResponse()
            try await moduleDelegate.completePlatformAuthentication(with: response)
            return .success(result)
        } catch let error as MobileCoreLoginFailure {
            return .failure(error)
        } catch {
            return .failure(.genericError(error: error, statusCode: nil, hydraCode: nil))
        }
    }
}

/// A security module that reports the module's call and its answer in the flow's log: the call before it is
/// answered, so that the insecure-device fault's ⚡ comes between them (it came before the call).
final class ReportingSecurityModule: SecurityModule {
    private let inner: any SecurityModule
    /// nil: the call, as it is made; then its answer.
    private let report: @Sendable (SecurityResult?) -> Void

    init(_ inner: any SecurityModule, report: @escaping @Sendable (SecurityResult?) -> Void) {
        self.inner = inner
        self.report = report
    }

    func allowLogin() -> SecurityResult {
        report(nil)
        let result = inner.allowLogin()
        report(result)
        return result
    }
}

/// The Q2 module's sign-in, as one flow.
struct Q2Flow {
    let run: FlowRun
    let family: Q2Family

    func run() async -> FlowResult? {
        let launch = family.settings.launch
        var saved = family.savedCredential
        keepQ2OnCancel(username: nil, autoLogin: false)
        run.emit(.signInScreen, from: .q2Module, to: .app,
             detail: "launch=\(launch.rawValue)" + (launch.banner.map { ", banner \"\($0)\"" } ?? "")
                + (saved.map { ", saved credential for \($0.username)" } ?? ""))
        // Decided as the screen shows, and logged then: it was logged only once the password was given, and never
        // for a sign-in cancelled at the screen.
        if let saved, launch == .push {
            run.emit(.signInScreen, from: .q2Module, to: .app, status: "no auto-login",
                 detail: "shouldAllowAutoLogin() is false (opened from a push notification): the saved credential for \(saved.username) is not used")
        }
        var (resolution, waited) = await run.ask(Q2SignIn(banner: launch.banner, savedUsername: saved?.username, launch: launch))
        // "Welcome back, alice — not you?": the user sets the saved credential aside, and the screen asks again, empty.
        var forgotten: String?
        if case .answered(let answer) = resolution, let choice = answer.value(as: Q2AccountChoice.self), let user = saved?.username {
            setAside(choice, for: user, waited: waited)
            if choice == .forgetSavedCredential { forgotten = user }
            saved = nil
            (resolution, waited) = await run.ask(Q2SignIn(banner: launch.banner, savedUsername: nil, launch: launch,
                                                          setAside: Q2SetAside(choice, username: user)))
        }
        let credential: PasswordCredential
        var autoLogin = false
        switch resolution {
        case .answered(let answer) where answer.value(as: Q2AutoLogin.self) != nil:
            guard let saved else {
                return q2Result(.failure, status: Q2Status.noSavedCredential, message: "there is no saved credential to sign in with",
                                username: nil, autoLogin: true)
            }
            run.emit(.signInScreen, from: .app, to: .q2Module, duration: waited, status: "auto-login",
                 detail: "shouldAllowAutoLogin() is true: signing in with the saved credential for \(saved.username)")
            credential = saved
            autoLogin = true
            run.actsFor(user: saved.username)
            keepQ2OnCancel(username: saved.username, autoLogin: true)
        case .answered(let answer) where answer.value(as: Credentials.self) != nil:
            let values = answer.value(as: Credentials.self)?.values ?? [:]
            // An empty username or password goes to Core like any other, which answers 400 / 1010 (docs/q2.md).
            guard let username = values["username"]?.reveal(), let password = values["password"] else {
                return q2Result(.failure, status: Q2Status.invalidCredentials, message: "the sign-in screen needs a username and a password",
                                username: nil, autoLogin: false)
            }
            run.emit(.signInScreen, from: .app, to: .q2Module, duration: waited, status: "answered", detail: (username.isEmpty ? "empty username" : "username \(username)") + (password.isEmpty ? ", empty password" : ", password"))
            // The vendor's credential holds the password as a String: the typed secret becomes one here, at the
            // module's API, and a secret again inside Core's login.
            credential = PasswordCredential(username: username, password: password.reveal())
            if !username.isEmpty { run.actsFor(user: username) }
            keepQ2OnCancel(username: username.isEmpty ? nil : username, autoLogin: false)
        case .timedOut:
            run.emit(.signInScreen, from: .app, to: .q2Module, duration: waited, status: EngineStatus.promptTimeout,
                 detail: "the sign-in screen was not answered within \((run.service.promptTimeout ?? .zero).secondsText)")
            return Self.saying(forgotten, in: q2Result(
                .failure, status: EngineStatus.promptTimeout, message: "the sign-in screen was not answered in time", username: nil, autoLogin: false))
        default:
            let reason = resolution.cancelReason ?? .user
            run.emit(.signInScreen, from: .app, to: .q2Module, duration: waited, status: reason.status, detail: "sign-in \(reason.verb)")
            return Self.saying(forgotten, in: run.cancelledResult(at: .signInScreen, inFlight: false, atPrompt: true))
        }

        // The app's custom auth module calls the SDK's PasswordAuthentication (the Q2 guide's quick start).
        run.emit(.authenticate, from: .app, to: .q2Module, detail: "passwordAuthentication.authenticate(using: \(credential))")
        let platform = family.platform
        let started = run.clock.now
        let executor = family.executor
        // A cancel abandons the request to Core if it is still on its way: never delivered, never counted (the log
        // says so). The line is this sign-in's alone and goes with its task, so that a cancelled sign-in still
        // running cannot send over the next one's.
        let line = family.signInLine()
        let pending = run.clock.pendingWork
        guard let outcome = await run.call({ .authenticate }, atCancel: { [family, run] in family.abandoned(line.abandonWaits(), in: run) }, { deliver in
            executor.startTask(counting: pending) {
                await SimulatedNetwork.$taskLine.withValue(line) {
                    // The platform loads the module and asks it for its sign-in screen; the screen logs in.
                    let module = SignInModule()
                    platform.load(module)
                    guard let screen = try? await module.viewControllerForPlatformAuthentication(with: platform.context) as? SignInViewController
                    else { preconditionFailure("idp-tui's module always returns its sign-in screen") }
                    deliver(await screen.login(credential))
                }
            }
        }) else { return nil }
        let took = started.duration(to: run.clock.now)
        switch outcome {
        case .success(let result):
            run.emit(.authenticate, from: .q2Module, to: .app, duration: took, status: String(result.statusCode),
                 detail: "\(result) with user data \(result.userDataJSON.map { $0.keys.sorted().joined(separator: ", ") } ?? "none")")
            run.emit(.completePlatformAuthentication, from: .app, to: .q2Module, status: "OK",
                 detail: "\(platform.session.map { "\($0)" } ?? "no session")")
            family.savedCredential = credential
            var done = signInResult(.success, status: "OK", error: nil)
            done.q2 = Q2Outcome(username: result.username, failure: nil, statusCode: result.statusCode, hydraCode: nil,
                                authenticationMethod: result.authenticationMethod.rawValue, autoLogin: autoLogin, launch: launch,
                                userDataKeys: result.userDataJSON.map { $0.keys.sorted() })
            return done
        case .failure(let failure):
            run.emit(.authenticate, from: .q2Module, to: .app, duration: took, status: failure.caseName,
                 detail: "MobileCoreLoginFailure.\(Self.shape(of: failure)): \(failure.message)")
            let status = switch failure {
            case .invalidCredentials: Q2Status.invalidCredentials
            case .networkUnavailable: Q2Status.networkUnavailable
            case .genericError: Q2Status.genericError
            case .insecure: Q2Status.insecure
            }
            // Q2 has no subsystems: the error's code is Core's hydraCode; the HTTP status is the q2 object's statusCode.
            var done = signInResult(.failure, status: status, error: FlowError(subsystem: nil, code: failure.hydraCode, message: failure.message))
            done.q2 = Q2Outcome(username: credential.username.isEmpty ? nil : credential.username, failure: failure.caseName, statusCode: failure.statusCode,
                                hydraCode: failure.hydraCode, authenticationMethod: nil, autoLogin: autoLogin, launch: launch,
                                userDataKeys: nil)
            return done
        }
    }

    /// The case with its associated values, as the app's `catch` matches it (`invalidCredentials(error: …,
    /// statusCode: 423, hydraCode: 1003)`): the log named the case alone, and an engineer learning the API could
    /// not see the values to match on (a Q2 tester). The error's text follows the shape, not in it.
    static func shape(of failure: MobileCoreLoginFailure) -> String {
        func code(_ value: Int?) -> String { value.map(String.init) ?? "nil" }
        func error(_ error: (any Error)?) -> String { error == nil ? "nil" : "…" }
        return switch failure {
        case .invalidCredentials(let given, let status, let hydra):
            "invalidCredentials(error: \(error(given)), statusCode: \(status), hydraCode: \(code(hydra)))"
        case .networkUnavailable(let given): "networkUnavailable(error: \(error(given)))"
        case .genericError(let given, let status, let hydra):
            "genericError(error: \(error(given)), statusCode: \(code(status)), hydraCode: \(code(hydra)))"
        case .insecure(let reason): "insecure(reason: \"\(VisibleText.escaped(reason))\")"
        }
    }

    /// The app's answer at the sign-in screen when the user did not sign in with the saved credential: in the log
    /// (never the password), and a forgotten credential cleared.
    private func setAside(_ choice: Q2AccountChoice, for user: String, waited: Duration) {
        switch choice {
        case .anotherAccount:
            run.emit(.signInScreen, from: .app, to: .q2Module, duration: waited, status: "another account",
                 detail: "the user chose another account: the saved credential for \(user) is kept, not used")
        case .forgetSavedCredential:
            family.savedCredential = nil
            run.emit(.signInScreen, from: .app, to: .q2Module, duration: waited, status: "credential forgotten",
                 detail: "the user chose to forget the saved credential for \(user): cleared from memory")
        }
    }

    /// `result`, its advice saying that the saved credential was forgotten in this flow, where one was: an end at the
    /// screen asked again (a cancel, a timeout) does not undo it, and only the log said it.
    private static func saying(_ forgotten: String?, in result: FlowResult) -> FlowResult {
        guard let forgotten else { return result }
        let note = "The saved credential for \(forgotten) was forgotten in this flow: the next sign-in asks for a password."
        return FlowResult(
            flowID: result.flowID, flow: result.flow, outcome: result.outcome, status: result.status, failedStep: result.failedStep,
            error: result.error, duration: result.duration, advice: [result.advice, note].compactMap { $0 }.joined(separator: " "),
            details: result.details)
    }

    /// A cancelled sign-in's result carries the `q2` object too, as every other Q2 result does (the launch, and the
    /// user once known): a script reads the launch mode on every result. Set again as the sign-in learns more.
    private func keepQ2OnCancel(username: String?, autoLogin: Bool) {
        let q2 = Q2Outcome(username: username, failure: nil, statusCode: nil, hydraCode: nil, authenticationMethod: nil,
                           autoLogin: autoLogin, launch: family.settings.launch, userDataKeys: nil)
        run.reviseCancelledResult { result in
            var revised = result
            revised.q2 = q2
            return revised
        }
    }

    /// The security module's answer, in this flow's log (the module asks it before any password leaves).
    private func signInResult(_ outcome: FlowOutcome, status: String, error: FlowError?) -> FlowResult {
        run.result(outcome, status: status, step: outcome == .success ? nil : .authenticate, error: error)
    }

    private func q2Result(_ outcome: FlowOutcome, status: String, message: String, username: String?, autoLogin: Bool) -> FlowResult {
        var done = run.result(outcome, status: status, step: .signInScreen, error: FlowError(subsystem: nil, code: nil, message: message))
        done.q2 = Q2Outcome(username: username, failure: nil, statusCode: nil, hydraCode: nil, authenticationMethod: nil,
                            autoLogin: autoLogin, launch: family.settings.launch, userDataKeys: nil)
        return done
    }
}
