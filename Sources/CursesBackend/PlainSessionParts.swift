import FlowEngine
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

// The plain session's parts: the terminal's echo switched off, the flows' outcomes, the lines typed ahead.
/// The terminal's own line editing and echo, turned off for the session (PlainLineEditor does both) and put back
/// as they were on every way out.
struct EchoSwitch {
    private var saved: termios?

    init() {
        var current = termios()
        if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &current) == 0 { saved = current }
    }

    /// No canonical mode and no echo; signals stay (Ctrl-C quits). Ctrl-Z does nothing: a stopped session would
    /// leave the shell with the terminal's editing off. CR stays CR (no ICRNL), so that the editor reads a CR LF
    /// (a paste from Windows, a telnet client's Enter) as one line's end, not as an empty line after it.
    /// A read returns at once, with what is there or nothing (VMIN 0): Ctrl-C makes the terminal throw away what
    /// was typed, so between poll's "ready" and the read there may be nothing left, and a read that waited for a
    /// byte slept past the Ctrl-C until the next key (1 run in 6 of "type, then Ctrl-C" at a prompt).
    func takeLineEditing() {
        guard var settings = saved else { return }
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        settings.c_iflag &= ~tcflag_t(ICRNL)
        withUnsafeMutableBytes(of: &settings.c_cc) { characters in
            characters[Int(VMIN)] = 0
            characters[Int(VTIME)] = 0
        }
        signal(SIGTSTP, SIG_IGN)
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }

    mutating func restore() {
        if var settings = saved { tcsetattr(STDIN_FILENO, TCSANOW, &settings) }
    }
}

/// The outcome of each flow the session ran. A session whose answers are piped in ends with `run`'s exit status
/// (docs/headless.md): 1 when a flow failed, 3 when one was cancelled and none failed, else what the app says.
/// Typed at a terminal, quitting is 0 whatever the flows did, as the terminal UI's.
struct Outcomes {
    private var noted: Set<Int> = []
    private var failed = false
    private var cancelled = false
    private(set) var unsaved: [String] = []

    mutating func note(_ screen: ScreenState) {
        guard case .result(let result) = screen, noted.insert(result.flowID).inserted else { return }
        if let line = result.notSavedLine { unsaved.append(line) }
        switch result.outcome {
        case .failure: failed = true
        case .cancelled: cancelled = true
        case .success: break
        }
    }

    func status(_ quit: Int32, scripted: Bool) -> Int32 {
        guard scripted, quit == 0 else { return quit }
        return failed ? 1 : cancelled ? 3 : 0
    }
}

/// Lines typed ahead, first in first out, within a byte limit; taking the first is O(1).
struct LineQueue {
    private var lines: [String] = []
    private var head = 0
    private var bytes = 0

    var first: String? { head < lines.count ? lines[head] : nil }
    var isEmpty: Bool { head >= lines.count }

    /// Adds `line` unless the lines waiting would pass `limit` bytes; false when it was dropped.
    mutating func append(_ line: String, limit: Int) -> Bool {
        guard bytes + line.utf8.count <= limit else { return false }
        lines.append(line)
        bytes += line.utf8.count
        return true
    }

    mutating func removeFirst() {
        guard head < lines.count else { return }
        bytes -= lines[head].utf8.count
        head += 1
        if head > 1024 && head * 2 > lines.count {
            lines.removeFirst(head)
            head = 0
        }
    }
}

extension PlainSession {
    /// The terminal standard input is (`ttyname`), for writing: the one typed at; else the controlling terminal.
    static func openTerminal() -> Int32 {
        if let name = ttyname(STDIN_FILENO) {
            let descriptor = open(name, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            if descriptor >= 0 { return descriptor }
        }
        return open("/dev/tty", O_WRONLY | O_CLOEXEC)
    }

    /// The column the cursor is at, as far as what was written says (one a character; a backspace back one; a
    /// line's end back to 0). Main thread only.
    nonisolated(unsafe) static var column = 0

    static func advanceColumn(over bytes: [UInt8]) {
        for byte in bytes {
            switch byte {
            case 0x0A, 0x0D: column = 0
            case 0x08: column = max(0, column - 1)
            case 0x80..<0xC0, 0..<0x20, 0x7F: break  // a character's continuation bytes, other controls
            default: column += 1
            }
        }
    }

    /// Whether `now` is `before` with lines gone and none added, in order.
    static func onlyLost(_ before: [String], _ now: [String]) -> Bool {
        guard now.count < before.count else { return false }
        var rest = before[...]
        for line in now {
            guard let found = rest.firstIndex(of: line) else { return false }
            rest = rest[(found + 1)...]
        }
        return true
    }

    /// What a question asks for, in a line on standard error: its text up to its hints ("Username", "Choose 1-9").
    static func field(_ question: PlainQuestion) -> String {
        question.text.prefix { $0 != "(" && $0 != ":" && $0 != "[" }.trimmingCharacters(in: .whitespaces)
    }

    /// Whether a line typed ahead is a card number being typed (digits, spaces and dashes, at most 19 digits), which
    /// the card number's question may show as typed there: not a `?` listing, not other text.
    static func isCardNumberTyped(_ text: String) -> Bool {
        let digits = text.filter(\.isASCII).filter(\.isNumber).count
        return digits > 0 && digits <= 19 && text.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == " " || $0 == "-" }
    }
}
