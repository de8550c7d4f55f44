import CTextWidth

/// Text for a terminal whose locale is not UTF-8 (`LC_ALL=C`, or no locale set at all) — plain mode's, `--help`'s
/// and the one-line errors on standard error: the symbols spelled in ASCII, so that a serial console, an old
/// terminal or a log read as ASCII gets words, not mojibake. docs/terminal.md lists them.
public enum PlainASCII {
    /// Whether the user's locale is UTF-8: by its codeset when the locale is installed, else by its name. Asked
    /// once: the environment it is read from does not change under a running process.
    public static let localeIsUTF8 = idp_user_locale_is_utf8() != 0

    /// `text` as the user's locale can show it: as it is under a UTF-8 locale, else in ASCII (``text(_:)``).
    public static func forUserLocale(_ text: String) -> String {
        localeIsUTF8 ? text : self.text(text)
    }

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
