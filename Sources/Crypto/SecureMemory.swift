import CLibCrypto

/// Wiping memory that held a secret, in a way the optimiser may not remove (`OPENSSL_cleanse`).
public enum SecureMemory {
    public static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        OPENSSL_cleanse(base, buffer.count)
    }

    /// Overwrites an array's bytes in place. Copies made earlier are out of reach.
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { wipe($0) }
    }

    /// Runs `body` on `bytes` in place when their storage is contiguous; otherwise on a copy that is wiped
    /// afterwards, so that no unwiped copy of a secret is left behind. Inlinable, so that callers in other modules
    /// get it specialized for their collection: unspecialized, each call looked up generic metadata at run time.
    @inlinable
    public static func withContiguousBytes<Result>(
        of bytes: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        if let result = bytes.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        var copy = Array(bytes)
        defer { wipe(&copy) }
        return copy.withUnsafeBytes(body)
    }
}
