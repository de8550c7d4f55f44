import CNcurses
import TerminalUI

/// What the keyboard delivered: a key, a pasted text, a mouse report, or a new terminal size.
enum TerminalInput: Equatable {
    case key(Key)
    case paste(String)
    case mouse(MouseReport)
    case resize
    case suspend
}

/// Reads what ncurses hands over (characters as the terminal sent them: keypad translation is off) and decodes
/// them with ``KeyDecoder``, so that every escape sequence is read whole; ncurses still reports a new size.
struct KeyReader {
    private var decoder = KeyDecoder()
    private let resizeCode = idp_key_code("resize")

    /// When ``flush()`` is due if nothing else arrives (a lone Esc, a paste that stopped), as a poll timeout.
    var timeoutMilliseconds: Int32 {
        guard let deadline = decoder.deadline else { return -1 }
        let left = ContinuousClock.now.duration(to: deadline)
        return min(60_000, left.pollMilliseconds)
    }

    /// Reads everything waiting, without blocking.
    mutating func readAvailable() -> [TerminalInput] {
        var inputs: [TerminalInput] = []
        while true {
            let read = idp_curses_read()
            guard read.status == 0 else { break }
            if read.isKeyCode != 0 {
                if Int32(bitPattern: read.value) == resizeCode { inputs.append(.resize) }
                continue
            }
            guard let scalar = Unicode.Scalar(read.value) else { continue }
            inputs += decoder.feed(scalar, at: .now).compactMap(Self.input)
        }
        return inputs + flush()
    }

    /// What waited long enough: a lone Esc, a paste without its end.
    mutating func flush() -> [TerminalInput] {
        decoder.flush(at: .now).compactMap(Self.input)
    }

    private static func input(_ decoded: DecodedInput) -> TerminalInput? {
        switch decoded {
        case .key(.control("z")): .suspend
        case .key(let key): .key(key)
        case .paste(let text): .paste(text)
        case .mouse(let report): .mouse(report)
        // Focus reports are read whole and change nothing.
        case .focus: nil
        }
    }
}
