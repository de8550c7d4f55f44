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
}
