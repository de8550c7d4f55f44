/// HMAC-SHA-256 through libcrypto.
public enum HMAC {
    /// The 32-byte authentication code of `message` under `key`. For many messages under one key, ``Key``.
    public static func sha256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        Key(key).authenticate(message)
    }

    /// A key that signs many messages: libcrypto's keyed state is made once, not once per message.
    public final class Key: @unchecked Sendable {
        // Only read after init (each message works on a duplicate), so sharing it between threads is safe.
        private let context: OpaquePointer

        public init(_ key: some Collection<UInt8>) {
            context = SecureMemory.withContiguousBytes(of: key) { Algorithms.shared.hmacContext(key: $0) }
        }

        deinit { Algorithms.shared.freeHMACContext(context) }

        /// The 32-byte authentication code of `message`.
        public func authenticate(_ message: some Collection<UInt8>) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: 32) { output, count in
                SecureMemory.withContiguousBytes(of: message) { message in
                    Algorithms.shared.hmac(keyed: context, message: message, into: UnsafeMutableRawBufferPointer(output))
                }
                count = 32
            }
        }
    }
}
