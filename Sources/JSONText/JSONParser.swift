#if canImport(Glibc)
    import Glibc
#endif

/// A strict JSON parser (RFC 8259) that records the position of every value and refuses duplicate keys, for files
/// whose errors a person has to find: scenario files. Nesting is limited so that hostile input cannot exhaust the stack.
///
/// It reads UTF-8 bytes (checked once, up front) and counts columns in characters lazily: a position is worked
/// out only where a value starts or an error is found, from the last one, so a file is read in one pass.
public struct JSONParser {
    public static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line = 1
    /// The column at `countedTo`; the characters between there and `index` are counted when a position is asked.
    private var column = 1
    private var countedTo = 0

    /// Arrays the caller has checked already, read as empty arrays without looking inside (in order of the text).
    private var skips: ArraySlice<Range<Int>> = []
    /// Where each skipped array was.
    private var skipped: [TextPosition] = []

    /// Whether a key given twice in one object is kept (both members, in order) for the caller to report with
    /// its other problems, rather than ending the parse: a scenario check reports every problem of a file.
    private var keepsDuplicateKeys = false

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses `bytes`, reading each of `ranges` (in order; each must be an array, `[` to `]`, of ASCII text the
    /// caller has checked) as an empty array, and says where each was read. A range not found where a value starts
    /// is not skipped, nor are those after it: `skipped` is then shorter than `ranges`.
    package static func parse(_ bytes: [UInt8], skippingCheckedArrays ranges: [Range<Int>]) throws(JSONSyntaxError)
        -> (root: JSONNode, skipped: [TextPosition])
    {
        if let error = notUTF8(bytes) { throw error }
        let result: Result<(JSONNode, [TextPosition]), JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            parser.skips = ranges[...]
            return Result { () throws(JSONSyntaxError) in (try parser.document(), parser.skipped) }
        }
        return try result.get()
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        try parseValid(Array(text.utf8))
    }

    /// `keepingDuplicateKeys`: an object with a key twice keeps both members (its subscript finds the first), for
    /// a caller that reports them itself; otherwise a key twice is a syntax error.
    public static func parse(_ bytes: [UInt8], keepingDuplicateKeys: Bool = false) throws(JSONSyntaxError) -> JSONNode {
        if let error = notUTF8(bytes) { throw error }
        return try parseValid(bytes, keepingDuplicateKeys: keepingDuplicateKeys)
    }

    /// Why `bytes` are not UTF-8, if they are not; UTF-16 (its byte-order mark: a file a Windows editor saved) said so.
    private static func notUTF8(_ bytes: [UInt8]) -> JSONSyntaxError? {
        guard let invalid = firstInvalidUTF8(bytes) else { return nil }
        let utf16 = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        return JSONSyntaxError(message: utf16 ? "the text is UTF-16, not UTF-8 (save it as UTF-8)" : "the text is not UTF-8 (an invalid byte)",
                               position: position(of: invalid, in: bytes))
    }

