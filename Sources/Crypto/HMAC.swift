import CLibCrypto

/// HMAC-SHA-256 through libcrypto.
public enum HMAC {
    /// The 32-byte authentication code of `message` under `key`.
    public static func sha256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        let key = Array(key)
        let message = Array(message)
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                CLibCrypto.HMAC(
                    EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                    messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count,
                    &output, &length)
            }
        }
        precondition(result != nil, "HMAC(SHA-256) failed: libcrypto is broken")
        return Array(output.prefix(Int(length)))
    }
}
