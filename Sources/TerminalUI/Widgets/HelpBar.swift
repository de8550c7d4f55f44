/// The one-line bar of the current screen's keys, and the full help overlay.
enum HelpBar {
    static func draw(_ buffer: inout ScreenBuffer, row: Int, keys: [(String, String)]) {
        var column = 1
        for (index, (key, description)) in keys.enumerated() {
            let entry = CharacterWidth.of(key) + 1 + CharacterWidth.of(description) + (index == 0 ? 0 : 3)
            guard column + entry <= buffer.width else { break }
            if index > 0 { column += buffer.put(" · ", row: row, column: column, role: .helpDescription) }
            column += buffer.put(key, row: row, column: column, role: .helpKey)
            column += buffer.put(" " + description, row: row, column: column, role: .helpDescription)
        }
    }

    static let allKeys: [(String, String)] = [
        ("↑ ↓ tab shift-tab", "move focus"),
        ("enter", "next field; submit on the last; select"),
        ("esc", "cancel the flow; back from a result"),
        ("← → home end", "move in a field"),
        ("backspace delete", "delete"),
        ("ctrl-a ctrl-e", "start / end of the field"),
        ("ctrl-u ctrl-k ctrl-w", "clear before / after / delete word"),
        ("space", "choose an option (select challenges)"),
        ("a r", "approve / refuse on the other device"),
        ("pgup pgdn", "scroll the SDK event log"),
        ("f or F2", "faults panel: switch faults on and off, live"),
        ("h or F3", "history of flows, with transcripts"),
        ("? or F1", "this help (in a text field ? types itself)"),
        ("q", "quit, from the home screen"),
        ("ctrl-c", "quit from anywhere (exit 130)"),
        ("ctrl-z", "suspend; fg resumes"),
    ]

    static func drawOverlay(_ buffer: inout ScreenBuffer) {
        let keyWidth = allKeys.map { CharacterWidth.of($0.0) }.max() ?? 0
        let width = min(buffer.width - 4, keyWidth + 50)
        let height = min(buffer.height - 2, allKeys.count + 4)
        let top = max(1, (buffer.height - height) / 2)
        let left = max(2, (buffer.width - width) / 2)
        buffer.fill(top: top, left: left, width: width, height: height, role: .text)
        Frame.draw(&buffer, top: top, left: left, width: width, height: height, title: "Keys — ? closes")
        for (index, (key, description)) in allKeys.prefix(height - 4).enumerated() {
            let row = top + 2 + index
            buffer.put(key, row: row, column: left + 2, role: .helpKey)
            buffer.put(description, row: row, column: left + 3 + keyWidth, role: .helpDescription,
                       limit: width - keyWidth - 5)
        }
    }
}
