import CTextWidth
import FlowRecords

/// How many terminal columns a character takes: 2 for wide East Asian characters and most emoji, 0 for
/// combining marks, else 1. It asks the C library (`wcwidth`) under a UTF-8 locale.
public enum CharacterWidth {
    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.isASCII { return first.value < 0x20 || first.value == 0x7f ? 0 : 1 }
        // C1 controls (a crafted state file's CSI as U+009B), bidirectional controls and line separators take no
        // cell and are never drawn (U+2028, which wcwidth calls unprintable, was given a cell and sent raw).
        if VisibleText.isControl(first) { return 0 }
        let width = Int(idp_wcwidth(first.value))
        guard character.unicodeScalars.count > 1, !isEmojiSequence(character) else { return width < 0 ? 1 : width }
        // A letter with its signs (कि, น้ำ): each scalar's cells, as ncurses writes them one by one, where a spacing
        // vowel sign takes a cell of its own.
        return character.unicodeScalars.dropFirst().reduce(width < 0 ? 1 : width) { cells, scalar in
            cells + (VisibleText.isControl(scalar) ? 0 : max(0, Int(idp_wcwidth(scalar.value))))
        }
    }

    /// An emoji with what modifies or joins it: a skin tone, a joiner, a variation selector, a flag's second letter.
    private static func isEmojiSequence(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        return !first.isASCII && first.properties.isEmoji
    }

    /// `character` as the screen draws it: its first scalar and the combining marks after it (é as e + U+0301),
    /// without what joins or modifies an emoji (a skin tone, a zero-width joiner and what follows it, a variation
    /// selector, a flag's second letter). ncurses lays a cluster out a scalar at a time (👍🏽 in 4 cells), terminals
    /// each their own way (tmux 3.3: 👍🏽 in 4, 👨‍👩‍👧 in 2, ❤️ in 1; others widen ❤️ to 2), while the screen gave
    /// each cluster its first scalar's cells: a field's `]` was pushed out, and old glyphs stayed. Drawn so, a cluster
    /// takes the cells ``of(_:)-(Character)`` gives it everywhere; the text itself (what a field sends) is untouched.
    /// Any other character is drawn whole (a letter with its vowel signs, कि or น้ำ, was cut to its letter).
    public static func drawable(_ character: Character) -> Character {
        let scalars = character.unicodeScalars
        guard scalars.count > 1, isEmojiSequence(character), let first = scalars.first else { return character }
        let marks = scalars.dropFirst().prefix(while: isCombiningMark)
        guard marks.count < scalars.count - 1 else { return character }
        return Character(String(String.UnicodeScalarView([first] + marks)))
    }

    /// A mark drawn in its base character's cell: no width of its own, and not an emoji's joiner, variation selector
    /// or tag.
    private static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200D, 0xFE00...0xFE0F, 0xE0000...0xE01EF: false
        default: idp_wcwidth(scalar.value) == 0 && !VisibleText.isControl(scalar)
        }
    }

    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The longest prefix of `text` that fits in `columns`.
    public static func prefix(_ text: some StringProtocol, fitting columns: Int) -> String {
        var used = 0
        var result = ""
        for character in text {
            let width = of(character)
            if used + width > columns { break }
            used += width
            result.append(character)
        }
        return result
    }

    /// The longest suffix of `text` that fits in `columns`: the end of a line being typed.
    public static func suffix(_ text: some StringProtocol, fitting columns: Int) -> String {
        String(prefix(String(text.reversed()), fitting: columns).reversed())
    }

    /// `text` cut to `columns`, ending in … when it was longer.
    public static func truncate(_ text: some StringProtocol, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        if of(text) <= columns { return String(text) }
        return prefix(text, fitting: columns - 1) + "…"
    }

    /// ``truncate(_:to:)``, but cut after a whole word where the cut would fall inside one: a value cut mid-word reads
    /// as another value ("added latency: +100…" for +1000 ms). A word that began in the first half is cut as it is.
    public static func truncateAtWord(_ text: some StringProtocol, to columns: Int) -> String {
        let cut = truncate(text, to: columns)
        guard cut.hasSuffix("…"), of(text) > columns else { return cut }
        let kept = cut.dropLast()
        let trimming: (Character) -> Bool = { $0 == " " || $0 == "," || $0 == ":" || $0 == "·" }
        // At a word's end already (the next character of `text` is a space): the word whole, and the "…" apart from
        // it ("+1000…" read as a number cut).
        let whole = String(kept).trimmingTrailing(while: trimming)
        if text.dropFirst(kept.count).first == " ", of(whole) + 2 <= columns { return whole + " …" }
        guard let space = kept.lastIndex(of: " "), kept.distance(from: kept.startIndex, to: space) >= kept.count / 2 else { return cut }
        return String(kept[..<space]).trimmingTrailing(while: trimming) + " …"
    }

    /// `line` in lines of at most `columns` terminal columns, as a plain transcript prints it at a terminal: broken
    /// at spaces, a word wider than a line broken where the line ends (nothing is cut), and every line after the
    /// first indented two more than the first's own indent, so that a wrapped line reads as one (a screen reader
    /// reading row by row heard "ACTIVATION_REQUI", "RED" where the terminal broke it).
    public static func wrap(_ line: String, to columns: Int) -> [String] {
        guard of(line) > columns, columns >= 20 else { return [line] }
        let lead = line.prefix { $0 == " " }.count
        let indent = String(repeating: " ", count: min(lead + 2, columns / 2))
        var lines: [String] = []
        var current = String(line.prefix(lead))
        var width = lead
        // Nothing on the current line but its indent yet.
        var fresh = true
        // Where the current line's last word starts, when the line holds another before it.
        var lastWord: String.Index?
        func breakLine() {
            lines.append(String(current.reversed().drop { $0 == " " }.reversed()))
            (current, width, fresh, lastWord) = (indent, indent.count, true, nil)
        }
        for word in line.dropFirst(lead).split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            // The spaces of a column's padding where a line breaks are not carried to the next.
            if word.isEmpty && fresh && !lines.isEmpty { continue }
            if !fresh {
                if width + 1 + of(word) <= columns {
                    current += " "
                    width += 1
                } else if of(word) > columns - indent.count, let first = breakPiece(word, fitting: columns - width - 1, commaOnly: true),
                    !first.isEmpty
                {
                    // A word no line could hold goes on here, in pieces, when its first piece ending after a comma
                    // fits: a new line before it left the last short word alone on its row ("by its" / "own" /
                    // "timer",…). Otherwise it starts on a line of its own: cut to the few columns left after a long
                    // step name, a JSON detail was split inside a key (`{"reques` / `t_id":…`).
                    current += " "
                    width += 1
                } else if of(word) <= 3, let start = lastWord, !word.isEmpty,
                    of(current[start...]) + 1 + of(word) <= columns - indent.count
                {
                    // A short value does not start a line alone: its word goes down with it (a screen reader read
                    // "…, eci" and then "07, challengeCancel 01"; "(+5" and then "s)").
                    let moved = String(current[start...])
                    current = String(current[..<start])
                    breakLine()
                    current += moved + " "
                    width += of(moved) + 1
                } else {
                    breakLine()
                    if word.isEmpty { continue }
                }
            }
            // A word wider than what is left of the line goes on in pieces, each ending after its last comma where it
            // has one, else after its last other punctuation: a JSON detail's ids were split mid-value
            // ("dsTransID":"a7 / e9ee42-…). Only a word with neither is broken where the line ends.
            while width + of(word) > columns {
                let piece = breakPiece(word, fitting: columns - width, commaOnly: false) ?? prefix(word, fitting: columns - width)
                // Nothing fits in what is left (a wide character, one column left): on a new row, never past the edge.
                if piece.isEmpty {
                    guard !fresh else { break }
                    breakLine()
                    continue
                }
                current += piece
                word = word.dropFirst(piece.count)
                breakLine()
            }
            if !fresh, !word.isEmpty, current.last == " " { lastWord = current.endIndex }
            current += word
            width += of(word)
            fresh = false
        }
        lines.append(current)
        return lines
    }

    /// The start of `word` that fits in `columns` and ends after a comma (or, unless `commaOnly`, after other
    /// punctuation that ends a JSON key, value or list: `:` `;` `{` `[` `}` `]` `/` `&` `=`); nil when it has none.
    /// Never inside a word, a key or an id: `_`, `-`, `.` and quotes are no break.
    private static func breakPiece(_ word: Substring, fitting columns: Int, commaOnly: Bool) -> String? {
        let fits = prefix(word, fitting: columns)
        let breaks: Set<Character> = commaOnly ? [","] : [",", ":", ";", "{", "[", "}", "]", "/", "&", "="]
        if let comma = fits.lastIndex(of: ","), comma != fits.startIndex { return String(fits[...comma]) }
        guard let mark = fits.lastIndex(where: breaks.contains), mark != fits.startIndex else { return nil }
        return String(fits[...mark])
    }

    /// `line` wrapped as ``wrap(_:to:)`` does, its first line starting at column `start` (after a question the
    /// cursor waits at the end of): the first line holds what fits after it (of a word no row could hold, its start),
    /// or nothing when the first word does not fit.
    public static func wrap(_ line: String, to columns: Int, from start: Int) -> [String] {
        let start = columns > 0 ? start % columns : 0
        guard start > 0 else { return wrap(line, to: columns) }
        // What precedes, as one word of its width: the line goes on after it, or breaks before its first word.
        let before = String(repeating: "x", count: start)
        var lines = wrap(before + " " + line, to: columns)
        lines[0] = String(lines[0].dropFirst(start).drop { $0 == " " })
        return lines
    }

    /// `rows` as lines of aligned columns: each cell padded to its column's widest cell as the terminal shows it (a
    /// wide character takes two columns, a combining mark none), `gap` spaces between columns; the last cell of a
    /// row is not padded, so no line ends in spaces.
    public static func columns(_ rows: [[String]], gap: Int = 2) -> [String] {
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (column, cell) in row.enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], of(cell))
            }
        }
        let space = String(repeating: " ", count: gap)
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - of(cell))
            }.joined(separator: space)
        }
    }
}

extension String {
    /// Without the trailing characters `drop` takes.
    fileprivate func trimmingTrailing(while drop: (Character) -> Bool) -> String {
        var text = self
        while let last = text.last, drop(last) { text.removeLast() }
        return text
    }
}
