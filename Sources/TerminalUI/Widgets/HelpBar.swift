import LocaleText
/// The one-line bar of the current screen's keys, and the full help overlay.
enum HelpBar {
    /// The keys that stay when the bar is too narrow for all: how to leave, and how to get help (an entry that names
    /// one of them among others, "esc ?", stays too).
    static let essential: Set<String> = ["esc", "?", "F1"]

    static func draw(_ buffer: inout ScreenBuffer, row: Int, keys: [(String, String)]) {
        func width(_ entries: [(String, String)]) -> Int {
            entries.enumerated().reduce(1) { $0 + CharacterWidth.of($1.element.0) + 1 + CharacterWidth.of($1.element.1) + ($1.offset == 0 ? 0 : 3) }
        }
        // Too narrow: the last keys that are not essential go first.
        var shown = keys
        func isEssential(_ key: String) -> Bool { key.split(separator: " ").contains { essential.contains(String($0)) } }
        while width(shown) > buffer.width, let drop = shown.lastIndex(where: { !isEssential($0.0) }) {
            shown.remove(at: drop)
        }
        var column = 1
        for (index, (key, description)) in shown.enumerated() {
            let entry = CharacterWidth.of(key) + 1 + CharacterWidth.of(description) + (index == 0 ? 0 : 3)
            guard column + entry <= buffer.width else { break }
            if index > 0 { column += buffer.put(" · ", row: row, column: column, role: .helpDescription) }
            column += buffer.put(key, row: row, column: column, role: .helpKey)
            column += buffer.put(" " + description, row: row, column: column, role: .helpDescription)
        }
    }

    static let allKeys: [(String, String)] = [
        ("↑ ↓ tab shift-tab", "move focus"),
        ("j k home end 1-\(MenuItem.all.count)", "move in a menu (a digit: to that item)"),
        ("enter", "next field; submit on the last; select"),
        ("esc", "cancel the flow; back from a result"),
        ("← → home end", "move in a field"),
        ("backspace delete", "delete"),
        ("ctrl-a ctrl-e", "start / end of the field"),
        ("ctrl-u ctrl-k ctrl-w", "clear before / after / delete word"),
        ("alt-b alt-f", "a word back / forward (ctrl-← ctrl-→ too)"),
        ("alt-d alt-bksp", "delete the next / the previous word"),
        ("F4", "test data: a demo user; the test cards"),
        ("space", "choose an option; press the focused button"),
        ("a r", "approve / refuse on the other device"),
        ("↑↓ on a result", "scroll its lines when they do not all show"),
        ("pgup pgdn", "scroll the SDK event log (the history's and a transcript's own rows there)"),
        ("tab or F6", "into the log (F6 from a form too): ↑↓ select, home end, enter details, / filter (no form waiting); esc, tab or F6 back"),
        ("end in the log", "follow the newest events again"),
        ("/ in the log", "filter: enter keeps, esc clears, ctrl-w ctrl-u delete"),
        ("z in the log or diagram", "zoom it over the panel, and back (not while a form waits)"),
        ("v", "the log as a sequence diagram (and back)"),
        ("f or F2", "faults panel: switch faults on and off, live (x: all off)"),
        ("1 2 3 on the comparison", "the guide's steps; its code as written; a wrong one (j k, space b scroll)"),
        ("h or F3", "history of flows (/ filters them), with transcripts (read as the log: enter details, / filter, v diagram)"),
        ("? or F1", "this help (in a text field ? types itself)"),
        ("q", "quit from the home screen; back from a result, the history, a transcript or the faults panel"),
        ("ctrl-c", "quit from anywhere (exit 130)"),
        ("ctrl-z", "suspend; fg resumes"),
        ("ctrl-l", "draw the screen again"),
    ]

    /// The overlay's width on a screen this wide, and its lines: a key, its description wrapped at word
    /// boundaries (never cut), continuation lines with no key.
    static func overlayLayout(screenWidth: Int, keys: [(String, String)] = allKeys) -> (width: Int, keyWidth: Int, lines: [(key: String, text: String)]) {
        let keyWidth = keys.map { CharacterWidth.of($0.0) }.max() ?? 0
        let width = min(screenWidth - 4, keyWidth + 50)
        var lines: [(key: String, text: String)] = []
        for (key, description) in keys {
            // The blank line between the screen's keys and every key.
            if key.isEmpty && description.isEmpty {
                lines.append(("", ""))
                continue
            }
            for (index, line) in Wrap.lines(description, width: max(8, width - keyWidth - 5)).enumerated() {
                lines.append((index == 0 ? key : "", line))
            }
        }
        return (width, keyWidth, lines)
    }

    /// How many lines the overlay shows on a screen of this size.
    static func overlayRows(width: Int, height: Int, keys: [(String, String)] = allKeys) -> Int {
        max(1, min(Frame.overlayHeight(screen: height), overlayLayout(screenWidth: width, keys: keys).lines.count + 3) - 3)
    }

