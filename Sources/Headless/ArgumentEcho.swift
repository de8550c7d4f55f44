import Foundation

/// Which words of the command line an error may print. A flow's name, an option's value or a file's path is
/// printed when it looks like one: a value pasted there (`'{"password":"…"}'`, the answers meant for standard
/// input) is named by its place on the command line instead, `[argument 3]`, so that a secret given in the wrong
/// place is never printed back (docs/decisions.md, "What an error echoes").
public enum ArgumentEcho {
    /// The longest word printed.
    public static let maximumLength = 200

    /// Whether `word` may be printed: 1 to 200 characters, none of them a quote, a brace, a bracket, a backslash,
    /// `<` or `>`, a space (any white space) or a control character. Names, numbers and paths without spaces pass
    /// (`activte`, `lose-acks:3`, `/tmp/thème-€.theme`); JSON and phrases do not.
    public static func isShowable(_ word: some StringProtocol) -> Bool {
        !word.isEmpty && word.count <= maximumLength
            && !word.unicodeScalars.contains { scalar in
                scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                    || "\"'`{}[]\\<>".unicodeScalars.contains(scalar)
            }
    }

    /// Whether `word` looks like the answers' JSON: it starts with `{` or `[`.
    public static func looksLikeJSON(_ word: some StringProtocol) -> Bool {
        word.drop { $0 == " " || $0 == "\t" || $0 == "\n" }.first.map { $0 == "{" || $0 == "[" } ?? false
    }

    /// `message` with every argument of `arguments` (the command line after the program's name) that may not be
    /// shown, and the value of every `--option=value` that may not, replaced by its place: `[argument 3]`. Where
    /// the message quotes the word, that quoted occurrence is replaced (quotes and all) and the rest of the message
    /// is the program's own text (`run " login"`: the list of flows keeps its `login`); else the word's last
    /// occurrence, where a message puts the value after its words ("the answers file answers file cannot …" keeps
    /// its first two words). Words shorter than 3 characters are left: they cannot hold a secret.
    public static func redacting(_ message: String, arguments: [String]) -> String {
        var hidden: [(text: String, place: String)] = []
        for (offset, argument) in arguments.enumerated() {
            let place = "[argument \(offset + 1)]"
            // A message that names the word by its place already left it out: its own words stay (`run " login"`
            // lists the flows, login among them).
            if message.contains("argument \(offset + 1) ") { continue }
            if !isShowable(argument) { hidden.append((argument, place)) }
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                let value = argument[argument.index(after: equals)...]
                if !isShowable(value) { hidden.append((String(value), place)) }
            }
        }
        var redacted = message
        // The longest first: a value inside a longer argument is replaced with it.
        for (text, place) in hidden.sorted(by: { $0.text.count > $1.text.count }) where text.count >= 3 {
            if redacted.contains("\"\(text)\"") {
                redacted = redacted.replacingOccurrences(of: "\"\(text)\"", with: place)
            } else if let last = redacted.range(of: text, options: .backwards) {
                redacted.replaceSubrange(last, with: place)
            }
        }
        return redacted
    }
}
