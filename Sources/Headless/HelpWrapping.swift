import FlowCatalog

/// `--help`'s text fitted to a terminal narrower than its lines (at 60 columns 37 of 48 lines broke mid-word where
/// the terminal cut them): an option's description wraps under its own column, other lines under their indent.
public enum HelpWrapping {
    public static func fit(_ text: String, width: Int) -> String {
        guard width >= 40 else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            guard line.count > width else { return [String(line)] }
            let indent = line.prefix { $0 == " " }.count
            // The description's column: where the text resumes after a gap of two spaces or more past the indent.
            let body = Array(line)
            var column: Int?
            var index = indent
            while index < body.count - 1 {
                if body[index] == " " && body[index + 1] == " " {
                    var end = index
                    while end < body.count && body[end] == " " { end += 1 }
                    if end < body.count { column = end }
                    break
                }
                index += 1
            }
            if let column, column <= width - 24 {
                let head = String(body[..<column])
                let described = ParityText.wrapText(String(body[column...]), width: width - column)
                return [head + described[0]] + described.dropFirst().map { String(repeating: " ", count: column) + $0 }
            }
            // A column too far right for the width: the option on its line, its description under it, indented.
            if let column {
                var head = String(body[..<column])
                while head.hasSuffix(" ") { head.removeLast() }
                let under = indent + 4
                return [head] + ParityText.wrapText(String(body[column...]), width: width - under).map { String(repeating: " ", count: under) + $0 }
            }
            let hanging = min(indent + 2, width / 2)
            let first = ParityText.wrapText(String(body[indent...]), width: width - indent)
            let rest = ParityText.wrapText(first.dropFirst().joined(separator: " "), width: width - hanging)
            return [String(repeating: " ", count: indent) + first[0]]
                + (first.count > 1 ? rest.map { String(repeating: " ", count: hanging) + $0 } : [])
        }.joined(separator: "\n")
    }
}
