import Crypto
import Foundation

/// The certificate chains that ship as resources of this module.
public enum IdentityProviderCertificates {
    /// The IdP's genuine chain (leaf, root) as PEM: what `IdpSdkService` pins by default.
    public static let genuinePEM: String = load("idp-chain")
    /// A chain with the same names under another root, presented when certificate pinning is made to fail.
    public static let impostorPEM: String = load("impostor-chain")

    private static func load(_ name: String) -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "pem"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else {
            preconditionFailure("the resource \(name).pem is missing from the IdentityProvider bundle")
        }
        return text
    }
}
