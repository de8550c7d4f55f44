// The Q2 quick start's module in a target with main-actor default isolation (Package.swift), with the two edits
// docs/sdk-usage.md gives: the class `nonisolated`, its override `@MainActor`. The page's other code, linked from
// Q2CustomAuth, compiles unchanged.
import Q2ModuleInterfaces

nonisolated public class CustomAuthModule: Q2ModuleBase {
    @MainActor public override func viewControllerForPlatformAuthentication(
        with context: AuthenticationModuleContext
    ) async throws -> UIViewController? {
        // passwordAuthentication is always provided by Core.
        let passwordAuth = context.passwordAuthentication
        return MyLoginViewController(passwordAuth: passwordAuth, delegate: moduleDelegate)
    }
}
