/// JSON to write, with members in a chosen order (Foundation's encoder sorts or scrambles them).
public indirect enum JSONOutput: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSONOutput])
    case object([(String, JSONOutput)])

    public static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool {
        lhs.text(pretty: false) == rhs.text(pretty: false)
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
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .int(let number): out += String(number)
        case .number(let number):
            out += number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .string(let text): out += Self.quote(text)
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
                out += pad + Self.quote(key) + (pretty ? ": " : ":")
                value.write(into: &out, indent: indent + 1, pretty: pretty)
                out += (index < members.count - 1 ? "," : "") + newline
            }
            out += closing + "}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

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
