import LocaleText

/// Plain mode's own line editing at a terminal. The terminal's canonical mode echoes whatever arrives, so a
/// password pasted together with a user name was shown under `Username:`. Here the terminal neither edits nor
/// echoes: a line is echoed only while it answers the open question and that question is not a secret; lines
/// typed or pasted ahead stay unseen until their question comes.
///
/// Keys: text; Backspace; Ctrl-U (the whole line); Ctrl-W (the last word); Enter. Ctrl-D on an empty line is
/// the end-of-input key (on a line with text it does nothing, as in a shell; at a secret's question, where the
/// text does not show, it prints ``hiddenTextHint`` and the question again); Esc alone (nothing after it for ``escapeWait``) cancels; escape sequences (arrows, Home,
/// Delete, function keys) are dropped whole; other control bytes are dropped.
struct PlainLineEditor {
    /// A line finished with Enter (or a key that stands for one), and whether the user saw it typed.
    struct Entry: Equatable {
        let text: String
        let echoed: Bool
    }

    /// How long a lone Esc waits for the rest of a sequence before it counts as the Esc key.
    static let escapeWait: Int32 = 50
    static let endKey = "\u{4}"
    static let escapeKey = "\u{1b}"
    /// Ctrl-D at a secret's question with text typed: a constant, so that nothing of the text (not even its
    /// length) is shown.
    static let hiddenTextHint = "! Ctrl-D cancels only on an empty line; Ctrl-U clears, Esc cancels"

    private var line: [UInt8] = []
    /// A character's bytes so far, until its last one: only whole, valid UTF-8 joins the line (a stray byte showed
    /// as a blank, and was sent as U+FFFD), as the terminal UI's fields drop it.
    private var pending: [UInt8] = []
    /// How many bytes of `line` are on the terminal.
    private var shown = 0
    /// Whether typing shows now: a question that is not a secret is open and waits for this line.
    private var echoing = false
    /// The secret's question open, to ask again under ``hiddenTextHint``; nil when none is.
    private var secretQuestion: [UInt8]?
    /// The question open, secret or not, for which what is typed now is typed; nil while none is (typing ahead).
    private var openQuestion: [UInt8]?
    /// The question some of the line was typed at (or showed under, typed ahead): it belongs to that question, and
    /// is dropped when the question goes unanswered (a flow's timeout), never carried to the next one. A secret's
    /// was; a user name's or a card number's half typed went on to the result's question, where its Enter was
    /// refused, or quit (a `q`).
    private var typedFor: [UInt8]?
    /// How the open question's answer is written once it is given (``open(secret:question:mask:)``), or nil.
    private var mask: ((String) -> String)?
    private var escape = Escape.none
    /// The last byte ended a line with CR: a LF right after it ends the same line (CR LF, a paste from Windows, a
    /// telnet client), not an empty one.
    private var afterCR = false
    private let maximumLine: Int

    /// `string`: an OSC, DCS, APC, PM or SOS, to its BEL or ST (`stringEscape`: its Esc seen); `csiStart`: Esc [
    /// and nothing yet; `x10`: the bytes of an X10 mouse report (Esc [ M and three bytes, any values) still to come.
    private enum Escape: Equatable {
        case none, escape, csiStart, csi, ss3, string, stringEscape, x10(Int)

        /// What follows an Esc and `byte`.
        static func after(_ byte: UInt8) -> Escape {
            switch byte {
            case UInt8(ascii: "["): .csiStart
            case UInt8(ascii: "O"): .ss3
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"): .string
            default: .none
            }
        }
    }

    init(maximumLine: Int) {
        self.maximumLine = maximumLine
    }

    /// True while an Esc waits to be told from the start of a sequence.
    var waitsForEscape: Bool { escape == .escape }

    /// A question is asked: what is typed for it shows unless it is a secret. Returns what to write (the part of
    /// the line typed ahead, now that it is the answer being typed). `mask`: the answer shows while it is typed, and
    /// at Enter is erased and written as `mask` gives it (a card number as `•••• 2503`), so that the terminal keeps
    /// only that.
    /// `answeredAhead`: a line finished earlier waits to answer this question, so what is being typed now is for a
    /// later one: it neither shows nor becomes this question's (it showed under the wrong question, or was dropped
    /// with a secret's that a line typed ahead answered).
    /// `identity`: what makes the question the same one asked again (the text by default; the menu's names the faults
    /// on, which a fault that bit changes).
    mutating func open(secret: Bool, question: String = "", identity: String? = nil, mask: ((String) -> String)? = nil,
                       answeredAhead: Bool = false) -> [UInt8] {
        if answeredAhead {
            echoing = false
            secretQuestion = nil
            openQuestion = nil
            self.mask = nil
            return []
        }
        self.mask = secret ? nil : mask
        let identity = identity ?? question
        dropUnanswered(before: identity)
        // What was typed ahead (pasted with the lines before it, without its Enter) is this question's now.
        if !line.isEmpty { typedFor = Array(identity.utf8) }
        echoing = !secret
        secretQuestion = secret ? Array(question.utf8) : nil
        openQuestion = Array(identity.utf8)
        guard echoing, shown < line.count else { return [] }
        defer { shown = line.count }
        return Array(line[shown...])
    }

