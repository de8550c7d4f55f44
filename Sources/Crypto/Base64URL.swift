import Foundation

/// Base64url without padding (RFC 4648 §5), the encoding of PKCE values and of tokens.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        let count = (input.count * 4 + 2) / 3
        return input.withUnsafeBufferPointer { input in
            alphabet.withUnsafeBufferPointer { alphabet in
                String(unsafeUninitializedCapacity: count) { output in
                    var written = 0
                    var index = 0
                    // Whole groups of three bytes make four characters.
                    while index + 3 <= input.count {
                        let group = Int(input[index]) << 16 | Int(input[index + 1]) << 8 | Int(input[index + 2])
                        output[written] = alphabet[group >> 18]
                        output[written + 1] = alphabet[(group >> 12) & 0x3f]
                        output[written + 2] = alphabet[(group >> 6) & 0x3f]
                        output[written + 3] = alphabet[group & 0x3f]
                        written += 4
                        index += 3
                    }
                    // One or two bytes left make two or three characters (no padding).
                    let remaining = input.count - index
                    if remaining > 0 {
                        var group = Int(input[index]) << 16
                        if remaining == 2 { group |= Int(input[index + 1]) << 8 }
                        output[written] = alphabet[group >> 18]
                        output[written + 1] = alphabet[(group >> 12) & 0x3f]
                        written += 2
                        if remaining == 2 {
                            output[written] = alphabet[(group >> 6) & 0x3f]
                            written += 1
                        }
                    }
                    return written
                }
            }
        }
    }

    /// The bytes, or nil when `text` is not unpadded base64url.
    public static func decode(_ text: String) -> [UInt8]? {
        decode(Array(text.utf8))
    }

    /// The bytes, or nil when `text` (UTF-8) is not unpadded base64url.
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer(decode(buffer:))
    }

    private static func decode(buffer text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        return values.withUnsafeBufferPointer { values -> [UInt8]? in
            var output = [UInt8]()
            output.reserveCapacity(text.count * 3 / 4)
            var group = 0
            var bits = 0
            for character in text {
                let value = values[Int(character)]
                guard value != 0xff else { return nil }
                group = (group << 6) | Int(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8((group >> bits) & 0xff))
                }
            }
            guard group & ((1 << bits) - 1) == 0 else { return nil }
            return output
        }
    }
}

/// Lower-case hexadecimal.
public enum Hex {
    /// 16 random bytes as an RFC 4122 version 4 UUID (8-4-4-4-12 hex digits, the version and variant bits set), as
    /// EMV 3-D Secure's transaction ids are, for protocol ids drawn from a seeded source.
    public static func uuid(_ random: [UInt8]) -> String {
        precondition(random.count == 16, "a UUID takes 16 bytes")
        var bytes = random
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = encode(bytes)
        return [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
                hex.dropFirst(20)].joined(separator: "-")
    }

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        return input.withUnsafeBufferPointer { input in
            String(unsafeUninitializedCapacity: input.count * 2) { output in
                for (index, byte) in input.enumerated() {
                    output[2 * index] = digits[Int(byte >> 4)]
                    output[2 * index + 1] = digits[Int(byte & 0x0f)]
                }
                return input.count * 2
            }
        }
    }

    /// The lower-case hex digits of `bytes` as bytes, in one buffer of the exact size and with no other copy: for a
    /// secret's digits, which the caller wipes or hands to a `Secret` (a `String` would stay in memory unwiped).
    public static func encodedBytes(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count * 2) { output, count in
            for (index, byte) in bytes.enumerated() {
                output[2 * index] = digits[Int(byte >> 4)]
                output[2 * index + 1] = digits[Int(byte & 0x0f)]
            }
            count = bytes.count * 2
        }
    }

    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)
}
