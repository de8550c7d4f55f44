/// Why a text is not JSON, and where.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let position: TextPosition

    public init(message: String, position: TextPosition) {
        self.message = message
        self.position = position
    }

    public var description: String { "\(message) at \(position)" }
}

/// A strict JSON parser (RFC 8259) that records the position of every value and refuses duplicate keys,
/// for files whose errors a person has to find: scenario files. Nesting is limited so that hostile input
/// cannot exhaust the stack.
public struct JSONParser {
    public static let maximumDepth = 64

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1

    private init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(text)
        if parser.peek == "\u{FEFF}" { parser.advance() }
        parser.skipWhitespace()
        let node = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.scalars.count else { throw parser.error("unexpected text after the JSON value") }
        return node
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw JSONSyntaxError(message: "the file is not UTF-8 text", position: TextPosition(line: 1, column: 1))
        }
        return try parse(text)
    }

    // MARK: Values

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private var here: TextPosition { TextPosition(line: line, column: column) }

    private mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: here)
    }

    private mutating func skipWhitespace() {
        while let scalar = peek, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { advance() }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        let start = here
        guard let scalar = peek else { throw error("the text ends where a value should be") }
        switch scalar {
        case "{": return JSONNode(try object(depth: depth), at: start)
        case "[": return JSONNode(try array(depth: depth), at: start)
        case "\"": return JSONNode(.string(try string()), at: start)
        case "t": try literal("true"); return JSONNode(.bool(true), at: start)
        case "f": try literal("false"); return JSONNode(.bool(false), at: start)
        case "n": try literal("null"); return JSONNode(.null, at: start)
        case "-", "0"..."9": return JSONNode(try number(), at: start)
        default: throw error("unexpected \(Self.show(scalar)) where a value should be")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for expected in word.unicodeScalars {
            guard peek == expected else { throw error("expected \(word)") }
            advance()
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        advance()
        var members: [(key: String, value: JSONNode)] = []
        var seen: Set<String> = []
        skipWhitespace()
        if peek == "}" {
            advance()
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek == "\"" else { throw error("expected a key in double quotes") }
            let keyPosition = here
            let key = try string()
            guard seen.insert(key).inserted else {
                throw JSONSyntaxError(message: "a key appears twice in one object (the second time here)", position: keyPosition)
            }
            skipWhitespace()
            guard peek == ":" else { throw error("expected : after a key") }
            advance()
            skipWhitespace()
            members.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            switch peek {
            case ",": advance()
            case "}":
                advance()
                return .object(members)
            default: throw error("expected , or } after a member")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        advance()
        var items: [JSONNode] = []
        skipWhitespace()
        if peek == "]" {
            advance()
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            switch peek {
            case ",": advance()
            case "]":
                advance()
                return .array(items)
            default: throw error("expected , or ] after an array element")
            }
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        advance()
        // Built as UTF-8: appending scalars to a String one at a time costs several times more.
        var result: [UInt8] = []
        func append(_ scalar: Unicode.Scalar) {
            if scalar.isASCII { result.append(UInt8(scalar.value)) } else { result.append(contentsOf: UTF8.encode(scalar)!) }
        }
        while true {
            // A run of plain characters (strings hold no line end: those are control characters) moves the column.
            let start = index
            while index < scalars.count, scalars[index] != "\"", scalars[index] != "\\", scalars[index].value >= 0x20 {
                append(scalars[index])
                index += 1
            }
            column += index - start
            guard let scalar = peek else { throw error("the text ends inside a string") }
            switch scalar {
            case "\"":
                advance()
                return String(decoding: result, as: UTF8.self)
            case "\\":
                advance()
                guard let escaped = peek else { throw error("the text ends inside a string") }
                advance()
                switch escaped {
                case "\"": append("\"")
                case "\\": append("\\")
                case "/": append("/")
                case "b": append("\u{08}")
                case "f": append("\u{0C}")
                case "n": append("\n")
                case "r": append("\r")
                case "t": append("\t")
                case "u":
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard peek == "\\" else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                        advance()
                        guard peek == "u" else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                        advance()
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let decoded = Unicode.Scalar(code) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                    append(decoded)
                default: throw error("unknown escape \\\(Self.isControl(escaped) ? " and \(Self.show(escaped))" : "\(escaped)") in a string")
                }
            default:
                throw error("a control character inside a string (escape it)")
            }
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek, let digit = Int(String(scalar), radix: 16) else {
                throw error("\\u needs four hexadecimal digits")
            }
            code = code * 16 + UInt32(digit)
            advance()
        }
        return code
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONNode.Value {
        var text = ""
        func take() {
            text.unicodeScalars.append(scalars[index])
            advance()
        }
        func digits() -> Int {
            var count = 0
            while let scalar = peek, ("0"..."9").contains(scalar) {
                take()
                count += 1
            }
            return count
        }
        if peek == "-" { take() }
        if peek == "0" {
            take()
            if let scalar = peek, ("0"..."9").contains(scalar) { throw error("a number may not start with 0") }
        } else if digits() == 0 {
            throw error("expected digits in a number")
        }
        if peek == "." {
            take()
            guard digits() > 0 else { throw error("expected digits after the decimal point") }
        }
        if peek == "e" || peek == "E" {
            take()
            if peek == "+" || peek == "-" { take() }
            guard digits() > 0 else { throw error("expected digits in the exponent") }
        }
        guard let number = Double(text), number.isFinite else { throw error("the number \(text) is out of range") }
        return .number(text, number)
    }

    /// A character as an error shows it: a control character (C0, DEL or C1) by its code, so that an error stays
    /// one line and a terminal that shows it does not act on it.
    private static func show(_ scalar: Unicode.Scalar) -> String {
        isControl(scalar) ? "control character U+\(String(scalar.value, radix: 16, uppercase: true))" : "\"\(scalar)\""
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value)
    }
}
