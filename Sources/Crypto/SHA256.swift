import CLibCrypto

/// SHA-256 through libcrypto's EVP interface.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let input = Array(bytes)
        let ok = input.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &output, &length, Algorithms.shared.sha256, nil)
        }
        precondition(ok == 1, "EVP_Digest(SHA-256) failed: libcrypto is broken")
        return Array(output.prefix(Int(length)))
    }

    /// The digest of the UTF-8 bytes of `text`.
    public static func digest(_ text: String) -> [UInt8] {
        digest(Array(text.utf8))
    }
}
