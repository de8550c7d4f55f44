/// A JSON value as data (Q2's `userDataJSON`), Codable.
public enum JSONValue: Sendable, Equatable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let items): try container.encode(items)
        case .object(let members): try container.encode(members)
        }
    }

    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let flag): String(flag)
        // A whole number without a fraction; one beyond Int's range as a Double writes it (1e+19).
        case .number(let number): Int(exactly: number).map(String.init) ?? String(number)
        case .string(let text): JSONNode.quote(text)
        case .array(let items): "[" + items.map(\.description).joined(separator: ",") + "]"
        case .object(let members): "{" + members.sorted { $0.key < $1.key }.map { "\(JSONNode.quote($0.key)):\($0.value)" }.joined(separator: ",") + "}"
        }
    }
}

// The typed accessors Q2's module interfaces give their `JSONValue`.
extension JSONValue {
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var doubleValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The number when it is whole and fits an `Int`.
    public var intValue: Int? {
        guard case .number(let number) = self, number == number.rounded(), let whole = Int(exactly: number) else { return nil }
        return whole
    }

    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    public var isNull: Bool { self == .null }
}
