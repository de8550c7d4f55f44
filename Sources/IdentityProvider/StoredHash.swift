import Crypto
import Determinism
import Secrets

/// A salted PBKDF2 hash, the only form in which the IdP keeps passwords and activation codes.
public struct StoredHash: Sendable {
    let salt: [UInt8]
    let hash: [UInt8]
    let iterations: Int

    public init(of secret: Secret, iterations: Int, random: RandomSource) {
        let salt = random.bytes(16)
        self.salt = salt
        self.iterations = iterations
        hash = secret.withUnsafeBytes { PBKDF2.sha256(password: $0, salt: salt, iterations: iterations) }
    }

    public func matches(_ candidate: Secret) -> Bool {
        var computed = candidate.withUnsafeBytes { PBKDF2.sha256(password: $0, salt: salt, iterations: iterations) }
        defer { SecureMemory.wipe(&computed) }
        return ConstantTime.equals(computed, hash)
    }
}
