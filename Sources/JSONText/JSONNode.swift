/// Where a JSON value starts in its text: 1-based line and column (in characters).
public struct TextPosition: Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column)" }

    /// The position of a node built in code rather than read from a text.
    public static let unplaced = TextPosition(line: 0, column: 0)
}

/// A JSON document's value, members in order: read by ``JSONParser`` (remembering where each value came from,
/// so that a file's checks can say "line 12, column 9" for a value that parses but does not make sense), or
/// built in code and written with `text(pretty:)`. ``JSONValue`` is the same data as the SDKs exchange it.
public struct JSONNode: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        /// The number as written, and as a Double.
        case number(String, Double)
        case string(String)
        case array([JSONNode])
        /// Members in the order written (duplicates are refused by the parser).
        case object([(key: String, value: JSONNode)])

        public static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): true
            case (.bool(let a), .bool(let b)): a == b
            case (.number(_, let a), .number(_, let b)): a == b
            case (.string(let a), .string(let b)): a == b
            case (.array(let a), .array(let b)): a == b
            case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: false
            }
        }
    }

    public let value: Value
    public let position: TextPosition

    public init(_ value: Value, at position: TextPosition) {
        self.value = value
        self.position = position
    }

    /// What kind of value this is, for messages: "a string", "an object" …
    public var kind: String {
        switch value {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    public var number: Double? {
        if case .number(_, let number) = value { return number }
        return nil
    }

    /// The number when it is a whole number that fits an Int.
    public var integer: Int? {
        guard case .number(let text, let number) = value, !text.contains("."), !text.lowercased().contains("e"),
            let whole = Int(text)
        else { return nil }
        _ = number
        return whole
    }

    /// What is wrong with a value ``integer`` refuses, for a field that takes one in `range`: a number that is
    /// whole in value (`1e1`, `10.0`, or too many digits for an Int) is not a fraction; out of range, the range says
    /// what is wrong.
    public func integerProblem(_ range: ClosedRange<Int>) -> String {
        guard let value = number else { return "must be a whole number, not \(kind)" }
        guard !value.isFinite || value == value.rounded() else { return "must be a whole number, not a fraction" }
        guard value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            return "must be from \(range.lowerBound) to \(range.upperBound)"
        }
        return "must be written as a whole number, without a decimal point or an exponent (from \(range.lowerBound) to \(range.upperBound))"
    }

    public var array: [JSONNode]? {
        if case .array(let items) = value { return items }
        return nil
    }

    public var members: [(key: String, value: JSONNode)]? {
        if case .object(let members) = value { return members }
        return nil
    }

    public subscript(key: String) -> JSONNode? {
        members?.first { $0.key == key }?.value
    }
}
