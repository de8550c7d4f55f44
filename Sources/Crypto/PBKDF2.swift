/// PBKDF2-HMAC-SHA-256 through libcrypto (its `PBKDF2` key derivation, as `PKCS5_PBKDF2_HMAC` uses).
public enum PBKDF2 {
    /// Derives `length` bytes from `password` and `salt` with `iterations` rounds. Both are read in place when
    /// their storage is contiguous (a ``Secret``'s bytes, an array); otherwise the copy made is wiped.
    @inlinable
    public static func sha256(
        password: some Collection<UInt8>, salt: some Collection<UInt8>, iterations: Int, length: Int = 32
    ) -> [UInt8] {
        SecureMemory.withContiguousBytes(of: password) { password in
            SecureMemory.withContiguousBytes(of: salt) { salt in
                derive(password: password, salt: salt, iterations: iterations, length: length)
            }
        }
    }

    @usableFromInline
    static func derive(
        password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, iterations: Int, length: Int
    ) -> [UInt8] {
        precondition(iterations >= 1 && length >= 1, "PBKDF2 needs at least one iteration and one byte")
        var output = [UInt8](repeating: 0, count: length)
        output.withUnsafeMutableBytes { output in
            Algorithms.shared.pbkdf2(password: password, salt: salt, iterations: iterations, into: output)
        }
        return output
    }
}
