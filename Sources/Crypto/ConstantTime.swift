import CLibCrypto

/// Comparisons whose running time does not depend on where two secrets first differ.
public enum ConstantTime {
    /// True when `a` and `b` hold the same bytes. Only the lengths can leak through timing. Both are read in
    /// place when their storage is contiguous; a copy made otherwise is wiped.
    @inlinable
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        SecureMemory.withContiguousBytes(of: a) { left in
            SecureMemory.withContiguousBytes(of: b) { right in equals(bytes: left, right) }
        }
    }

    @usableFromInline
    static func equals(bytes left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        if left.isEmpty { return true }
        return CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
    }
}
