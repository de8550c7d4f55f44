import Crypto
import Secrets

/// What `shouldHashPin` does to a password before it leaves the SDK: PBKDF2-HMAC-SHA-256 over the password,
/// salted with the tenant and the user name, sent as lower-case hex. The real SDK's scheme is not public;
/// this one is the simulator's own (docs/sdk-names.md).
public enum PinHashing {
    public static let iterations = 10_000

    public static func hash(_ password: Secret, tenantId: String, username: String) -> Secret {
        let salt = Array("idp-tui/pin/\(tenantId)/\(username)".utf8)
        var derived = password.withUnsafeBytes { bytes in
            PBKDF2.sha256(password: bytes, salt: salt, iterations: iterations)
        }
        // Straight into bytes the secret takes (and wipes): a hex `String` would be a copy of the credential left unwiped.
        var hex = Hex.encodedBytes(derived)
        SecureMemory.wipe(&derived)
        return Secret(consuming: &hex)
    }
}
