/// Text from a state file or a scenario, made safe to print: a control character (C0, DEL, C1) is written as
/// `\x1B`, so that a crafted file cannot move the cursor, retitle the window or change colours through
/// `idp-tui history`, a transcript or an export, and a line stays one line; a bidirectional control or a line or
/// paragraph separator as `\u{202E}`, so that a user name cannot show its characters in another order
/// ("evil\u{202E}gnp.exe" printed as "evilexe.png") or break a line.
public enum VisibleText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += scalar.value > 0xFF ? "\\u{\(hex)}" : "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// JSON text with every control character in its strings as a `\u` escape: JSON may carry DEL and C1
    /// characters raw, and the JSON a state file holds may carry anything. Outside strings valid JSON has none but
    /// whitespace, which goes (a stored result written with line breaks between its members became `\u000a`
    /// tokens, and the export was no JSON).
    public static func escapedInJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isControl) else { return json }
        var out = ""
        var inString = false, escaping = false
        for scalar in json.unicodeScalars {
            if !inString {
                if scalar == "\"" { inString = true }
                if !isControl(scalar) { out.unicodeScalars.append(scalar) }
                continue
            }
            if escaping {
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else if scalar == "\"" {
                inString = false
            }
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A character printed escaped: a C0 or C1 control, DEL, a bidirectional control or a line or paragraph
    /// separator. The terminal UI gives these no cell.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        // Arabic letter mark, left-to-right and right-to-left marks, line and paragraph separators, embeddings and
        // overrides, isolates.
        case 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