    /// What was typed at a question that goes unanswered (a timeout) goes with it, before the next question is
    /// asked: `identity`, that question's (the same asked again, after output broke its line, keeps it). Called
    /// before ``typedAheadFits(_:)``, so that text no longer there does not decide how the next question echoes.
    mutating func dropUnanswered(before identity: String) {
        if let typedFor, typedFor != Array(identity.utf8) { dropLine() }
    }

    /// Whether the text typed ahead of the question about to be asked (none shows yet) may show under it: `shows`
    /// says whether the question would print an answer as it is.
    func typedAheadFits(_ shows: (String) -> Bool) -> Bool {
        shown == line.count || shows(String(decoding: line, as: UTF8.self))
    }

    /// The line on the terminal was ended under what is typed (something was printed): the next ``open(secret:question:)``
    /// shows all of it again.
    mutating func lineBroken() {
        shown = 0
    }

    /// Backspaces over what shows of an answer that is masked once given (a card number), a character at a time as
    /// Backspace erases: before Esc drops it and before output breaks its line, so that none of it stays on the
    /// terminal (a line that wrapped past the terminal's width keeps what is above: plain mode moves no cursor up).
    mutating func eraseMasked() -> [UInt8] {
        guard mask != nil, shown > 0 else { return [] }
        // By columns: a wide character takes two.
        let columns = CharacterWidth.of(String(decoding: line[..<shown], as: UTF8.self))
        shown = 0
        return Array([[UInt8]](repeating: [0x08, 0x20, 0x08], count: columns).joined())
    }

    /// No question waits for the line being typed: it no longer shows.
    mutating func close() {
        if typedFor != nil { dropLine() }
        echoing = false
        secretQuestion = nil
        openQuestion = nil
        mask = nil
    }

