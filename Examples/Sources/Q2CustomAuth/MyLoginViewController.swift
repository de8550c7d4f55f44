// The Q2 Mobile SDK's Authentication Module page: "Authenticating", as printed.
import Q2ModuleInterfaces

/// Added: the page's `MyLoginViewController`, which it leaves to the module, written as a UIKit view controller is
/// (`UIViewController` is idp-tui's stand-in, `ModuleViewController`).
final class MyLoginViewController: UIViewController {
    let passwordAuth: any PasswordAuthentication
    let moduleDelegate: ModuleDelegate

    init(passwordAuth: any PasswordAuthentication, delegate: ModuleDelegate) {
        self.passwordAuth = passwordAuth
        moduleDelegate = delegate
        super.init(nibName: nil, bundle: nil)
    }

    func login(username: String, password: String) async {
        let credential = PasswordCredential(username: username, password: password)

        do {
            let result = try await passwordAuth.authenticate(using: credential)
            let response = result.asAuthenticationModuleResponse()
            try await moduleDelegate.completePlatformAuthentication(with: response)
        } catch let error as MobileCoreLoginFailure {
            handle(error)
        } catch {
            // Page: its `login` catches only `MobileCoreLoginFailure`, so the function does not compile (the catch
            // is not exhaustive, and the function does not throw); anything else ends here.
            print("login failed: \(error)")
        }
    }

    /// Added: the page's `handle(_:)`, which it leaves to the module.
    func handle(_ error: MobileCoreLoginFailure) {
        print("MobileCoreLoginFailure.\(error.caseName): \(error.message)")
    }
}
