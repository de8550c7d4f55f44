/// A form of text fields followed by a submit and a cancel button: the credential form and the card form.
protocol FieldForm {
    var focus: Int { get set }
    var inputs: [TextInput] { get set }
    var error: String? { get set }
    var fieldCount: Int { get }
    /// Says that the field at `index` is full: a typed character was left out.
    mutating func reportFull(_ index: Int)
    /// Takes the form's complaint away, and the field it was about.
    mutating func clearError()
}

/// What a key did to a form.
enum FormAction {
    /// Focus moved or a field was edited: draw the form again.
    case edited
    case submit
    case cancel
}

extension FieldForm {
    var submitIndex: Int { fieldCount }
    var cancelIndex: Int { fieldCount + 1 }
    var focusedField: Int? { focus < fieldCount ? focus : nil }

    /// The keys of dialog, whiptail and huh forms: Tab/↓ and Shift-Tab/↑ move through the fields and buttons,
    /// Enter goes to the next field and submits from the last one (or presses the focused button), Esc cancels,
    /// other keys edit the focused field.
    mutating func handle(_ key: Key) -> FormAction {
        let stops = fieldCount + 2
        // A full field's note is about the key that did not fit: the next key takes it away (it stayed beside the
        // form after the focus had moved on, over a stray character's note in another field).
        if error == fullFieldMessage { clearError() }
        switch key {
        case .escape: return .cancel
        case .tab, .down: focus = (focus + 1) % stops
        case .backTab, .up: focus = (focus - 1 + stops) % stops
        case .character(" ") where focus == submitIndex: return .submit
        case .character(" ") where focus == cancelIndex: return .cancel
        case .enter:
            if focus == cancelIndex { return .cancel }
            if focus < fieldCount - 1 {
                focus += 1
            } else {
                return .submit
            }
        default:
            if let field = focusedField {
                error = nil
                // A character that does not fit is said so, not dropped unseen (a pre-filled currency takes three).
                if case .character(let character) = key, !inputs[field].fits(character) {
                    reportFull(field)
                } else {
                    _ = inputs[field].apply(key)
                }
            }
        }
        return .edited
    }
}

/// What a full field says, beside it.
let fullFieldMessage = "This field is full: Backspace or Ctrl-U make room."

extension FormState: FieldForm {
    mutating func reportFull(_ index: Int) { error = fullFieldMessage }
    mutating func clearError() { error = nil }
}

extension PaymentFormState: FieldForm {
    mutating func reportFull(_ index: Int) {
        error = fullFieldMessage
        errorField = Self.fields[index]
    }

    mutating func clearError() {
        error = nil
        errorField = nil
    }
}

/// What a paste into a form left out, for the status line.
struct FormPaste {
    var controlLeftOut = false
    /// The field whose limit cut its part, if any.
    var cutAt: Int?
    /// Parts after the last field: not typed anywhere, and never shown.
    var partsLeftOut = 0

    /// The status line's words (short enough for 60 columns), nil when the whole paste went in.
    var notice: String? {
        var said: [String] = []
        if partsLeftOut > 0 { said.append("\(partsLeftOut) more \(partsLeftOut == 1 ? "part" : "parts") left out (no field after the last)") }
        if controlLeftOut { said.append("control characters left out") }
        if let cutAt { said.append(said.isEmpty ? "cut at \(cutAt) bytes (the field's limit)" : "cut at \(cutAt) bytes") }
        if said.count == 1, cutAt != nil { return "paste " + said[0] }
        return said.isEmpty ? nil : "paste: " + said.joined(separator: ", ")
    }
}

extension FieldForm {
    /// A paste goes into the focused field at its cursor. A line break or a tab in it goes to the next field, as a
    /// password manager's auto-type (user name, Tab, password) does: each part after one replaces the next field's
    /// text, so a user name and password pasted together never land, in clear, in the user-name field. It never
    /// submits; the focus ends on the last field a part went into; separators at the end move nothing.
    mutating func paste(_ text: String) -> FormPaste {
        var outcome = FormPaste()
        guard let first = focusedField else { return outcome }
        var parts = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\t" }
        while parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        for (offset, part) in parts.enumerated() {
            let typed = part.filter { $0.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control } }
            if typed.count != part.count { outcome.controlLeftOut = true }
            let field = first + offset
            guard field < fieldCount else {
                outcome.partsLeftOut = parts.count - offset
                break
            }
            if offset > 0 { inputs[field].clear() }
            if !inputs[field].insert(typed) { outcome.cutAt = inputs[field].maximumBytes }
            focus = field
        }
        return outcome
    }
}
