/// Piped input cut into answers: a line ends at LF, CR LF or a lone CR (old Mac files, a terminal's Enter captured
/// raw), and at a tab after text, as Tab answers at a terminal (a line break right after that tab ends nothing
/// more; a tab on an empty line is dropped). A line that passes `maximumLine` bytes is handed on at its next byte as
/// ``overlong``, and the rest of it is dropped up to its end: input with no line end (`/dev/zero`) was read for ever,
/// the session waiting on its question at full CPU. A line that is not UTF-8 is handed on as ``notUTF8``: read with
/// U+FFFD in it, a password with a stray byte was sent, refused, and cost an attempt. The bytes of a line are wiped once
/// it is handed on (it may hold a password).
struct PipedLines {
    private var buffer: [UInt8] = []
    private var afterCR = false
    private var afterTab = false
    /// The rest of a line handed on too long, dropped up to its end.
    private var skipping = false
    private let maximumLine: Int

    init(maximumLine: Int) {
        self.maximumLine = maximumLine
    }

    /// Takes one byte; returns the line it ends, if it ends one.
    mutating func take(_ byte: UInt8) -> String? {
        let (tabbed, crBefore) = (afterTab, afterCR)
        afterTab = false
        afterCR = byte == UInt8(ascii: "\r")
        let lineEnd = byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
        if byte == UInt8(ascii: "\n") && crBefore || lineEnd && tabbed { return nil }
        if skipping {
            skipping = !lineEnd
            return nil
        }
        if byte == UInt8(ascii: "\t") {
            if buffer.isEmpty { return nil }
            afterTab = true
        }
        guard lineEnd || byte == UInt8(ascii: "\t") else {
            buffer.append(byte)
            guard buffer.count > maximumLine else { return nil }
            skipping = true
            wipe()
            return Self.overlong
        }
        return finish()
    }

    /// What stands for a line longer than the longest, and for one that is not UTF-8: no answer, and no line of input
    /// is either but one holding NULs, which are refused anyway.
    static let overlong = "\u{0}\u{0}(a line too long)"
    static let notUTF8 = "\u{0}\u{0}(a line not UTF-8)"

    /// For a line that stands for one no question takes: what its question's line shows in its place, and what the
    /// line on standard error calls it.
    static func unreadable(_ line: String, maximumLine: Int) -> (shown: String, said: String)? {
        switch line {
        case overlong: ("too long", "piped line longer than \(maximumLine) bytes")
        case notUTF8: ("not UTF-8", "piped line that is not UTF-8")
        default: nil
        }
    }

    /// The end of the input: what is left, as a last line, if anything is.
    mutating func end() -> String? {
        buffer.isEmpty ? nil : finish()
    }

    private mutating func finish() -> String {
        let line = String(validating: buffer, as: UTF8.self) ?? Self.notUTF8
        wipe()
        return line
    }

    private mutating func wipe() {
        for index in buffer.indices { buffer[index] = 0 }
        buffer.removeAll(keepingCapacity: true)
    }
}
