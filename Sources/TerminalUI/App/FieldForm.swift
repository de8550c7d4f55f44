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
