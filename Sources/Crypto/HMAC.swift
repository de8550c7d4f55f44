/// HMAC-SHA-256 through libcrypto. The generic entry points are inlinable thin wrappers, specialized where they
/// are called, around the code that works on bytes in place.
public enum HMAC {
    /// The 32-byte authentication code of `message` under `key`. For many messages under one key, ``Key``.
    @inlinable
    public static func sha256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        Key(key).authenticate(message)
    }

    /// A key that signs many messages: libcrypto's keyed state is made once, not once per message.
    public final class Key: @unchecked Sendable {
        // Only read after init (each message works on a duplicate), so sharing it between threads is safe.
        private let context: OpaquePointer

        @inlinable
        public convenience init(_ key: some Collection<UInt8>) {
            self.init(context: SecureMemory.withContiguousBytes(of: key) { Key.context(key: $0) })
        }

        @usableFromInline
        init(context: OpaquePointer) { self.context = context }

        @usableFromInline
        static func context(key: UnsafeRawBufferPointer) -> OpaquePointer { Algorithms.shared.hmacContext(key: key) }

        deinit { Algorithms.shared.freeHMACContext(context) }

        /// The 32-byte authentication code of `message`.
        @inlinable
        public func authenticate(_ message: some Collection<UInt8>) -> [UInt8] {
            SecureMemory.withContiguousBytes(of: message) { authenticate(bytes: $0) }
        }

        @usableFromInline
        func authenticate(bytes message: UnsafeRawBufferPointer) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: 32) { output, count in
                Algorithms.shared.hmac(keyed: context, message: message, into: UnsafeMutableRawBufferPointer(output))
                count = 32
            }
        }
    }
}
