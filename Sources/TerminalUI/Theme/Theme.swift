import Foundation
import JSONText

/// A text attribute a theme can ask for, by the name a theme file gives it.
public enum TextAttribute: String, Sendable, CaseIterable, Hashable {
    case bold, dim, underline, reverse, standout, italic
}

/// The attributes of a style: a bit each. (An option set rather than a `Set<TextAttribute>`: a generic set's
/// metadata is looked up by the Swift runtime on first use, on the path to the first frame.)
public struct TextAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ attribute: TextAttribute) {
        self.init(rawValue: 1 << UInt8(TextAttribute.allCases.firstIndex(of: attribute)!))
    }

    public static let bold = TextAttributes(.bold)
    public static let dim = TextAttributes(.dim)
    public static let underline = TextAttributes(.underline)
    public static let reverse = TextAttributes(.reverse)
    public static let standout = TextAttributes(.standout)
    public static let italic = TextAttributes(.italic)
}

/// A terminal colour: the terminal's default, or a palette index (0–7 the basic colours, 8–15 the bright
/// ones, up to 255 where the terminal has them).
public enum ThemeColor: Sendable, Hashable {
    case terminalDefault
    case index(Int)

    static let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    init?(_ word: String) {
        if word == "default" {
            self = .terminalDefault
        } else if let index = Self.names.firstIndex(of: word) {
            self = .index(index)
        } else if word.hasPrefix("bright-"), let index = Self.names.firstIndex(of: String(word.dropFirst(7))) {
            self = .index(index + 8)
        } else if let number = Int(word), (0...255).contains(number) {
            self = .index(number)
        } else {
            return nil
        }
    }
}

/// How one role looks.
public struct Style: Sendable, Hashable {
    public var foreground: ThemeColor?
    public var background: ThemeColor?
    public var attributes: TextAttributes

    public init(foreground: ThemeColor? = nil, background: ThemeColor? = nil, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }
}

/// A theme: a style for every role.
public struct Theme: Sendable {
    public let name: String
    public let styles: [Role: Style]

    public func style(_ role: Role) -> Style { styles[role] ?? Style() }

    /// Whether any role uses a colour (a monochrome theme uses attributes only).
    public var usesColor: Bool {
        styles.values.contains { $0.foreground != nil || $0.background != nil }
    }

    /// The theme on a terminal without colours: each style whose background stands apart from the text's (a focused
    /// button, the menu's selection, the status line, an error) is drawn in reverse video, as its colour no longer
    /// marks it. high-contrast's focused and other buttons were both bold on a vt100, so Tab showed nothing.
    public var withoutColours: Theme {
        let text = style(.text).background
        var styles = styles
        for (role, style) in styles where style.background != nil && style.background != .terminalDefault && style.background != text {
            styles[role]?.attributes.insert(.reverse)
        }
        return Theme(name: name, styles: styles)
    }