    /// The lines where a key starts (its description's first line).
    static func overlayStarts(width: Int, keys: [(String, String)] = allKeys) -> [Int] {
        overlayLayout(screenWidth: width, keys: keys).lines.enumerated().filter { !$0.element.key.isEmpty }.map(\.offset)
    }

    /// How far the overlay scrolls on a screen of this size: to the first key from which its last line is shown.
    /// A page starts at a key, never on a description's continuation line.
    static func overlayLastScroll(width: Int, height: Int, keys: [(String, String)] = allKeys) -> Int {
        let count = overlayLayout(screenWidth: width, keys: keys).lines.count
        let rows = overlayRows(width: width, height: height, keys: keys)
        return overlayStarts(width: width, keys: keys).first { count - $0 <= rows } ?? max(0, count - rows)
    }

    /// The lines shown from `scroll`: whole keys only (the last is left for the next page when its description
    /// does not fit), unless one key alone is longer than the page.
    static func overlayPage(width: Int, height: Int, scroll: Int, keys: [(String, String)] = allKeys) -> Range<Int> {
        let count = overlayLayout(screenWidth: width, keys: keys).lines.count
        let rows = overlayRows(width: width, height: height, keys: keys)
        let first = overlayFirst(width: width, height: height, scroll: scroll, keys: keys)
        let ends = overlayStarts(width: width, keys: keys).filter { $0 > first && $0 <= first + rows } + (count <= first + rows ? [count] : [])
        return first..<(ends.max() ?? min(count, first + rows))
    }

    /// The first line shown from `scroll`: the start of the key that line belongs to (a resize rewraps the
    /// descriptions, so a page's first line at one width can be a continuation line at another).
    static func overlayFirst(width: Int, height: Int, scroll: Int, keys: [(String, String)] = allKeys) -> Int {
        let first = min(max(0, scroll), overlayLastScroll(width: width, height: height, keys: keys))
        return overlayStarts(width: width, keys: keys).last { $0 <= first } ?? first
    }

    /// Where a key moves the overlay from `scroll`: a key (↑↓) or a page (PgUp PgDn) at a time, always to a key.
    static func overlayScroll(from scroll: Int, by key: Key, width: Int, height: Int, keys: [(String, String)] = allKeys) -> Int {
        let scroll = overlayFirst(width: width, height: height, scroll: scroll, keys: keys)
        let starts = overlayStarts(width: width, keys: keys)
        let last = overlayLastScroll(width: width, height: height, keys: keys)
        let rows = overlayRows(width: width, height: height, keys: keys)
        switch key {
        case .down, .character("j"): return min(last, starts.first { $0 > scroll } ?? last)
        case .up, .character("k"): return starts.last { $0 < scroll } ?? 0
        // A page at a time, as less does: the next page starts where this one ended.
        // (A key longer than a page ends its page mid-description: the next page starts at the next key.)
        case .pageDown, .character(" "):
            let end = overlayPage(width: width, height: height, scroll: scroll, keys: keys).upperBound
            return min(last, starts.first { $0 >= end } ?? last)
        case .pageUp: return starts.first { $0 >= scroll - rows && $0 < scroll } ?? 0
        case .end: return last
        case .home: return 0
        default: return scroll
        }
    }

    /// The keys the overlay lists over a screen whose help bar shows `screen`: those first, as lazygit's and k9s's
    /// help lists the view's own keys before the rest (the same list on every screen began with a form's editing
    /// keys over the faults panel), then a blank line and every key.
    static func overlayKeys(screen: [(String, String)]) -> [(String, String)] {
        screen.isEmpty ? allKeys : screen + [("", "")] + allKeys
    }

    /// The overlay of `keys`, from `scroll` when they do not all fit (↑↓ scroll it; the title says so).
    static func drawOverlay(_ buffer: inout ScreenBuffer, scroll: Int = 0, keys: [(String, String)] = allKeys) {
        let (width, keyWidth, lines) = overlayLayout(screenWidth: buffer.width, keys: keys)
        let height = min(Frame.overlayHeight(screen: buffer.height), lines.count + 3)
        let rows = overlayRows(width: buffer.width, height: buffer.height, keys: keys)
        let page = overlayPage(width: buffer.width, height: buffer.height, scroll: scroll, keys: keys)
        let top = max(1, (buffer.height - height) / 2)
        let left = max(2, (buffer.width - width) / 2)
        let more = rows < lines.count ? " (\(page.lowerBound + 1)–\(page.upperBound) of \(lines.count), ↑↓ scroll)" : ""
        Frame.drawOverlay(&buffer, top: top, left: left, width: width, height: height,
                          title: CharacterWidth.truncate("Keys — ? or F1 closes" + more, to: width - 4))
        for (index, line) in lines[page].enumerated() {
            let row = top + 2 + index
            buffer.put(line.key, row: row, column: left + 2, role: .helpKey)
            buffer.put(line.text, row: row, column: left + 3 + keyWidth, role: .helpDescription, limit: width - keyWidth - 5)
        }
    }
}
