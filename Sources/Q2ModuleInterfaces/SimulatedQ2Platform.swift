import IdpTuiWorld
import Threading

/// How the app was opened, which decides what the platform tells the sign-in screen (idp-tui's).
public enum Q2Launch: String, Sendable, CaseIterable, Codable {
    case normal
    /// From a deep link while logged out: a banner asks the user to sign in.
    case deepLink = "deep-link"
    /// From a push notification: no auto-login, so the user sees the notification's content.
    case push

    /// The banner the platform asks the module to show.
    public var banner: String? { self == .deepLink ? "Please sign in to continue" : nil }
}

/// The Q2 app's platform as the simulation runs it (idp-tui's): it gives authentication modules their context,
/// with Core's `passwordAuthentication` on the simulated Core of ``SimulatedWorld/current``, and is the
/// ``ModuleDelegate`` that takes the signed-in session.
///
/// ```swift
/// let platform = SimulatedQ2Platform()
/// let module = CustomAuthModule()
/// platform.load(module)
/// let screen = try await module.viewControllerForPlatformAuthentication(with: platform.context)
/// ```
public final class SimulatedQ2Platform: ModuleDelegate, Sendable {
    public let context: AuthenticationModuleContext
    private let signedIn = Locked<AuthenticationModuleResponse?>(nil)

    /// A platform on the current world's Core, opened as `launch` says. Core asks `security` before each password
    /// login: the app's own security module, or by default the simulation's (which denies while the
    /// insecure-device fault is on).
    public convenience init(launch: Q2Launch = .normal, security: (any SecurityModule)? = nil) {
        let world = SimulatedWorld.current
        self.init(world: world, launch: launch, security: security ?? SimulatedSecurityModule(faults: world.faults))
    }

    package init(world: SimulatedWorld, launch: Q2Launch, security: any SecurityModule) {
        context = AuthenticationModuleContext(
            presentWithLocalizedErrorMessage: launch.banner, shouldAllowAutoLogin: { launch != .push },
            passwordAuthentication: CorePasswordAuthentication(core: world.q2Core, security: security))
    }

    /// Loads a module: sets its ``Q2ModuleBase/moduleDelegate`` to this platform.
    public func load(_ module: Q2ModuleBase) {
        module.moduleDelegate = self
    }

    /// The session the last `completePlatformAuthentication(with:)` set up, or nil before any.
    public var session: AuthenticationModuleResponse? { signedIn.withLock { $0 } }

    /// Takes the module's response as the signed-in session. A response without a `q2token` has no session to
    /// set up: it throws `MobileCoreLoginFailure.genericError`.
    public func completePlatformAuthentication(with response: AuthenticationModuleResponse) async throws {
        guard response.q2token != nil else {
            throw MobileCoreLoginFailure.genericError(
                error: CoreError(message: "the response carries no q2token: there is no session to set up"), statusCode: nil, hydraCode: nil)
        }
        signedIn.withLock { $0 = response }
    }
}
