import Crypto

/// A password, activation code, PIN or one-time code.
///
/// It prints as `<redacted>` through every printing path (`description`, `debugDescription`, string
/// interpolation, `dump` and `Mirror`), is deliberately not `Codable`, compares in constant time, and wipes
/// its bytes when the last copy is released. Copies of the plain text made through ``reveal()`` are
/// ordinary Swift strings and cannot be wiped: reveal only at the point of use.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// What every printing path shows instead of the value.
    public static let redacted = "<redacted>"

    private let storage: Storage

    public init(_ text: String) {
        storage = Storage(text.utf8)
    }

    /// Takes the bytes and wipes the caller's array.
    public init(consuming bytes: inout [UInt8]) {
        storage = Storage(bytes)
        SecureMemory.wipe(&bytes)
    }

    public var isEmpty: Bool { storage.bytes.isEmpty }

    /// The number of UTF-8 bytes. Masks count characters instead (``characterCount``).
    public var byteCount: Int { storage.bytes.count }

    /// The number of characters, so that a mask can show one • per character.
    public var characterCount: Int { reveal().count }

    /// The plain text. Use it only where the value is consumed (hashing, comparing, sending).
    public func reveal() -> String {
        String(decoding: storage.bytes, as: UTF8.self)
    }

    /// The plain bytes, lent for the duration of `body`.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(storage.bytes))
    }

    public var description: String { Self.redacted }
    public var debugDescription: String { "Secret(\(Self.redacted))" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    public static func == (lhs: Secret, rhs: Secret) -> Bool {
        ConstantTime.equals(
            UnsafeRawBufferPointer(lhs.storage.bytes), UnsafeRawBufferPointer(rhs.storage.bytes))
    }

    // `@unchecked Sendable` is safe: the buffer is written once in `init` and only read afterwards,
    // until `deinit`, which runs when no other reference exists.
    private final class Storage: @unchecked Sendable {
        let bytes: UnsafeMutableBufferPointer<UInt8>

        /// Copied straight from the source: a String's bytes go to the wiped buffer without an array between.
        init(_ source: some Collection<UInt8>) {
            bytes = .allocate(capacity: source.count)
            _ = bytes.initialize(from: source)
        }

        deinit {
            SecureMemory.wipe(UnsafeMutableRawBufferPointer(bytes))
            bytes.deallocate()
        }
    }
}
