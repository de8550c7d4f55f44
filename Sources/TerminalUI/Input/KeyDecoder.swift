/// A mouse report (SGR 1006 or the legacy X10 form): button, 1-based column and row, press or release.
public struct MouseReport: Equatable, Sendable {
    /// 0 left, 1 middle, 2 right, 64 wheel up, 65 wheel down (modifier bits removed).
    public let button: Int
    public let column: Int
    public let row: Int
    public let pressed: Bool

    public init(button: Int, column: Int, row: Int, pressed: Bool) {
        self.button = button
        self.column = column
        self.row = row
        self.pressed = pressed
    }
}

/// What the terminal sent, decoded.
public enum DecodedInput: Equatable, Sendable {
    case key(Key)
    /// A bracketed paste, whole.
    case paste(String)
    case mouse(MouseReport)
    /// Focus in (true) or out (false), when the terminal reports focus.
    case focus(Bool)
}

/// Turns what a terminal sends (characters as they arrive, with the time they arrived) into keys, pastes and
/// mouse reports: complete escape sequences (CSI and SS3, with parameters and modifiers), Alt as an Esc prefix,
/// SGR and X10 mouse reports, focus reports and bracketed paste. A sequence it does not know is dropped whole,
/// never read as Esc and letters, and so is a control string (OSC, DCS, SOS, PM, APC: a terminal's answer to a
/// colour or capability query, which may arrive late, meant for an earlier program) up to its terminator. Esc alone is a key once ``escapeTimeout`` passes with nothing after it; a paste
/// whose end never comes ends after ``pasteTimeout`` of silence; Ctrl-C is Ctrl-C even inside a paste.
///
/// The caller feeds each character with ``feed(_:at:)`` and, when nothing arrives, calls ``flush(at:)`` by
/// ``deadline``.
public struct KeyDecoder: Sendable {
    public static let escapeTimeout: Duration = .milliseconds(50)
    public static let pasteTimeout: Duration = .milliseconds(500)
    /// How long a sequence that has begun (`Esc [`, `Esc O`, a legacy mouse report's bytes) waits for the rest:
    /// a slow link (ssh) splits them too, and after Esc's 50 ms their tails were typed into the field (`3~` of
    /// Delete, `<65;20;18M` of a wheel). Esc alone still ends after ``escapeTimeout``.
    public static let sequenceTimeout: Duration = .milliseconds(500)
    /// The longest sequence kept; a longer one is dropped whole (up to its final byte).
    static let maximumSequence = 64
    /// The longest paste kept; what follows is dropped.
    public static let maximumPaste = 1 << 16

    private enum State: Sendable, Equatable {
        case ground
        /// Esc seen.
        case escape
        /// Esc Esc seen: an Alt-prefixed sequence (`Esc Esc [ D`, Alt-← in rxvt, PuTTY and Terminal.app's "use
        /// Option as Meta") if `[` or `O` comes next.
        case escapeEscape
        /// `Esc [` and the parameter and intermediate bytes so far; `dropping`: too long, skip to the final byte;
        /// `alt`: an Esc came before it.
        case csi(String, dropping: Bool, alt: Bool)
        /// `Esc O` and its parameter bytes so far (`Esc O 1 ; 5 P`).
        case ss3(String, alt: Bool)
        /// `Esc [ M` and the legacy mouse report's bytes so far.
        case x10([UInt32])
        case paste(String, dropped: Bool, pendingEnd: String)
        /// A control string, from its introducer (`Esc ]`, `Esc P`, `Esc X`, `Esc ^`, `Esc _` or the C1 form) to
        /// BEL or ST (`Esc \` or U+009C): `introducer` while nothing else has come (alone, it was an Alt key),
        /// `escape` after an Esc inside it.
        case controlString(introducer: Unicode.Scalar?, escape: Bool)
    }

    private var state = State.ground
    private var lastInput: ContinuousClock.Instant?

    public init() {}

    /// When ``flush(at:)`` must be called if nothing else arrives: a lone Esc, an unfinished sequence, or a
    /// paste that stopped.
    public var deadline: ContinuousClock.Instant? {
        guard let lastInput else { return nil }
        switch state {
        case .ground: return nil
        // A control string that has begun is a terminal's answer, which a slow link may split: it waits as a
        // paste does. Its introducer alone may be an Alt key, and waits as Esc does.
        case .paste, .controlString(nil, _): return lastInput + Self.pasteTimeout
        case .csi, .ss3, .x10: return lastInput + Self.sequenceTimeout
        default: return lastInput + Self.escapeTimeout
        }
    }

