// The Q2 Mobile SDK's Authentication Module page: "Quick Start" and "Authenticating", as printed.
import Q2ModuleInterfaces

public class CustomAuthModule: Q2ModuleBase {
    public override func viewControllerForPlatformAuthentication(
        with context: AuthenticationModuleContext
    ) async throws -> UIViewController? {
        // passwordAuthentication is always provided by Core.
        let passwordAuth = context.passwordAuthentication
        return MyLoginViewController(passwordAuth: passwordAuth, delegate: moduleDelegate)
    }
}
