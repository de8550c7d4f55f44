// Not from the page: the platform loads the module and shows its sign-in screen, as the Q2 app would; the
// user signs in with what they typed.
import Q2ModuleInterfaces

public enum Q2Example {
    /// Signs in through `CustomAuthModule` on the simulated platform. Returns the user the platform's session
    /// is for, or nil.
    public static func signIn(username: String, password: String) async throws -> String? {
        let platform = SimulatedQ2Platform()
        let module = CustomAuthModule()
        platform.load(module)
        guard let screen = try await module.viewControllerForPlatformAuthentication(with: platform.context) as? MyLoginViewController else {
            print("the module has no sign-in screen")
            return nil
        }
        await screen.login(username: username, password: password)
        if let session = platform.session {
            print("signed in: \(session)")
        }
        return platform.session?.username
    }
}
