/// Checking a text's UTF-8 before it is parsed, and placing a byte that is not.
extension JSONParser {
    /// Where the first byte that is not part of well-formed UTF-8 is, or nil when every byte is.
    /// Where the first byte that is not UTF-8 is, as a line and column (nil: the bytes are UTF-8 text), for any text
    /// file a person has to mend (a theme file said only "is not UTF-8 text").
    public static func firstInvalidUTF8Position(_ bytes: [UInt8]) -> TextPosition? {
        firstInvalidUTF8(bytes).map { position(of: $0, in: bytes) }
    }

    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        // ASCII is looked for first, 8 bytes at a time: most files are, and the check makes no copy.
        let ascii = bytes.withUnsafeBytes { raw in
            var index = 0, high: UInt64 = 0
            while index + 8 <= raw.count {
                high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < raw.count {
                high |= UInt64(raw[index])
                index += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }
        if ascii || String(validating: bytes, as: UTF8.self) != nil { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            offset += UTF8.width(scalar)
        }
        return offset
    }

    static func position(of offset: Int, in bytes: [UInt8]) -> TextPosition {
        var line = 1, column = 1
        // A byte-order mark is not a column, as in every other position.
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for index in start..<offset where !isContinuation(bytes[index]) {
            let byte = bytes[index]
            // A CR alone ends a line too, as the parser counts it (CR LF ends one, at its LF).
            let loneCR = byte == UInt8(ascii: "\r") && (index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n"))
            if byte == UInt8(ascii: "\n") || loneCR {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return TextPosition(line: line, column: column)
    }
}
