import CLibCrypto

/// libcrypto's SHA-256, HMAC-SHA-256 and PBKDF2-HMAC-SHA-256, fetched from the default provider once.
///
/// OpenSSL 3 looks an algorithm up by name on every one-shot call (`EVP_sha256()` in `EVP_Digest`, `HMAC()`,
/// `PKCS5_PBKDF2_HMAC`); the look-up cost more than the hashing of the short messages the flows sign. The HMAC
/// context here is a template with the digest already set: each call works on its own duplicate, so the
/// template is only read and can be shared between threads. (OpenSSL 3.0's PBKDF2 cannot duplicate a context:
/// each derivation gets a new one from the fetched algorithm.)
final class Algorithms: @unchecked Sendable {
    static let shared = Algorithms()
    private static let digestName = Array("SHA2-256".utf8CString)

    /// EVP_MD for SHA-256.
    let sha256: OpaquePointer
    /// EVP_MAC_CTX for HMAC with SHA-256, no key yet.
    private let hmacTemplate: OpaquePointer
    /// EVP_KDF for PBKDF2.
    private let pbkdf2Algorithm: OpaquePointer

    private init() {
        guard let sha256 = EVP_MD_fetch(nil, "SHA2-256", nil), let mac = EVP_MAC_fetch(nil, "HMAC", nil),
            let kdf = EVP_KDF_fetch(nil, "PBKDF2", nil), let hmac = EVP_MAC_CTX_new(mac)
        else { fatalError("libcrypto has no SHA-256, HMAC or PBKDF2: the default provider is missing") }
        EVP_MAC_free(mac)
        let ok = Self.digestName.withUnsafeBufferPointer { name in
            var parameters = [OSSL_PARAM_construct_utf8_string(Self.key("digest"), UnsafeMutablePointer(mutating: name.baseAddress), 0),
                              OSSL_PARAM_construct_end()]
            return EVP_MAC_CTX_set_params(hmac, &parameters) == 1
        }
        precondition(ok, "libcrypto refused SHA-256 for HMAC")
        self.sha256 = sha256
        hmacTemplate = hmac
        pbkdf2Algorithm = kdf
    }

    /// A context keyed with `key`, ready for a message: a template for ``hmac(keyed:message:into:)``.
    func hmacContext(key: UnsafeRawBufferPointer) -> OpaquePointer {
        guard let context = EVP_MAC_CTX_dup(hmacTemplate) else { fatalError("libcrypto is out of memory") }
        var empty: UInt8 = 0
        let ok = withUnsafeMutablePointer(to: &empty) { empty in
            EVP_MAC_init(context, key.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(empty), key.count, nil) == 1
        }
        precondition(ok, "HMAC(SHA-256) failed: libcrypto is broken")
        return context
    }

    func freeHMACContext(_ context: OpaquePointer) { EVP_MAC_CTX_free(context) }

    /// HMAC-SHA-256 of `message` under the key of `keyed` (from ``hmacContext(key:)``, only read), into `output`.
    func hmac(keyed: OpaquePointer, message: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        guard let context = EVP_MAC_CTX_dup(keyed) else { fatalError("libcrypto is out of memory") }
        defer { EVP_MAC_CTX_free(context) }
        var length = 0
        let ok = EVP_MAC_update(context, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count) == 1
            && EVP_MAC_final(context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, output.count) == 1
        precondition(ok && length == 32, "HMAC(SHA-256) failed: libcrypto is broken")
    }

    /// PBKDF2-HMAC-SHA-256 of `password` and `salt`, `iterations` rounds, into `output`.
    func pbkdf2(password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, iterations: Int,
                into output: UnsafeMutableRawBufferPointer) {
        guard let context = EVP_KDF_CTX_new(pbkdf2Algorithm) else { fatalError("libcrypto is out of memory") }
        defer { EVP_KDF_CTX_free(context) }
        // Every pointer an OSSL_PARAM holds must outlive the derive call: the names are static strings, the
        // numbers live in `numbers`, and an empty password or salt points at `numbers` too (length 0).
        struct Numbers {
            var rounds: UInt64
            // 1 lifts SP 800-132's lower bounds (salt, iterations, key length), as PKCS5_PBKDF2_HMAC does.
            var relaxed: Int32 = 1
        }
        var numbers = Numbers(rounds: UInt64(iterations))
        let ok = withUnsafeMutablePointer(to: &numbers) { numbers in
            Self.digestName.withUnsafeBufferPointer { digest in
                let empty = UnsafeMutableRawPointer(numbers)
                let rounds = (empty + MemoryLayout<Numbers>.offset(of: \Numbers.rounds)!).assumingMemoryBound(to: UInt64.self)
                let relaxed = (empty + MemoryLayout<Numbers>.offset(of: \Numbers.relaxed)!).assumingMemoryBound(to: Int32.self)
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(Self.key("digest"), UnsafeMutablePointer(mutating: digest.baseAddress), 0),
                    OSSL_PARAM_construct_octet_string(
                        Self.key("pass"), UnsafeMutableRawPointer(mutating: password.baseAddress) ?? empty, password.count),
                    OSSL_PARAM_construct_octet_string(
                        Self.key("salt"), UnsafeMutableRawPointer(mutating: salt.baseAddress) ?? empty, salt.count),
                    OSSL_PARAM_construct_uint64(Self.key("iter"), rounds),
                    OSSL_PARAM_construct_int(Self.key("pkcs5"), relaxed),
                    OSSL_PARAM_construct_end(),
                ]
                return EVP_KDF_derive(
                    context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), output.count, &parameters) == 1
            }
        }
        precondition(ok, "PBKDF2(SHA-256) failed: libcrypto is broken")
    }

    /// A parameter name that stays valid for the life of the process (an OSSL_PARAM keeps the pointer).
    private static func key(_ name: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

/// libcrypto's start-up, begun ahead of need.
public enum LibCrypto {
    /// Loads libcrypto's default provider and fetches the algorithms every hash, HMAC and key derivation uses.
    /// The first use in a process does this anyway; a start-up that calls it on another thread does it while
    /// reading its input (it took 1.7 ms of a 15 ms `run logout`).
    public static func load() {
        _ = Algorithms.shared
    }
}
