// Writing: a document is built as nodes (members in the order given) and written as text, so that
// `scenario show` lists a file's keys in the order a person writes them (Foundation's encoder sorts or scrambles
// them). A built node has no place in any text: its position is ``TextPosition/unplaced``.
extension JSONNode {
    public static let null = JSONNode(.null, at: .unplaced)

    public static func bool(_ flag: Bool) -> JSONNode { JSONNode(.bool(flag), at: .unplaced) }

    public static func int(_ number: Int) -> JSONNode { JSONNode(.number(String(number), Double(number)), at: .unplaced) }

    /// Whole numbers are written without a fraction.
    public static func number(_ number: Double) -> JSONNode {
        let text = number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        return JSONNode(.number(text, number), at: .unplaced)
    }

    public static func string(_ text: String) -> JSONNode { JSONNode(.string(text), at: .unplaced) }

    public static func array(_ items: [JSONNode]) -> JSONNode { JSONNode(.array(items), at: .unplaced) }

    public static func object(_ members: [(String, JSONNode)]) -> JSONNode {
        JSONNode(.object(members.map { (key: $0.0, value: $0.1) }), at: .unplaced)
    }

    /// The JSON text; pretty prints with two-space indents, and short arrays of scalars on one line.
    public func text(pretty: Bool = true) -> String {
        var out = ""
        write(into: &out, indent: 0, pretty: pretty)
        return out
    }

    private func write(into out: inout String, indent: Int, pretty: Bool) {
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let closing = pretty ? String(repeating: "  ", count: indent) : ""
        let newline = pretty ? "\n" : ""
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let text, _): out += text
        case .string(let text): out += JSONNode.quote(text)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
            } else if items.allSatisfy({ $0.isScalar }) {
                out += "[" + items.map { $0.text(pretty: false) }.joined(separator: pretty ? ", " : ",") + "]"
            } else {
                out += "[" + newline
                for (index, item) in items.enumerated() {
                    out += pad
                    item.write(into: &out, indent: indent + 1, pretty: pretty)
                    out += (index < items.count - 1 ? "," : "") + newline
                }
                out += closing + "]"
            }
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{" + newline
            for (index, (key, value)) in members.enumerated() {
                out += pad + JSONNode.quote(key) + (pretty ? ": " : ":")
                value.write(into: &out, indent: indent + 1, pretty: pretty)
                out += (index < members.count - 1 ? "," : "") + newline
            }
            out += closing + "}"
        }
    }

    private var isScalar: Bool {
        switch value {
        case .array, .object: false
        default: true
        }
    }

    /// `text` as a JSON string, with control characters escaped.
    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
