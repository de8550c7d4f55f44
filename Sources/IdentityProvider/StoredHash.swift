import Crypto
import Determinism
import Secrets
import Threading

/// A salted PBKDF2 hash, the only form in which the IdP keeps passwords and activation codes.
///
/// The hash is computed when it is first compared, not when the scenario is loaded: a scenario of 10,000 users
/// starts as fast as one of two, and only the users who log in pay for their hash. The salt is given, or drawn at
/// once, so that the random stream, and every value drawn after it, do not depend on which users are used. Until
/// then it holds the secret it was made from, as the scenario does.
public struct StoredHash: Sendable {
    let iterations: Int
    private let digest: Digest

    public init(of secret: Secret, iterations: Int, random: RandomSource) {
        self.init(deferred: { secret }, iterations: iterations, random: random)
    }

    /// `secret` runs once, at the first comparison (for a secret that is itself expensive to make, such as a
    /// hashed PIN).
    public init(deferred secret: @escaping @Sendable () -> Secret, iterations: Int, random: RandomSource) {
        let salt = random.bytes(16)
        self.init(deferred: secret, iterations: iterations, salt: { salt })
    }

    public init(of secret: Secret, iterations: Int, salt: [UInt8]) {
        self.init(deferred: { secret }, iterations: iterations, salt: { salt })
    }

    /// `salt` runs once too, at the first comparison, for a salt derived rather than drawn (the IdP's: a tenant of
    /// 1,000 users pays at its first login for the one user who logs in, not for every user's salts).
    public init(deferred secret: @escaping @Sendable () -> Secret, iterations: Int, salt: @escaping @Sendable () -> [UInt8]) {
        self.iterations = iterations
        digest = Digest(secret, salt: salt)
    }

    public func matches(_ candidate: Secret) -> Bool {
        let (salt, stored) = digest.value(iterations: iterations)
        var computed = candidate.withUnsafeBytes { PBKDF2.sha256(password: $0, salt: salt, iterations: iterations) }
        defer { SecureMemory.wipe(&computed) }
        return ConstantTime.equals(computed, stored)
    }

    /// Computes the hash now if it is not yet (idp-bench: flows timed without their users' first-use hashing).
    package func compute() { _ = digest.value(iterations: iterations) }

    /// Whether the hash has been computed (tests: nothing is hashed before it is needed).
    public var isComputed: Bool { digest.isComputed }

    private final class Digest: Sendable {
        private enum State: Sendable {
            case pending(secret: @Sendable () -> Secret, salt: @Sendable () -> [UInt8])
            case computed(salt: [UInt8], hash: [UInt8])
        }

        private let state: Locked<State>

        init(_ secret: @escaping @Sendable () -> Secret, salt: @escaping @Sendable () -> [UInt8]) {
            state = Locked(.pending(secret: secret, salt: salt))
        }

        var isComputed: Bool {
            state.withLock { if case .computed = $0 { true } else { false } }
        }

        func value(iterations: Int) -> (salt: [UInt8], hash: [UInt8]) {
            state.withLock { state in
                switch state {
                case .computed(let salt, let hash):
                    return (salt, hash)
                case .pending(let secret, let makeSalt):
                    let salt = makeSalt()
                    let hash = secret().withUnsafeBytes { PBKDF2.sha256(password: $0, salt: salt, iterations: iterations) }
                    state = .computed(salt: salt, hash: hash)
                    return (salt, hash)
                }
            }
        }
    }
}
