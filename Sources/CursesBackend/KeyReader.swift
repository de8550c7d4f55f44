import CNcurses
import TerminalUI

/// What the keyboard delivered: a key, a pasted text, or a new terminal size.
enum TerminalInput: Equatable {
    case key(Key)
    case paste(String)
    case resize
    case suspend
}

/// Turns ncurses' wide-character reads into ``TerminalInput``, assembling bracketed pastes.
struct KeyReader {
    private var pasting: String?
    private let codes: [Int32: Key]
    private let resizeCode: Int32
    private let pasteBegin: Int32
    private let pasteEnd: Int32

    init() {
        var codes: [Int32: Key] = [:]
        for (name, key) in [
            ("up", Key.up), ("down", .down), ("left", .left), ("right", .right), ("home", .home), ("end", .end),
            ("backspace", .backspace), ("delete", .delete), ("backtab", .backTab), ("enter", .enter),
            ("pageup", .pageUp), ("pagedown", .pageDown), ("f1", .f1), ("f2", .f2), ("f3", .f3),
        ] {
            codes[idp_key_code(name)] = key
        }
        self.codes = codes
        resizeCode = idp_key_code("resize")
        pasteBegin = idp_key_paste_begin()
        pasteEnd = idp_key_paste_end()
    }

    /// Reads everything waiting, without blocking.
    mutating func readAvailable() -> [TerminalInput] {
        var inputs: [TerminalInput] = []
        while true {
            let read = idp_curses_read()
            guard read.status == 0 else { break }
            if let input = translate(read) { inputs.append(input) }
        }
        return inputs
    }

    private mutating func translate(_ read: idp_key) -> TerminalInput? {
        let value = Int32(bitPattern: read.value)
        if read.isKeyCode != 0 {
            if value == pasteBegin {
                pasting = ""
                return nil
            }
            if value == pasteEnd {
                defer { pasting = nil }
                return .paste(pasting ?? "")
            }
            if value == resizeCode { return .resize }
            return codes[value].map(TerminalInput.key)
        }
        guard let scalar = Unicode.Scalar(read.value) else { return nil }
        if pasting != nil {
            pasting?.unicodeScalars.append(scalar)
            return nil
        }
        switch read.value {
        case 27: return .key(.escape)
        case 13, 10: return .key(.enter)
        case 9: return .key(.tab)
        case 127, 8: return .key(.backspace)
        case 26: return .suspend
        case 1...31: return .key(.control(Character(Unicode.Scalar(read.value + 96)!)))
        default: return .key(.character(Character(scalar)))
        }
    }
}