    /// Ends what has waited long enough: a lone Esc is the Escape key, an unfinished sequence is dropped, a
    /// paste without its end is delivered as it is.
    public mutating func flush(at now: ContinuousClock.Instant) -> [DecodedInput] {
        guard let deadline, now >= deadline else { return [] }
        defer { state = .ground }
        switch state {
        case .escape: return [.key(.escape)]
        // Esc pressed twice, quickly.
        case .escapeEscape: return [.key(.escape), .key(.escape)]
        case .ss3("", let alt): return (alt ? [.key(.escape)] : []) + [.key(.alt("O"))]
        // An Alt-prefixed sequence cut short: the sequence is dropped, the Esc before it was a key.
        case .csi(_, _, alt: true), .ss3(_, alt: true): return [.key(.escape)]
        case .paste(let text, _, let pendingEnd): return [.paste(text + pendingEnd)]
        case .controlString(let introducer?, _): return [.key(.alt(Character(introducer)))]
        default: return []
        }
    }

    /// Takes one character as it arrived.
    public mutating func feed(_ scalar: Unicode.Scalar, at now: ContinuousClock.Instant) -> [DecodedInput] {
        var out = flush(at: now)
        lastInput = now
        out += step(scalar)
        return out
    }

    /// Whether a paste is open with nothing held back: its text may go in whole (``feedPasted(_:at:)``) up to
    /// the next Esc (which may start its end) or Ctrl-C.
    private var takesPastedText: Bool {
        if case .paste(_, _, let pending) = state { return pending.isEmpty }
        return false
    }

    /// Text of an open paste with no Esc or Ctrl-C in it, taken whole: as many characters fed one by one would be,
    /// without a copy of the state a character (a paste of megabytes took seconds a megabyte).
    private mutating func feedPasted(_ text: Substring.UnicodeScalarView, at now: ContinuousClock.Instant) -> [DecodedInput] {
        var out = flush(at: now)
        lastInput = now
        guard case .paste(var pasted, var dropped, let pending) = state, pending.isEmpty else {
            for scalar in text { out += step(scalar) }
            return out
        }
        state = .ground
        if pasted.utf8.count + Substring(text).utf8.count < Self.maximumPaste {
            pasted.unicodeScalars.append(contentsOf: text)
        } else {
            for scalar in text {
                if pasted.utf8.count < Self.maximumPaste { pasted.unicodeScalars.append(scalar) } else { dropped = true; break }
            }
            dropped = dropped || pasted.utf8.count >= Self.maximumPaste
        }
        state = .paste(pasted, dropped: dropped, pendingEnd: "")
        return out
    }

    /// Takes several characters that arrived together (a read of many bytes, tests): as one at a time, but the text
    /// of an open paste goes in whole up to its next Esc or Ctrl-C (a 2 MB paste took seconds a character at a time).
    public mutating func feed(_ text: String, at now: ContinuousClock.Instant) -> [DecodedInput] {
        var out: [DecodedInput] = []
        var rest = Substring(text).unicodeScalars
        while let first = rest.first {
            if takesPastedText {
                let stop = rest.firstIndex { $0 == "\u{1b}" || $0 == "\u{03}" } ?? rest.endIndex
                if stop > rest.startIndex {
                    out += feedPasted(rest[..<stop], at: now)
                    rest = rest[stop...]
                    continue
                }
            }
            out += feed(first, at: now)
            rest = rest.dropFirst()
        }
        return out
    }

