import CTextWidth

/// Plain mode's text for a terminal whose locale is not UTF-8 (`LC_ALL=C`, or no locale set at all): the
/// symbols spelled in ASCII, so that a serial console, an old terminal or a log read as ASCII gets words, not
/// mojibake. docs/terminal.md lists them.
public enum PlainASCII {
    /// Whether the user's locale is UTF-8: by its codeset when the locale is installed, else by its name.
    public static var localeIsUTF8: Bool { idp_user_locale_is_utf8() != 0 }

    /// Each symbol the app prints, in ASCII.
    static let spellings: [Character: String] = [
        "✓": "ok", "✗": "x", "✕": "x", "⊘": "-",
        "→": "->", "←": "<-", "⇢": "~>", "⇠": "<~", "⚡": "!", "⚠": "!",
        "·": "-", "•": "*", "…": "...", "—": "--", "–": "-", "›": ">",
        "↑": "^", "↓": "v", "×": "x", "µ": "u", "≠": "!=",
        "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+", "●": "*", "◀": "<", "▶": ">", "▸": ">", "▏": "|",
    ]

    /// `text` in ASCII: the symbols spelled out, any other character outside ASCII (a name typed in another
    /// script) as `?`, as `ls` shows it under the C locale.
    public static func text(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if character.isASCII {
                result.append(character)
            } else {
                result += spellings[character] ?? "?"
            }
        }
        return result
    }
}