    /// Parses a theme file. Roles it leaves out take the default theme's style.
    ///
    /// ```
    /// # role = [attributes…] [foreground] [on background]
    /// title = bold white on blue
    /// field.focused = reverse
    /// ```
    /// Every problem of the file is reported, one a line, as `scenario check` reports a scenario's: a file with six
    /// took six runs.
    public static func parse(_ text: String, source: String, base: Theme? = nil) throws(ThemeError) -> Theme {
        var styles = base?.styles ?? [:]
        var seen: [Role] = []
        var problems: [ThemeError] = []
        // A Swift string holds CRLF as one Character, "\r\n", which is not "\n": a file with CRLF line ends is
        // split on it too.
        // A byte-order mark (an editor's "UTF-8 with BOM") is no part of the first key: "title" was an unknown key.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        // A CR alone ends a line too (classic Mac OS), as it does in scenario files: the whole file read as line 1.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for (offset, rawLine) in lines.enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = Self.trim(line)
            if trimmed.isEmpty { continue }
            let number = offset + 1
            // A place in the line, counted in characters from 1: errors point at a word instead of quoting it.
            func column(_ word: Substring) -> Int { rawLine.distance(from: rawLine.startIndex, to: word.startIndex) + 1 }
            guard let equals = trimmed.firstIndex(of: "=") else {
                problems.append(ThemeError(file: source, line: number, column: column(trimmed), key: nil, message: "expected \"role = style\""))
                continue
            }
            let keyText = Self.trim(trimmed[..<equals])
            // In any case, as its words are read (`Status = red` was an unknown key).
            guard let role = Role(rawValue: keyText.lowercased()) else {
                // The likely key by name (`titel`), never the text given, which may be anything pasted.
                let keys = Role.allCases.map(\.rawValue)
                problems.append(ThemeError(file: source, line: number, column: column(keyText), key: nil,
                                           message: "unknown key\(KeySuggestion.hint(for: String(keyText), among: keys)); keys: \(keys.joined(separator: ", "))"))
                continue
            }
            let key = role.rawValue
            guard !seen.contains(role) else {
                problems.append(ThemeError(file: source, line: number, column: column(keyText), key: key, message: "set twice"))
                continue
            }
            seen.append(role)
            // Words apart by spaces or tabs alike ("bold<TAB>cyan" was one unknown word).
            let words = trimmed[trimmed.index(after: equals)...].split(omittingEmptySubsequences: true) { $0 == " " || $0 == "\t" }
                .map { Self.trim($0) }.filter { !$0.isEmpty }
            // Nothing after `=`: the place after it.
            let after = trimmed[trimmed.index(after: equals)...]
            // `title = #ff0000` (or `bold #ff0000`, `white on #000000`): the colour was read as a comment, and the
            // style said "no style given", or was taken without it.
            if let comment = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first,
                comment.count >= 3, comment.prefix(6).allSatisfy(\.isHexDigit)
            {
                problems.append(ThemeError(file: source, line: number, column: column(comment) - 1, key: key,
                                           message: "# starts a comment: a colour is a name or a number from 0 to 255, not #rrggbb"))
                continue
            }
            do {
                styles[role] = try parseStyle(words[...], file: source, line: number, key: key, column: column, end: column(after))
            } catch {
                problems.append(error)
            }
        }
        if var first = problems.first {
            first.more = Array(problems.dropFirst())
            throw first
        }
        return Theme(name: source, styles: styles)
    }

    /// Spaces, tabs and carriage returns off both ends (without Foundation's CharacterSet, which costs start-up
    /// time), keeping the text's place in its line.
    private static func trim(_ text: Substring) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) }) else {
            return text[text.endIndex...]
        }
        return text[first...last]
    }

    /// The colour (or attribute) a word likely meant, named, never the word itself: a misspelling within two letters
    /// (`brightred`, `magneta`), or the usual other names (`purple` is magenta, `grey` bright-black).
    private static func suggestion(for word: Substring, attributes: Bool) -> String {
        let synonyms = ["purple": "magenta", "violet": "magenta", "grey": "bright-black", "gray": "bright-black", "orange": "208"]
        if let meant = synonyms[word.lowercased()] { return "; did you mean \"\(meant)\"?" }
        // Blink is no attribute here (it read "did you mean black?"), and a bright colour is one word (`bright red` had
        // no hint): a theme author's tries.
        if word.lowercased() == "blink" { return "; blink is not offered (many terminals ignore it, and it distracts)" }
        if word.lowercased() == "bright" { return "; a bright colour is one word, as bright-red" }
        let colours = ["default"] + ThemeColor.names + ThemeColor.names.map { "bright-" + $0 }
        return KeySuggestion.hint(for: word.lowercased(), among: colours + (attributes ? TextAttribute.allCases.map(\.rawValue) : []))
    }

    private static let colourHelp = "a colour is one of black, red, green, yellow, blue, magenta, cyan, white, bright-…, default, or 0 to 255"

    private static func parseStyle(_ words: ArraySlice<Substring>, file: String, line: Int, key: String,
                                   column: (Substring) -> Int, end: Int) throws(ThemeError) -> Style {
        var style = Style()
        var words = words
        guard !words.isEmpty else {
            throw ThemeError(file: file, line: line, column: end, key: key, message: "no style given")
        }
        if words.count == 1 && words.first?.lowercased() == "none" { return style }
        // `none bold` read as "unknown colour or attribute" at `none`, a word the format knows.
        if let none = words.first(where: { $0.lowercased() == "none" }) {
            throw ThemeError(file: file, line: line, column: column(none), key: key,
                             message: "\"none\" stands alone: the terminal's own style, with no attribute or colour beside it")
        }
        while let word = words.first, let attribute = TextAttribute(rawValue: word.lowercased()) {
            style.attributes.insert(TextAttributes(attribute))
            words.removeFirst()
        }
        if let word = words.first, word.lowercased() != "on" {
            guard let color = ThemeColor(word.lowercased()) else {
                throw ThemeError(file: file, line: line, column: column(word), key: key,
                                 message: "unknown colour or attribute\(Self.suggestion(for: word, attributes: true)); attributes: \(TextAttribute.allCases.map(\.rawValue).joined(separator: ", ")); \(colourHelp)")
            }
            style.foreground = color
            words.removeFirst()
        }
        if words.first?.lowercased() == "on" {
            let on = words.removeFirst()
            guard let word = words.first else {
                throw ThemeError(file: file, line: line, column: column(on), key: key, message: "\"on\" needs a background colour")
            }
            guard let color = ThemeColor(word.lowercased()) else {
                throw ThemeError(file: file, line: line, column: column(word), key: key, message: "unknown colour\(Self.suggestion(for: word, attributes: false)); \(colourHelp)")
            }
            style.background = color
            words.removeFirst()
        }
        if let extra = words.first {
            throw ThemeError(file: file, line: line, column: column(extra), key: key, message: "unexpected word; a style is [attributes] [colour] [on colour]")
        }
        return style
    }

    /// The theme `--theme` names, or the one the environment implies: NO_COLOR (set and not empty) selects
    /// monochrome unless a theme is named.
    public static func resolve(_ argument: String?, environment: [String: String]) throws(ThemeError) -> Theme {
        guard let argument else {
            let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            return noColor ? builtIn("monochrome")! : builtIn("default")!
        }
        if let theme = builtIn(argument) { return theme }
        guard FileManager.default.fileExists(atPath: argument) else {
            throw ThemeError(file: argument, line: nil, key: nil, message: "is neither a built-in theme (\(BuiltInThemes.names.joined(separator: ", "))) nor a readable file"
                                 + KeySuggestion.hint(for: argument, among: BuiltInThemes.names))
        }
        let bytes: [UInt8]
        switch TextFile.read(argument, limit: 65_536) {
        case .success(let read): bytes = read
        case .failure(let failure): throw ThemeError(file: argument, line: nil, key: nil, message: failure.description)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // Where, as a scenario file's invalid byte is said (the file alone was named).
            let place = JSONParser.firstInvalidUTF8Position(bytes)
            throw ThemeError(file: argument, line: place?.line, column: place?.column, key: nil, message: "is not UTF-8 text (an invalid byte)")
        }
        return try parse(text, source: argument, base: builtIn("default"))
    }

    /// A built-in theme by name: default, high-contrast, monochrome.
    public static func builtIn(_ name: String) -> Theme? {
        guard let text = BuiltInThemes.text(name) else { return nil }
        // The built-in texts are checked by tests; a parse failure here is a programming error.
        guard let theme = try? parse(text, source: name) else { preconditionFailure("built-in theme \(name) does not parse") }
        return theme
    }
}

/// A theme file that cannot be used: which file, line and key, and why.
public struct ThemeError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    /// Where in the line the word that is wrong starts: the word itself is never quoted back.
    public let column: Int?
    /// A known key (role) only.
    public let key: String?
    public let message: String
    /// The file's other problems, after this one (a theme file's are all reported at once).
    public var more: [ThemeError] = []

    /// This problem and the others, each as ``description`` says it: one line each, the first 20 (a 64 KiB text
    /// named as a theme gave thousands), then how many more.
    public var lines: [String] {
        let all = [self] + more
        return all.prefix(20).map(\.description) + (all.count > 20 ? ["theme \(file): \(all.count - 20) more problems"] : [])
    }

    public init(file: String, line: Int?, column: Int? = nil, key: String?, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// `theme FILE:LINE:COLUMN: key "title": message`, placed as a scenario's problems and compilers' are.
    public var description: String {
        let place = "theme \(file)" + (line.map { ":\($0)" } ?? "") + (line != nil ? column.map { ":\($0)" } ?? "" : "")
        return "\(place): " + (key.map { "key \"\($0)\": " } ?? "") + message
    }
}