    private mutating func step(_ scalar: Unicode.Scalar) -> [DecodedInput] {
        let value = scalar.value
        switch state {
        case .ground:
            switch value {
            case 0x1b:
                state = .escape
                return []
            case 0x9b:  // C1 CSI
                state = .csi("", dropping: false, alt: false)
                return []
            case 0x8f:  // C1 SS3
                state = .ss3("", alt: false)
                return []
            case 0x90, 0x98, 0x9d, 0x9e, 0x9f:  // C1 DCS, SOS, OSC, PM, APC
                state = .controlString(introducer: nil, escape: false)
                return []
            case 0x80...0x9f:
                // Another C1 control: no key sends one.
                return []
            default:
                return [.key(Self.plain(scalar))]
            }
        case .escape:
            if startsSequence(value, alt: false) { return [] }
            switch value {
            case 0x5d, 0x50, 0x58, 0x5e, 0x5f:  // ] P X ^ _: OSC, DCS, SOS, PM, APC
                state = .controlString(introducer: scalar, escape: false)
                return []
            case 0x1b:
                state = .escapeEscape
                return []
            case 0x7f, 0x08:
                state = .ground
                return [.key(.altBackspace)]
            case 0x0d, 0x0a:
                state = .ground
                return [.key(.altEnter)]
            case 0x20...0x7e, 0x80...:
                state = .ground
                return [.key(.alt(Character(scalar)))]
            case 0x03, 0x1a:
                // Ctrl-C and Ctrl-Z come through whatever is before them.
                state = .ground
                return [.key(Self.plain(scalar))]
            default:
                // Esc and another control character: an Alt-Ctrl key (Alt-Tab is Esc Tab), which idp-tui does not
                // use; it was Esc, then the key, and the Esc cancelled the flow.
                state = .ground
                return []
            }
        case .escapeEscape:
            if startsSequence(value, alt: true) { return [] }
            switch value {
            case 0x1b:
                // A third: the first was a key.
                return [.key(.escape)]
            default:
                // The first Esc was a key; the second prefixes this one.
                state = .escape
                return [.key(.escape)] + step(scalar)
            }
        case .ss3(var parameters, let alt):
            if (0x30...0x3f).contains(value) {
                // Too long for a key's: kept as what parses as none, up to the final byte.
                if parameters.unicodeScalars.count < 16 { parameters.unicodeScalars.append(scalar) } else { parameters = String(repeating: "?", count: 16) }
                state = .ss3(parameters, alt: alt)
                return []
            }
            state = .ground
            // Esc O and then a control or Esc: not a sequence (Alt-Shift-O), and the byte counts. An Esc before a
            // sequence cut short was a key of its own, as when the timeout cuts it.
            if value < 0x20 || value == 0x7f {
                return (alt ? [.key(.escape)] : []) + (parameters.isEmpty ? [.key(.alt("O"))] : []) + step(scalar)
            }
            return Self.ss3(parameters, final: value, altPrefixed: alt).map { [.key($0)] } ?? []
        case .csi(var body, let dropping, let alt):
            // The Linux console's F1 to F5 are `Esc [ [ A` to `Esc [ [ E`: the second `[` is no final byte there.
            if body.isEmpty && value == 0x5b && !dropping {
                state = .csi("[", dropping: false, alt: alt)
                return []
            }
            if body == "[" {
                state = .ground
                let key: Key? = switch value {
                case 0x41: .f1
                case 0x42: .f2
                case 0x43: .f3
                case 0x44: .f4
                default: nil
                }
                // With an Esc before it, Alt and the key, which idp-tui does not use: dropped whole, as other keys are.
                if let key { return alt ? [] : [.key(key)] }
                // F5 and the rest, dropped whole; a control or Esc counts (and an Esc before it).
                return (0x20...0x7e).contains(value) ? [] : (alt ? [.key(.escape)] : []) + step(scalar)
            }
            if (0x40...0x7e).contains(value) {
                state = .ground
                if dropping { return alt ? [.key(.escape)] : [] }
                if body.isEmpty && value == 0x4d {  // Esc [ M: a legacy mouse report's three bytes follow
                    state = .x10([])
                    // No terminal sends Alt with a report: an Esc before it is a key.
                    return alt ? [.key(.escape)] : []
                }
                return csi(body, final: scalar, altPrefixed: alt)
            }
            guard (0x20...0x3f).contains(value) else {
                // Not part of a sequence: the sequence is dropped, the character counts (and an Esc before it).
                state = .ground
                return (alt ? [.key(.escape)] : []) + step(scalar)
            }
            if dropping { return [] }
            body.unicodeScalars.append(scalar)
            state = .csi(body, dropping: body.unicodeScalars.count > Self.maximumSequence, alt: alt)
            return []
        case .x10(var bytes):
            // A mouse report's bytes are printable; a control or Esc ends it, and counts.
            guard value >= 0x20, value != 0x7f else {
                state = .ground
                return step(scalar)
            }
            bytes.append(value)
            guard bytes.count == 3 else {
                state = .x10(bytes)
                return []
            }
            state = .ground
            // The legacy form says a release as button 3, without which button it was (a wheel's 3, 67, is a
            // button of its own: wheel right, no release).
            let code = Int(bytes[0]) - 32
            let released = code & 0x43 == 3
            let report = Self.mouseReport(code: released ? code & ~3 : code, column: Int(bytes[1]) - 32,
                                          row: Int(bytes[2]) - 32, pressed: !released)
            return report.map { [.mouse($0)] } ?? []
        case .controlString(_, let escape):
            return controlString(scalar, afterEscape: escape)
        case .paste(var text, var dropped, var pendingEnd):
            // The state still holds the paste: let it go before appending (every path below sets the state
            // again), or each character copies the whole paste so far, and a 64 KiB paste takes seconds.
            state = .ground
            if value == 0x03 {
                // Ctrl-C always quits: the paste ends with what it had.
                state = .ground
                return [.paste(text + pendingEnd), .key(.control("c"))]
            }
            pendingEnd.unicodeScalars.append(scalar)
            let end = "\u{1b}[201~"
            if end.hasPrefix(pendingEnd) {
                if pendingEnd == end {
                    state = .ground
                    return [.paste(text)]
                }
                state = .paste(text, dropped: dropped, pendingEnd: pendingEnd)
                return []
            }
            // Not the end after all: what was held back is text, but an Esc may start the end again.
            var held = pendingEnd
            var restart = ""
            if held.unicodeScalars.last == "\u{1b}" {
                held.unicodeScalars.removeLast()
                restart = "\u{1b}"
            }
            for character in held.unicodeScalars {
                if text.utf8.count < Self.maximumPaste { text.unicodeScalars.append(character) } else { dropped = true }
            }
            state = .paste(text, dropped: dropped, pendingEnd: restart)
            return []
        }
    }

