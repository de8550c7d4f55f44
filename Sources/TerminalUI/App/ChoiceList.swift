import LocaleText
/// A numbered list with one entry selected (`▸ 2 Log in`): the home menu, and the Q2 sign-in's choice about its
/// saved credential. ↑↓, j k, Tab and Shift-Tab move round it, Home and End go to its ends, a digit to the entry
/// of that number (as dialog's and whiptail's menus do); Enter chooses, and a click selects and chooses. (PgUp and
/// PgDn scroll the event log below the list.)
enum ChoiceList {
    /// The selection after `key`, or nil when the key does not move it.
    static func selection(after key: Key, from selection: Int, count: Int) -> Int? {
        switch key {
        case .up, .backTab, .character("k"): (selection - 1 + count) % count
        case .down, .tab, .character("j"): (selection + 1) % count
        case .home: 0
        case .end: count - 1
        case .character(let digit) where digit.wholeNumberValue.map { (1...count).contains($0) } == true: (digit.wholeNumberValue ?? 1) - 1
        default: nil
        }
    }

    /// The entries from `top`, at most `rows` of them, each `width` columns wide (the selected one filled) and
    /// clickable, its click target's stop its index.
    /// `focused`: the list has the keys; without them (the log has) its selection keeps its marker, not its highlight.
    /// More entries than rows: the window keeps the selection in sight (from the first entry while it fits there,
    /// else ending at it), and an arrow at the right end of its first or last row says that entries are hidden
    /// above or below, as dialog's menus do.
    static func draw(_ buffer: inout ScreenBuffer, _ titles: [String], selection: Int, top: Int, left: Int, width: Int, rows: Int,
                     focused: Bool = true) {
        guard rows > 0, width > 0 else { return }
        let first = min(max(0, selection - rows + 1), max(0, titles.count - rows))
        let shown = titles.indices.dropFirst(first).prefix(rows)
        // A list cut short keeps its last two columns for the arrows, out of every entry's text.
        let windowed = titles.count > rows && width > 2
        let textWidth = windowed ? width - 2 : width
        for index in shown {
            let row = top + index - first
            buffer.targets.append(ClickTarget(row: row, column: left, width: width, stop: index))
            let text = CharacterWidth.truncate("\(index == selection ? "▸" : " ") \(index + 1) \(titles[index])", to: textWidth)
            let role: Role = index == selection && focused ? .menuFocused : .text
            if role == .menuFocused { buffer.fill(row: row, column: left, count: width, role: role) }
            buffer.put(text, row: row, column: left, role: role)
            guard windowed else { continue }
            let arrow = index == first && first > 0 ? "↑" : index == shown.last && index < titles.count - 1 ? "↓" : nil
            if let arrow { buffer.put(arrow, row: row, column: left + width - 1, role: role == .menuFocused ? role : .hint) }
        }
    }
}
