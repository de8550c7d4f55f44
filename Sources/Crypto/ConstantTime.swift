import CLibCrypto

/// Comparisons whose running time does not depend on where two secrets first differ.
public enum ConstantTime {
    /// True when `a` and `b` hold the same bytes. Only the lengths can leak through timing.
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        let a = Array(a)
        let b = Array(b)
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}
