import LocaleText
/// A box with an optional title in its top border.
enum Frame {
    /// The most rows an overlay (the help, an event shown whole) takes on a screen `height` rows tall: from under the
    /// title row down to above the status row, which stays in view (a prompt's countdown is there; an overlay over
    /// it left its ends beside the frame, " t└────┘d").
    static func overlayHeight(screen height: Int) -> Int { height - 3 }

    /// An overlay's box over the screen: cleared, framed and titled.
    static func drawOverlay(_ buffer: inout ScreenBuffer, top: Int, left: Int, width: Int, height: Int, title: String) {
        buffer.fill(top: top, left: left, width: width, height: height, role: .text)
        draw(&buffer, top: top, left: left, width: width, height: height, title: title)
    }

    static func draw(_ buffer: inout ScreenBuffer, top: Int, left: Int, width: Int, height: Int, title: String?,
                     titleRole: Role = .title) {
        guard width >= 2, height >= 2 else { return }
        let bottom = top + height - 1
        let right = left + width - 1
        buffer.put("┌", row: top, column: left, role: .border)
        buffer.fill(row: top, column: left + 1, count: width - 2, character: "─", role: .border)
        buffer.put("┐", row: top, column: right, role: .border)
        for row in (top + 1)..<bottom {
            buffer.put("│", row: row, column: left, role: .border)
            buffer.put("│", row: row, column: right, role: .border)
        }
        buffer.put("└", row: bottom, column: left, role: .border)
        buffer.fill(row: bottom, column: left + 1, count: width - 2, character: "─", role: .border)
        buffer.put("┘", row: bottom, column: right, role: .border)
        if let title, width > 6 {
            buffer.put(" \(CharacterWidth.truncate(title, to: width - 6)) ", row: top, column: left + 2, role: titleRole)
        }
    }
}

/// Wraps text to a width, at spaces where it can.
enum Wrap {
    static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if CharacterWidth.of(candidate) <= width {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            var rest = String(word)
            while CharacterWidth.of(rest) > width {
                var head = CharacterWidth.prefix(rest, fitting: width)
                // A word's closing punctuation is not left alone on a line (a long JSON value's `",` was): back past
                // the head's own closing marks, and one letter more.
                let closing = { (character: Character) in ",;:.)]}\"".contains(character) }
                if head.count > 1, rest.dropFirst(head.count).allSatisfy(closing) {
                    var cut = head
                    while cut.count > 1, let last = cut.last, closing(last) { cut.removeLast() }
                    if cut.count > 1 { cut.removeLast() }
                    head = cut
                }
                lines.append(head)
                rest = String(rest.dropFirst(head.count))
            }
            current = rest
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// At most `count` lines of `text` wrapped at `width`; when it needs more, the last line ends with "…" where
    /// it is cut, so that a line is never cut without a sign.
    static func lines(_ text: String, width: Int, atMost count: Int) -> [String] {
        let all = lines(text, width: width)
        guard all.count > count, count > 0 else { return all }
        return Array(all.prefix(count - 1)) + [CharacterWidth.truncate(all[count - 1] + " " + all[count], to: width)]
    }
}

extension ScreenBuffer {
    /// `text` on `lines` rows at most from `row`, wrapped at words and ended with "…" if it is longer; returns
    /// the rows used.
    @discardableResult
    mutating func putWrapped(_ text: String, row: Int, column: Int, width: Int, lines: Int = 1, role: Role) -> Int {
        let wrapped = Wrap.lines(text, width: width, atMost: lines)
        for (offset, line) in wrapped.enumerated() { put(line, row: row + offset, column: column, role: role, limit: width) }
        return wrapped.count
    }
}