    private static func parseValid(_ bytes: [UInt8], keepingDuplicateKeys: Bool = false) throws(JSONSyntaxError) -> JSONNode {
        let result: Result<JSONNode, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            parser.keepsDuplicateKeys = keepingDuplicateKeys
            return Result { () throws(JSONSyntaxError) in try parser.document() }
        }
        return try result.get()
    }

    private mutating func document() throws(JSONSyntaxError) -> JSONNode {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            countedTo = 3
        }
        skipWhitespace()
        let node = try value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw unexpected("unexpected text after the JSON value") }
        return node
    }

    // MARK: Positions

    static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    private mutating func here() -> TextPosition {
        while countedTo < index {
            if !Self.isContinuation(bytes[countedTo]) { column += 1 }
            countedTo += 1
        }
        return TextPosition(line: line, column: column)
    }

    private mutating func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: here())
    }

    // MARK: Values

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The character at the index, for messages to describe (never to print).
    private var scalarHere: Unicode.Scalar {
        String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self).unicodeScalars.first!
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): index += 1
            // CR LF is one line end (counted at its LF); a CR alone ends a line too (classic Mac OS), as editors show it.
            case UInt8(ascii: "\r") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"): index += 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
                line += 1
                column = 1
                countedTo = index
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        let start = here()
        guard let byte = peek else { throw error("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(try object(depth: depth), at: start)
        case UInt8(ascii: "[") where skips.first?.lowerBound == index:
            skip(skips.removeFirst())
            skipped.append(start)
            return JSONNode(.array([]), at: start)
        case UInt8(ascii: "["): return JSONNode(try array(depth: depth), at: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try string()), at: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(.bool(true), at: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(.bool(false), at: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(try number(), at: start)
        // The character is described, never quoted: the text may be a password written without its quotes.
        default:
            let found = scalarHere
            throw unexpected(Self.isControl(found) ? "a control character where a value should be"
                : found.properties.isAlphabetic ? "unquoted text where a value should be (a string goes in double quotes)"
                : "an unexpected character where a value should be")
        }
    }

    /// Steps over a checked array of ASCII text (`here()` has counted up to its start).
    private mutating func skip(_ range: Range<Int>) {
        var lineStart: Int?
        var offset = range.lowerBound
        while let base = bytes.baseAddress, offset < range.upperBound,
            let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), range.upperBound - offset)
        {
            offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            line += 1
            lineStart = offset
        }
        column = lineStart.map { 1 + range.upperBound - $0 } ?? column + range.count
        index = range.upperBound
        countedTo = index
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        let start = index
        for byte in expected {
            guard peek == byte else {
                // `fish` is no misspelt `false`: text without quotes, at its start.
                index = start
                throw error("unquoted text where a value should be (a string goes in double quotes)")
            }
            index += 1
        }
    }

    /// The text ended before the object or array opened at `opened` was closed (a truncated document): said so,
    /// rather than what the next byte should have been.
    /// `message`, unless the byte here starts a comment (`//`, `/*`, `#`), which JSON has none of: said so, as an
    /// author coming from JSON5 or YAML needs to hear ("expected a key in double quotes" did not say it).
    private mutating func unexpected(_ message: String) -> JSONSyntaxError {
        let next = index + 1 < bytes.count ? bytes[index + 1] : nil
        let comment = peek == UInt8(ascii: "#") || (peek == UInt8(ascii: "/") && (next == UInt8(ascii: "/") || next == UInt8(ascii: "*")))
        return error(comment ? "a comment, which JSON does not allow" : message)
    }

    private mutating func endsInside(_ what: String, _ opened: TextPosition) -> JSONSyntaxError {
        error("the \(what) that opens at line \(opened.line), column \(opened.column) is not closed: the text ends")
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        let opened = here()
        index += 1
        var members: [(key: String, value: JSONNode)] = []
        // Objects are mostly small: a duplicate is looked for in the list until a set pays for itself.
        var seen: Set<String> = []
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else {
                if peek == UInt8(ascii: "}"), !members.isEmpty { throw error("a comma before }, which JSON does not allow (a trailing comma)") }
                throw peek == nil ? endsInside("object", opened) : unexpected("expected a key in double quotes")
            }
            let keyPosition = here()
            let key = try string()
            let duplicate: Bool
            if members.count < 16 {
                duplicate = members.contains { $0.key == key }
            } else {
                if seen.isEmpty { seen = Set(members.map(\.key)) }
                duplicate = !seen.insert(key).inserted
            }
            guard !duplicate || keepsDuplicateKeys else {
                throw JSONSyntaxError(message: "a key appears twice in one object (the second time here)", position: keyPosition)
            }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw peek == nil ? endsInside("object", opened) : error("expected : after a key") }
            index += 1
            skipWhitespace()
            members.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw peek == nil ? endsInside("object", opened) : unexpected("expected , or } after a member")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        let opened = here()
        index += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            if peek == UInt8(ascii: "]"), !items.isEmpty { throw error("a comma before ], which JSON does not allow (a trailing comma)") }
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default: throw peek == nil ? endsInside("array", opened) : unexpected("expected , or ] after an array element")
            }
        }
    }

    /// The run of plain bytes from the index: up to a quote, a backslash or a control character (strings hold no
    /// line end: those are control characters).
    private mutating func plainRun() -> Range<Int> {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        return start..<index
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        let first = plainRun()
        if peek == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[first]), as: UTF8.self)
        }
        var result = Array(bytes[first])
        while true {
            guard let byte = peek else { throw error("the text ends inside a string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: result, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = peek else { throw error("the text ends inside a string") }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): result.append(escaped)
                case UInt8(ascii: "b"): result.append(0x08)
                case UInt8(ascii: "f"): result.append(0x0C)
                case UInt8(ascii: "n"): result.append(0x0A)
                case UInt8(ascii: "r"): result.append(0x0D)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "u"):
                    index += 1
                    result.append(contentsOf: UTF8.encode(try unicodeEscape())!)
                    continue
                default:
                    let shown = scalarHere
                    index += UTF8.width(shown)
                    if shown == "\n" {
                        // The error is placed after what it names, as every error is: here, at the next line's start.
                        line += 1
                        column = 1
                        countedTo = index
                    }
                    // Not quoted: the string may be a secret.
                    throw error("an unknown escape in a string (after a backslash JSON takes \" \\ / b f n r t or u)")
                }
                index += 1
            default:
                if byte < 0x20 { throw error("a control character inside a string (escape it)") }
                result.append(contentsOf: bytes[plainRun()])
            }
        }
    }

    /// After `\u`: four hexadecimal digits, and a second escape when they are the first half of a surrogate pair.
    private mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code) {
            guard peek == UInt8(ascii: "\\") else { throw error("a lone UTF-16 surrogate in a \\u escape") }
            index += 1
            guard peek == UInt8(ascii: "u") else { throw error("a lone UTF-16 surrogate in a \\u escape") }
            index += 1
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let decoded = Unicode.Scalar(code) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
        return decoded
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt8
            switch peek {
            case let byte? where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte): digit = byte - UInt8(ascii: "0")
            case let byte? where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte): digit = byte - UInt8(ascii: "a") + 10
            case let byte? where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("\\u needs four hexadecimal digits")
            }
            code = code * 16 + UInt32(digit)
            index += 1
        }
        return code
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONNode.Value {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        if peek == UInt8(ascii: "0") {
            index += 1
            if let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { throw error("a number may not start with 0") }
        } else if digits() == 0 {
            throw error("expected digits in a number")
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected digits after the decimal point") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected digits in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            // At the number's start, as every value's place is (it was the character after it).
            index = start
            var problem = error("a number beyond what a double holds (about 1.8e308)")
            problem.isNumberOutOfRange = true
            throw problem
        }
        return .number(text, number)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.isControlCharacter }
}

extension Unicode.Scalar {
    /// A C0 control character, DEL or a C1 control character: what no name, secret or text field of a scenario,
    /// an answer or a theme may hold (a terminal would act on it).
    package var isControlCharacter: Bool { value < 0x20 || (0x7f...0x9f).contains(value) }
}
