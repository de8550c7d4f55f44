import CLibCrypto

/// PBKDF2-HMAC-SHA-256 through libcrypto (`PKCS5_PBKDF2_HMAC`).
public enum PBKDF2 {
    /// Derives `length` bytes from `password` and `salt` with `iterations` rounds.
    public static func sha256(
        password: some Collection<UInt8>, salt: some Collection<UInt8>, iterations: Int, length: Int = 32
    ) -> [UInt8] {
        precondition(iterations >= 1 && length >= 1, "PBKDF2 needs at least one iteration and one byte")
        let password = Array(password)
        let salt = Array(salt)
        var output = [UInt8](repeating: 0, count: length)
        let ok = password.withUnsafeBytes { passwordBytes in
            salt.withUnsafeBufferPointer { saltBytes in
                PKCS5_PBKDF2_HMAC(
                    passwordBytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(passwordBytes.count),
                    saltBytes.baseAddress, Int32(saltBytes.count), Int32(iterations), EVP_sha256(),
                    Int32(length), &output)
            }
        }
        precondition(ok == 1, "PKCS5_PBKDF2_HMAC failed: libcrypto is broken")
        return output
    }
}
