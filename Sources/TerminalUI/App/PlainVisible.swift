import FlowRecords

extension TerminalApp {
    /// Plain mode's text as it goes to the terminal: every control character but the line end written as `\x1B`
    /// (``VisibleText``), so that what a crafted state file holds (the device's user, an event's detail) cannot
    /// retitle, colour or clear the terminal, as the drawn UI never draws it.
    public static func plainVisible(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { VisibleText.escaped(String($0)) }.joined(separator: "\n")
    }

    /// A line holding an escape sequence (an arrow, Home, Delete …) but no lone Esc: a terminal's line editing
    /// cannot move the cursor, so the keys came in as text. Asked again rather than cancelled or taken as typed.
    public static func refusedForEscapes(_ line: String) -> String? {
        let bytes = Array(line.utf8)
        var sequences = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B else {
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { return nil }  // a lone Esc: the line cancels
            var end = index + 2
            switch bytes[index + 1] {
            case UInt8(ascii: "["), UInt8(ascii: "O"):
                // CSI: parameters and intermediates up to a final byte; SS3: one final byte.
                if bytes[index + 1] == UInt8(ascii: "[") {
                    while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
                }
                // Cut short by the line's end (Esc [ typed as Alt-[): a sequence all the same, not a cancel.
                if end >= bytes.count { end = bytes.count - 1 } else if !(0x40...0x7E).contains(bytes[end]) { return nil }
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
                // OSC, DCS, APC, PM, SOS: a string up to BEL or ST (Esc \), or to the line's end.
                while end < bytes.count, bytes[end] != 0x07, !(bytes[end] == 0x1B && end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "\\")) {
                    end += 1
                }
                if end < bytes.count, bytes[end] == 0x1B { end += 1 }
            case 0x20...0x7F:
                // An Alt key (Alt-x is Esc x, Alt-Backspace Esc DEL); an Esc with a key typed after it on the line is
                // not a cancel either.
                end = index + 1
            case 0xC0...0xFF:
                // Alt and a letter beyond ASCII (Alt-é): the whole character.
                end = index + 1
                while end + 1 < bytes.count, bytes[end + 1] & 0xC0 == 0x80 { end += 1 }
            default:
                return nil  // Esc Esc, or Esc and a control character: the line cancels
            }
            sequences += 1
            index = end + 1
        }
        guard sequences > 0 else { return nil }
        return "arrow and editing keys do not move the cursor here: type the answer again (Backspace and Ctrl-U edit the line)"
    }
}
