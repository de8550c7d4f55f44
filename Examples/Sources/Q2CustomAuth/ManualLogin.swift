// The Q2 page's "Migration from manual HTTP requests": both halves, as printed. Compiled, not run: the "before"
// half posts to a real Core over HTTP, which the simulation does not serve.
import Foundation
import Q2ModuleInterfaces
#if canImport(FoundationNetworking)
    import FoundationNetworking  // Platform edit: URLSession lives here on Linux.
#endif

extension MyLoginViewController {
    /// Added: the Core the "before" code posts to.
    var baseURL: String { "https://online.bank.example" }

    func loginByHand(username: String, password: String) async throws {
        // Before: constructing the request by hand
        var request = URLRequest(url: URL(string: "\(baseURL)/mobilews/logonUser")!)
        request.httpMethod = "POST"
        request.httpBody = try? JSONSerialization.data(withJSONObject: [
            "userId": username, "password": password,
        ])
        let (data, response) = try await URLSession.shared.data(for: request)
        // ...parse status code, q2token header, and response body by hand
        _ = (data, response)  // Added: the page leaves the parsing out.
    }

    func loginWithPasswordAuthentication(username: String, password: String) async throws {
        // After: PasswordAuthentication
        let credential = PasswordCredential(username: username, password: password)
        let result = try await passwordAuth.authenticate(using: credential)
        let response = result.asAuthenticationModuleResponse()
        try await moduleDelegate.completePlatformAuthentication(with: response)
    }
}
