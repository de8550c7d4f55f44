/// What a complete sequence means: the keys of CSI and SS3 sequences, with their modifiers, and mouse reports.
extension KeyDecoder {
    /// A character outside any sequence.
    static func plain(_ scalar: Unicode.Scalar) -> Key {
        switch scalar.value {
        case 13, 10: .enter
        case 9: .tab
        case 127, 8: .backspace
        case 0: .control(" ")
        case 1...31: .control(Character(Unicode.Scalar(scalar.value + 96) ?? " "))
        default: .character(Character(scalar))
        }
    }

    /// The modifier parameter of a key sequence's numbers (1 none, 2 Shift, 3 Alt, 5 Ctrl, and their sums; an
    /// Esc before the sequence is Alt), or nil when the numbers are not a key's.
    static func modifier(_ numbers: [Int?], altPrefixed: Bool) -> Int? {
        let given = numbers.count > 1 ? (numbers[1] ?? 1) : 1
        guard numbers.count <= 2, (1...16).contains(given) else { return nil }
        // The parameter is 1 + the modifier bits (Shift 1, Alt 2, Ctrl 4).
        return altPrefixed ? ((given - 1) | 2) + 1 : given
    }

    /// A cursor or function key with its modifier: ← → with Ctrl or Alt (with or without Shift) move a word, with
    /// Shift alone (Shift-← in a field) they are the arrows; any other modified key is one idp-tui does not use,
    /// dropped whole.
    static func modified(_ key: Key, _ modifier: Int) -> Key? {
        let byWord = (modifier - 1) & 6 != 0  // Alt (2) or Ctrl (4) among the modifier's bits
        return switch (key, modifier) {
        case (_, 1): key
        case (.left, _): byWord ? .wordLeft : .left
        case (.right, _): byWord ? .wordRight : .right
        default: nil
        }
    }

    /// `Esc O params final`: the cursor keys and F1–F4 as application mode and xterm send them, and with modifiers
    /// as Konsole (`Esc O 5 P`) and older VTE (`Esc O 1 ; 2 P`) do.
    static func ss3(_ parameters: String, final: UInt32, altPrefixed: Bool) -> Key? {
        let key: Key? = switch final {
        case 0x41: .up
        case 0x42: .down
        case 0x43: .right
        case 0x44: .left
        case 0x48: .home
        case 0x46: .end
        case 0x50: .f1
        case 0x51: .f2
        case 0x52: .f3
        case 0x53: .f4
        case 0x4d: .enter  // keypad Enter
        default: nil
        }
        guard let key else { return nil }
        // One number is the modifier alone (Esc O 5 P); two are 1 and the modifier (Esc O 1 ; 5 P, Esc O ; 5 P).
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let given: [Int?]
        switch numbers.count {
        case _ where parameters.isEmpty: given = []
        case 1 where numbers[0] != nil: given = [1, numbers[0]]
        case 2 where numbers[1] != nil: given = numbers
        default: return nil
        }
        guard let modifier = modifier(given, altPrefixed: altPrefixed) else { return nil }
        return modified(key, modifier)
    }

    /// A complete `Esc [ body final` other than a paste's start.
    static func csi(_ body: String, final: Unicode.Scalar, altPrefixed: Bool) -> DecodedInput? {
        if body.hasPrefix("<") {
            return altPrefixed ? nil : sgrMouse(String(body.dropFirst()), released: final == "m").map { .mouse($0) }
        }
        guard body.allSatisfy({ $0.isNumber || $0 == ";" }) else { return nil }
        let numbers = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        guard numbers.allSatisfy({ $0 != nil || body.isEmpty }) else { return nil }
        let first = numbers.first.flatMap { $0 }
        guard let modifier = modifier(numbers, altPrefixed: altPrefixed) else { return nil }
        switch final {
        case "A", "B", "C", "D", "H", "F":
            // The cursor keys' parameter is empty or 1; anything else (a position report) is not a key.
            guard first == nil || first == 1 else { return nil }
            let key: Key = switch final {
            case "A": .up
            case "B": .down
            case "C": .right
            case "D": .left
            case "H": .home
            default: .end
            }
            return modified(key, modifier).map { .key($0) }
        case "Z":
            return body.isEmpty && !altPrefixed ? .key(.backTab) : nil
        case "I", "O":
            return body.isEmpty && !altPrefixed ? .focus(final == "I") : nil
        case "~":
            guard let first, first != 200, first != 201 else { return nil }
            let key: Key? = switch first {
            case 1, 7: .home
            case 4, 8: .end
            case 3: .delete
            case 5: .pageUp
            case 6: .pageDown
            case 11: .f1
            case 12: .f2
            case 13: .f3
            case 14: .f4
            case 17: .f6
            default: nil
            }
            return key.flatMap { modified($0, modifier) }.map { .key($0) }
        default:
            return nil
        }
    }

    /// `b;x;y` of `Esc [ < b ; x ; y M|m`.
    static func sgrMouse(_ body: String, released: Bool) -> MouseReport? {
        let parts = body.split(separator: ";").compactMap { Int($0) }
        guard parts.count == 3, parts.allSatisfy({ $0 >= 0 && $0 < 100_000 }) else { return nil }
        return mouseReport(code: parts[0], column: parts[1], row: parts[2], pressed: !released)
    }

    /// A report's button code without its Shift, Alt and Ctrl bits (4, 8, 16); nil for motion (32: a drag, which
    /// idp-tui does not ask for, acted as a click) and for buttons 8 to 11 (128 on: a mouse's back and forward
    /// buttons, whose 128 masked away read as a left click).
    static func mouseReport(code: Int, column: Int, row: Int, pressed: Bool) -> MouseReport? {
        guard code & 0xA0 == 0 else { return nil }
        return MouseReport(button: code & 0x43, column: column, row: row, pressed: pressed)
    }
}

extension DecodedInput {
    var isKey: Bool { if case .key = self { true } else { false } }
}
