import CNcurses
import TerminalUI
#if canImport(Glibc)
    import Glibc
#endif

/// What the keyboard delivered: a key, a pasted text, a mouse report, or a new terminal size.
enum TerminalInput: Equatable {
    case key(Key)
    case paste(String)
    case mouse(MouseReport)
    case resize
    case suspend
    /// Bytes that are not UTF-8 were read, and dropped (a terminal set to Latin-1: its é is one byte).
    case notUTF8
}

/// Reads what ncurses hands over (characters as the terminal sent them: keypad translation is off) and decodes
/// them with ``KeyDecoder``, so that every escape sequence is read whole; ncurses still reports a new size.
struct KeyReader {
    private var decoder = KeyDecoder()
    private let resizeCode = idp_key_code("resize")

    /// When ``flush()`` is due if nothing else arrives (a lone Esc, a paste that stopped), as a poll timeout.
    /// A character's first bytes with the rest still to come wait 50 ms, as a lone Esc does: a Latin-1 terminal's é
    /// is one byte that reads as the start of a three-byte character, and it waited for the next key.
    var timeoutMilliseconds: Int32 {
        let incomplete = partialSince.map { ContinuousClock.now.duration(to: $0 + Self.incompleteWait).pollMilliseconds } ?? -1
        guard let deadline = decoder.deadline else { return incomplete }
        let left = min(60_000, ContinuousClock.now.duration(to: deadline).pollMilliseconds)
        return incomplete < 0 ? left : min(left, incomplete)
    }

    /// Bytes read from the terminal that end inside a character (its other bytes not read yet).
    private var partial: [UInt8] = [] { didSet { partialSince = partial.isEmpty ? nil : partialSince ?? .now } }
    /// When ``partial`` began waiting for the rest of its character.
    private var partialSince: ContinuousClock.Instant?
    private static let incompleteWait: Duration = .milliseconds(50)
    /// Where a read puts the terminal's bytes: one buffer for the session, not 64 KiB made for every key.
    private var block = [UInt8](repeating: 0, count: 1 << 16)

    /// Reads everything waiting, without blocking. The terminal's bytes are read in blocks, straight from standard
    /// input: ncurses reads one byte a call, and a 2 MB paste took 4 million system calls, 13 s in which nothing,
    /// Ctrl-C included, was read. ncurses is asked in between, for a new size (KEY_RESIZE), and only when no
    /// character is cut in two here (it would read the rest of one as a character of its own).
    mutating func readAvailable() -> [TerminalInput] {
        var inputs: [TerminalInput] = []
        while true {
            inputs += readBlocks()
            guard partial.isEmpty else { break }
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

    /// What standard input holds now, read 64 KiB at a time and decoded as UTF-8 (a byte that is not is dropped, and
    /// said: ``TerminalInput/notUTF8``).
    private mutating func readBlocks() -> [TerminalInput] {
        var inputs: [TerminalInput] = []
        while Self.inputWaiting() {
            let count = block.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            partial += block[..<count]
            let whole = Self.wholeCharacters(partial)
            var text = String(decoding: partial[..<whole], as: UTF8.self)
            let valid = String(validating: partial[..<whole], as: UTF8.self) != nil
            partial.removeFirst(whole)
            if !valid { text.unicodeScalars.removeAll { $0 == "\u{FFFD}" } }
            inputs += decoder.feed(text, at: .now).compactMap(Self.input)
            // Said, not dropped in silence: "Jos" went to the IdP for a Latin-1 terminal's "José".
            if !valid { inputs.append(.notUTF8) }
        }
        return inputs
    }

    /// How many of `bytes` end on a whole character: a lead byte near the end whose character needs more bytes
    /// than follow it is kept for the next read.
    static func wholeCharacters(_ bytes: [UInt8]) -> Int {
        guard !bytes.isEmpty else { return 0 }
        for back in 1...min(3, bytes.count) {
            let byte = bytes[bytes.count - back]
            guard byte & 0xC0 == 0x80 else {
                let needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return needed > back ? bytes.count - back : bytes.count
            }
        }
        return bytes.count
    }

    /// Whether standard input can be read without waiting.
    private static func inputWaiting() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
    }

    /// What waited long enough: a lone Esc, a paste without its end.
    mutating func flush() -> [TerminalInput] {
        decoder.flush(at: .now).compactMap(Self.input)
    }

    /// What waited long enough, once the poll's time ran out: ``flush()``, and a character's first bytes whose rest
    /// never came, dropped and said (``TerminalInput/notUTF8``).
    mutating func flushWaiting() -> [TerminalInput] {
        guard let since = partialSince, since.duration(to: .now) >= Self.incompleteWait else { return flush() }
        partial.removeAll()
        return flush() + [.notUTF8]
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
