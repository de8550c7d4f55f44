import JSONText

/// Strings the reader takes only in some forms: names told apart by sight, and words from a fixed list.
extension ScenarioReader {
    /// A name people tell apart by sight (a user name): a string without invisible formatting characters
    /// (Unicode's Cf: zero-width space, soft hyphen, direction marks, joiners), with which "alice" and "ali\u{200B}ce"
    /// showed alike in every list while the IdP told them apart.
    mutating func name(_ node: JSONNode?, _ path: @autoclosure () -> String, maxLength: Int) -> String? {
        guard let text = string(node, path(), maxLength: maxLength) else { return nil }
        if let invisible = text.unicodeScalars.first(where: { $0.properties.generalCategory == .format }) {
            problem(path(), node, "contains an invisible formatting character (U+\(Self.hex(invisible.value))), with which one name shows as another")
            return nil
        }
        return text
    }

    /// A code point as Unicode writes it, four hex digits at least: U+00AD, U+200B, U+E0001.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// One of `words` (a lookup outcome, a challenge's UI type, a fault): anything else is refused naming them all
    /// and the one it was likely meant to be (another case, or up to two letters off: "Timeout", "timout").
    /// `alsoAllowed`: what else the key takes, for the message ("or null (no fault)").
    mutating func word(_ node: JSONNode?, _ path: @autoclosure () -> String, among words: [String], alsoAllowed: String = "") -> String? {
        guard let node, let text = string(node, path(), maxLength: 40) else { return nil }
        if words.contains(text) { return text }
        let meant = words.first { $0.lowercased() == text.lowercased() } ?? KeySuggestion.closest(to: text, among: words)
        problem(path(), node, "must be one of \(words.joined(separator: ", "))\(alsoAllowed)\(meant.map { " (did you mean \($0)?)" } ?? "")")
        return nil
    }
}