    /// Takes bytes typed. Returns the lines finished, and what to write for the echo.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> (entries: [Entry], output: [UInt8]) {
        var entries: [Entry] = []
        var output: [UInt8] = []
        // A LF joins only the CR of the same read (a paste, a telnet client's Enter), not one typed long before.
        afterCR = false
        for byte in bytes {
            switch escape {
            case .escape where byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n"):
                // Esc then Enter in one read, as a script's line holding Esc sends them (`sendline("\x1b")`): the Esc
                // key, its line ended. As Alt-Enter it was dropped without a word, and the script waited.
                output += eraseMasked()
                entries.append(escapeTimedOut())
                afterCR = byte == UInt8(ascii: "\r")
                continue
            case .escape:
                // Esc then [ or O: a sequence, dropped whole; Esc then ] or P (an OSC, a DCS …): a string, dropped to
                // its end (its text was typed into the answer); Esc then another key: an Alt key, dropped.
                escape = Escape.after(byte)
                continue
            case .string where byte == 0x07:
                escape = .none
                continue
            case .string where byte == 0x1B:
                escape = .stringEscape
                continue
            case .string where byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "\n"):
                continue
            case .string:
                // A line's end ends a string never closed: Enter still answers.
                escape = .none
            case .stringEscape:
                // ST (Esc \) ends the string; Esc and anything else starts what that Esc starts.
                escape = byte == UInt8(ascii: "\\") ? .none : Escape.after(byte)
                continue
            case .csiStart where byte == UInt8(ascii: "M"):
                escape = .x10(3)
                continue
            case .csi, .csiStart:
                escape = (0x40...0x7E).contains(byte) || !(0x20...0x3F).contains(byte) ? .none : .csi
                continue
            case .x10(let left):
                escape = left > 1 ? .x10(left - 1) : .none
                continue
            case .ss3:
                escape = .none
                continue
            case .none:
                break
            }
            let crlf = afterCR && byte == UInt8(ascii: "\n")
            afterCR = byte == UInt8(ascii: "\r")
            if crlf { continue }
            // A control key ends a character cut short.
            if byte < 0x20 || byte == 0x7F { pending.removeAll() }
            switch byte {
            case 0x1B:
                escape = .escape
                afterCR = false
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                entries.append(finish(Array(line), output: &output))
            case UInt8(ascii: "\t") where !line.isEmpty && mask == nil:
                // Tab after text answers a question of text, shown or hidden, as it moves to the next field in the
                // terminal UI's forms: a user name and password pasted with a tab between answer two questions (they
                // were joined, in clear, as the name; a third part was joined to the password). At a choice, or on an
                // empty line, it is dropped.
                entries.append(finish(Array(line), output: &output))
            case 0x7F, 0x08:
                // The last character as the terminal shows it: "e" with its accent, a flag (it took the accent
                // alone and erased a column of the "e", which was then sent).
                erase(from: characterStart(before: line.count), &output)
            case 0x15:
                erase(from: 0, &output)
            case 0x17:
                // By characters, as Backspace: the spaces before the word, then the word. A space with an accent on it
                // is one character, not a space (a scan by bytes stopped inside it, and the line kept the space).
                var start = line.count
                let space = [UInt8(ascii: " ")]
                while start > 0, line[characterStart(before: start)..<start].elementsEqual(space) { start -= 1 }
                while start > 0, case let previous = characterStart(before: start), !line[previous..<start].elementsEqual(space) {
                    start = previous
                }
                erase(from: start, &output)
            case 0x04:
                if line.isEmpty {
                    entries.append(Entry(text: Self.endKey, echoed: false))
                } else if let question = secretQuestion {
                    output += Array("\n\(Self.hiddenTextHint)\n".utf8) + question
                }
            case 0..<0x20:
                break
            default:
                guard let character = character(adding: byte), line.count + character.count <= maximumLine else { break }
                line += character
                if let openQuestion { typedFor = openQuestion }
                if echoing {
                    output += character
                    shown = line.count
                }
            }
        }
        return (entries, output)
    }

    /// Where the character that ends at `end` starts, as the terminal draws it (an accent with its letter): decoded
    /// from at most the 64 bytes before it, so that a secret's text is never copied whole into a String nothing wipes.
    private func characterStart(before end: Int) -> Int {
        guard end > 0 else { return 0 }
        var start = max(0, end - 64)
        while start < end, line[start] & 0xC0 == 0x80 { start += 1 }
        // At least one byte back, so that a caller going back character by character always gets somewhere.
        return min(end - 1, end - (String(decoding: line[start..<end], as: UTF8.self).last?.utf8.count ?? 1))
    }

    /// `byte` added to the character being read: its bytes once it is whole and valid UTF-8, else nil (a byte
    /// that cannot start or continue one is dropped, with the bytes before it).
    private mutating func character(adding byte: UInt8) -> [UInt8]? {
        if byte & 0xC0 == 0x80 {
            guard !pending.isEmpty else { return nil }
            pending.append(byte)
        } else {
            pending = [byte]
        }
        let length = switch pending[0] {
        case 0..<0x80: 1
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
        guard length > 0 else { pending.removeAll(); return nil }
        guard pending.count == length else { return nil }
        defer { pending.removeAll() }
        // Overlong forms and surrogates are refused by the decoder.
        return String(validating: pending, as: UTF8.self) == nil ? nil : pending
    }

    /// The Esc that waited was the Esc key: the line being typed is dropped and the answer is a cancel.
    mutating func escapeTimedOut() -> Entry {
        escape = .none
        afterCR = false
        dropLine()
        echoing = false
        secretQuestion = nil
        openQuestion = nil
        return Entry(text: Self.escapeKey, echoed: false)
    }

    private mutating func finish(_ text: [UInt8], output: inout [UInt8]) -> Entry {
        let echoed = echoing && shown == line.count
        // Back over what was typed, and the masked answer instead; nothing when it shows as typed (a menu's `1` was
        // erased and written again, `1\b \b1`, on every answer: backspaces a terminal without them, TERM=dumb, and a
        // screen reader had to make sense of).
        if echoed, let mask, case let typed = String(decoding: text, as: UTF8.self), mask(typed) != typed {
            output += eraseMasked()
            output += Array(mask(typed).utf8)
        }
        if echoed { output.append(UInt8(ascii: "\n")) }
        mask = nil
        let entry = Entry(text: String(decoding: text, as: UTF8.self), echoed: echoed)
        dropLine()
        // Answered: until the next question is asked, what is typed is typed ahead and does not show.
        echoing = false
        secretQuestion = nil
        openQuestion = nil
        return entry
    }

    /// The line wiped and gone (nothing of it is on the terminal's line any more, or it never was).
    private mutating func dropLine() {
        pending.removeAll()
        for index in line.indices { line[index] = 0 }
        line.removeAll(keepingCapacity: true)
        shown = 0
        typedFor = nil
    }

    /// Removes the line's bytes from `start` (a character's first) to its end, and from the terminal what of them
    /// showed: a column for each character of no width of its own (a lone accent), as the terminal gives it one.
    private mutating func erase(from start: Int, _ output: inout [UInt8]) {
        pending.removeAll()
        guard start < line.count else { return }
        if start < shown {
            let columns = String(decoding: line[start..<shown], as: UTF8.self).reduce(0) { $0 + max(1, CharacterWidth.of(String($1))) }
            output += Array([[UInt8]](repeating: [0x08, 0x20, 0x08], count: columns).joined())
            shown = start
        }
        for index in start..<line.count { line[index] = 0 }
        line.removeSubrange(start...)
        if line.isEmpty { typedFor = nil }
    }
}
