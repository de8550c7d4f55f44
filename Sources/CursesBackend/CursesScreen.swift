import CNcurses
import TerminalUI

/// Puts a ``ScreenBuffer`` on the terminal through ncurses, writing only the cells that changed since the
/// last frame (curses then sends only what differs from the terminal).
final class CursesScreen {
    private var previous: ScreenBuffer?
    private var cursorVisible: Bool?
    private var looks: [Role: (attributes: UInt32, pair: Int16)] = [:]

    init(theme chosen: Theme) {
        // A terminal without colours (vt100, xterm-mono) is drawn in monochrome unless a theme was named: the default's
        // attributes are chosen beside its colours, and without them the selected history row was bold, as every
        // failure row was. Monochrome's focus is reverse video. A theme the user named keeps its attributes, as
        // `--theme` wins over NO_COLOR.
        // A named theme's backgrounds that marked something (a focused button) are reverse video then.
        let noColours = idp_curses_has_colors() == 0 && chosen.usesColor
        let theme = !noColours ? chosen : chosen.name == "default" ? Theme.builtIn("monochrome") ?? chosen : chosen.withoutColours
        let colors = idp_curses_has_colors() != 0 && theme.usesColor
        let palette = Int(idp_curses_colors())
        var pairs: [String: Int16] = [:]
        for role in Role.allCases {
            let style = theme.style(role)
            var pair: Int16 = 0
            let foreground = Self.colorIndex(style.foreground, palette: palette)
            let background = Self.colorIndex(style.background, palette: palette)
            // The terminal's own colours are pair 0: a pair for them would cost an SGR on every write.
            if colors, foreground != -1 || background != -1 {
                let key = "\(foreground)/\(background)"
                if let existing = pairs[key] {
                    pair = existing
                } else {
                    pair = Int16(pairs.count + 1)
                    pairs[key] = pair
                    idp_curses_init_pair(pair, foreground, background)
                }
            }
            looks[role] = (Self.attributes(style.attributes), pair)
        }
    }

    private static func colorIndex(_ color: ThemeColor?, palette: Int) -> Int16 {
        switch color {
        case nil, .terminalDefault?: -1
        case .index(let index)?: Int16(ThemeColor.fitted(index, palette: palette))
        }
    }

    private static func attributes(_ set: TextAttributes) -> UInt32 {
        var value: UInt32 = 0
        if set.contains(.bold) { value |= idp_attr_bold() }
        if set.contains(.dim) { value |= idp_attr_dim() }
        if set.contains(.underline) { value |= idp_attr_underline() }
        if set.contains(.reverse) { value |= idp_attr_reverse() }
        if set.contains(.standout) { value |= idp_attr_standout() }
        if set.contains(.italic) { value |= idp_attr_italic() }
        return value
    }

    /// Forgets the last frame so that the next draw repaints everything (after a resize or a resume).
    func invalidate() {
        previous = nil
        idp_curses_clear()
    }

    func draw(_ buffer: ScreenBuffer) {
        let old = previous.flatMap { $0.width == buffer.width && $0.height == buffer.height ? $0 : nil }
        if old == nil { idp_curses_clear() }
        for row in 0..<buffer.height {
            var column = 0
            while column < buffer.width {
                guard old.map({ $0[row, column] != buffer[row, column] }) ?? true else {
                    column += 1
                    continue
                }
                // A run of changed cells with one role, starting on a whole character.
                var start = column
                while start > 0, buffer[row, start].character == nil { start -= 1 }
                let role = buffer[row, start].role
                var end = start
                var scalars: [wchar_t] = []
                while end < buffer.width, buffer[row, end].role == role,
                    end == start || (old.map { $0[row, end] != buffer[row, end] } ?? true)
                        || buffer[row, end].character == nil
                {
                    if let character = buffer[row, end].character {
                        scalars.append(contentsOf: character.unicodeScalars.map { wchar_t(bitPattern: $0.value) })
                    }
                    end += 1
                }
                let look = looks[role] ?? (0, 0)
                idp_curses_put(Int32(row), Int32(start), scalars, Int32(scalars.count), look.attributes, look.pair)
                column = end
            }
        }
        let visible = buffer.cursor != nil
        if cursorVisible != visible {
            idp_curses_cursor(visible ? 1 : 0)
            cursorVisible = visible
        }
        if let cursor = buffer.cursor { idp_curses_move(Int32(cursor.row), Int32(cursor.column)) }
        idp_curses_refresh()
        previous = buffer
    }
}
