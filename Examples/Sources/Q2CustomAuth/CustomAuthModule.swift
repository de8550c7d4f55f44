// The Q2 Mobile SDK's Authentication Module page: "Quick Start" and "Authenticating", as printed.
import Q2ModuleInterfaces

public class CustomAuthModule: Q2ModuleBase {
    // Platform edit: UIKit's `UIViewController` is `ModuleViewController` here (there is no UIKit on Linux).
    public override func viewControllerForPlatformAuthentication(
        with context: AuthenticationModuleContext
    ) async throws -> ModuleViewController? {
        // passwordAuthentication is always provided by Core.
        let passwordAuth = context.passwordAuthentication
        return MyLoginViewController(passwordAuth: passwordAuth, delegate: moduleDelegate)
    }
}
