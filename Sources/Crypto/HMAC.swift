/// HMAC-SHA-256 through libcrypto.
public enum HMAC {
    /// The 32-byte authentication code of `message` under `key`.
    public static func sha256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        let key = Array(key)
        let message = Array(message)
        return [UInt8](unsafeUninitializedCapacity: 32) { output, count in
            key.withUnsafeBytes { key in
                message.withUnsafeBytes { message in
                    Algorithms.shared.hmac(key: key, message: message, into: UnsafeMutableRawBufferPointer(output))
                }
            }
            count = 32
        }
    }
}
