import Foundation

/// What the platform gives an authentication module when it asks for its sign-in screen.
public struct AuthenticationModuleContext: Sendable {
    /// A banner for the sign-in screen, set when the user comes from a deep link while logged out ("Please sign
    /// in to continue").
    public var presentWithLocalizedErrorMessage: String?
    /// Check before any biometric or saved-credential auto-login: false when the app was opened from a push
    /// notification.
    public var shouldAllowAutoLogin: @MainActor () -> Bool
    /// Core's username/password login; always provided.
    public var passwordAuthentication: any PasswordAuthentication

    public init(presentWithLocalizedErrorMessage: String?, shouldAllowAutoLogin: @escaping @MainActor () -> Bool,
                passwordAuthentication: any PasswordAuthentication) {
        self.presentWithLocalizedErrorMessage = presentWithLocalizedErrorMessage
        self.shouldAllowAutoLogin = shouldAllowAutoLogin
        self.passwordAuthentication = passwordAuthentication
    }
}

/// The platform's side of a module: an authentication module hands it the signed-in session. `Sendable`: a view
/// controller on the main actor keeps it and calls it.
public protocol ModuleDelegate: AnyObject, Sendable {
    /// Sets up the session the response describes; throws when the platform cannot.
    func completePlatformAuthentication(with response: AuthenticationModuleResponse) async throws
}

/// What a module shows. On iOS this is UIKit's `UIViewController`; on Linux there is no UIKit, so modules return
/// this stand-in (idp-tui's; docs/sdk-names.md), subclassed as a view controller would be — and, as UIKit's, it is
/// `@MainActor`, so that a module's screen written here compiles unchanged against UIKit.
@MainActor
open class ModuleViewController {
    /// UIKit's designated initialiser: a view controller's own initialiser calls `super.init(nibName: nil, bundle:
    /// nil)`, as it does on iOS.
    public init(nibName: String?, bundle: Bundle?) {}

    public convenience init() {
        self.init(nibName: nil, bundle: nil)
    }
}

/// The name the vendor's quick start returns (`-> UIViewController?`, with only `import Q2ModuleInterfaces`, which
/// brings UIKit on iOS): the stand-in, so that the page's module compiles unchanged. Nothing of UIKit's is behind it.
public typealias UIViewController = ModuleViewController

/// A module that replaces the platform's login screen with its own. The platform asks for the screen on the main
/// actor, where view controllers are made (the quick start makes one without `await`).
public protocol AuthenticationModule: AnyObject {
    @MainActor
    func viewControllerForPlatformAuthentication(with context: AuthenticationModuleContext) async throws -> ModuleViewController?
}

/// The base class of Q2 modules: the platform sets ``moduleDelegate`` when it loads the module.
///
/// ```swift
/// public class CustomAuthModule: Q2ModuleBase {
///     public override func viewControllerForPlatformAuthentication(
///         with context: AuthenticationModuleContext
///     ) async throws -> ModuleViewController? {
///         MyLoginViewController(passwordAuth: context.passwordAuthentication, delegate: moduleDelegate)
///     }
/// }
/// ```
open class Q2ModuleBase: AuthenticationModule {
    /// The platform, set when the module is loaded (``SimulatedQ2Platform/load(_:)``).
    open var moduleDelegate: ModuleDelegate!

    public init() {}

    /// An authentication module's sign-in screen; nil (the default) lets the platform show its own.
    @MainActor
    open func viewControllerForPlatformAuthentication(with context: AuthenticationModuleContext) async throws -> ModuleViewController? {
        nil
    }
}