    /// `[` or `O` after Esc starts a CSI or SS3 sequence (`alt`: after a second Esc, an Alt-prefixed one).
    private mutating func startsSequence(_ value: UInt32, alt: Bool) -> Bool {
        switch value {
        case 0x5b: state = .csi("", dropping: false, alt: alt)
        case 0x4f: state = .ss3("", alt: alt)
        default: return false
        }
        return true
    }

    /// One character inside a control string: its content is dropped; BEL or ST ends it; CAN or SUB cancels it;
    /// Ctrl-C is Ctrl-C (the string is given up); an Esc that does not make ST starts a new sequence.
    private mutating func controlString(_ scalar: Unicode.Scalar, afterEscape: Bool) -> [DecodedInput] {
        let value = scalar.value
        if afterEscape {
            state = .ground
            switch value {
            case 0x5c: return []  // Esc \: ST
            case 0x03: return [.key(.control("c"))]
            case 0x1b:
                // The string's Esc was not ST: this one starts what follows (not an Alt prefix to it).
                state = .escape
                return []
            default:
                state = .escape
                return step(scalar)
            }
        }
        switch value {
        case 0x07, 0x9c, 0x18, 0x1a:
            state = .ground
            return []
        case 0x03:
            state = .ground
            return [.key(.control("c"))]
        case 0x1b:
            state = .controlString(introducer: nil, escape: true)
            return []
        default:
            state = .controlString(introducer: nil, escape: false)
            return []
        }
    }

    /// A complete `Esc [ body final`: a paste's start, or a key, a mouse or focus report (an unknown one dropped).
    /// An Esc before a paste, a mouse or a focus report is a key of its own (no terminal sends those with Alt); before
    /// a key's sequence it is Alt.
    private mutating func csi(_ body: String, final: Unicode.Scalar, altPrefixed: Bool) -> [DecodedInput] {
        let escape: [DecodedInput] = altPrefixed ? [.key(.escape)] : []
        if final == "~" && body == "200" {
            state = .paste("", dropped: false, pendingEnd: "")
            return escape
        }
        if let decoded = Self.csi(body, final: final, altPrefixed: altPrefixed) { return [decoded] }
        switch Self.csi(body, final: final, altPrefixed: false) {
        case let report? where altPrefixed && !report.isKey: return escape + [report]
        default: return []
        }
    }
}
