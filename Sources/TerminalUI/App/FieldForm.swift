/// A form of text fields followed by a submit and a cancel button: the credential form and the card form.
protocol FieldForm {
    var focus: Int { get set }
    var inputs: [TextInput] { get set }
    var error: String? { get set }
    var fieldCount: Int { get }
    /// The fields, from the first, that a paste's parts may fill (``paste(_:)``).
    var pasteFields: Int { get }
    /// Whether parts past ``pasteFields`` are left out (true) or the whole paste is (false).
    var pasteLeavesOutExtraParts: Bool { get }
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
        if error == fullFieldMessage || error == notTypedOnAButton || error == notPastedOnAButton { clearError() }
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
            } else if case .character = key {
                // Typed on a button: said, not dropped unseen (a tester's text went nowhere); never echoed, as it may
                // be the rest of a password.
                sayUnderTheButtons(notTypedOnAButton)
            }
        }
        return .edited
    }
}

/// What a character typed on a form's button says, under the buttons.
let notTypedOnAButton = "Not typed on a button: Shift-Tab goes to the fields."
/// What a paste on a form's button says, there too (it was on the status line, away from the form).
let notPastedOnAButton = "Not pasted on a button: Shift-Tab goes to the fields."

extension FieldForm {
    /// `message` under the buttons, not beside the field a validation error named (a card form's note went there).
    mutating func sayUnderTheButtons(_ message: String) {
        clearError()
        error = message
    }
}

/// What a full field says, beside it.
let fullFieldMessage = "This field is full: Backspace or Ctrl-U make room."

extension FormState: FieldForm {
    var pasteFields: Int { fieldCount }
    var pasteLeavesOutExtraParts: Bool { false }
    mutating func reportFull(_ index: Int) { error = fullFieldMessage }
    mutating func clearError() { error = nil }
}

extension PaymentFormState: FieldForm {
    /// The card and its expiry: the amount, currency and merchant are the merchant's, never a pasted note's lines.
    var pasteFields: Int { 2 }
    var pasteLeavesOutExtraParts: Bool { true }
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
    var cutAt: String?
    /// Parts after the last field: not typed anywhere, and never shown.
    var partsLeftOut = 0
    /// More parts than fields from the focus, on a form that then types none of them.
    var refused: (parts: Int, fields: Int, fromFirst: Bool)?

    /// The status line's words (short enough for 60 columns), nil when the whole paste went in.
    var notice: String? {
        if let refused {
            // From the first field, the page has too few (a page that asks for the username alone): nothing to move
            // back to.
            if refused.fromFirst {
                return "paste not typed: \(refused.parts) parts for this page's \(refused.fields) \(refused.fields == 1 ? "field" : "fields")"
            }
            // From a later field of a form whose first fields take them (a login's password), the way to paste them.
            let fields = refused.fields == 0 ? "1 field" : "\(refused.fields) \(refused.fields == 1 ? "field" : "fields") from here"
            return "paste not typed: \(refused.parts) parts, \(fields)" + (refused.fields > 0 ? " (shift-tab first)" : "")
        }
        var said: [String] = []
        if partsLeftOut > 0 { said.append("\(partsLeftOut) more \(partsLeftOut == 1 ? "part" : "parts") left out (no field for it)") }
        if controlLeftOut { said.append("control characters left out") }
        if let cutAt { said.append(said.isEmpty ? "cut at \(cutAt) (the field's limit)" : "cut at \(cutAt)") }
        if said.count == 1, cutAt != nil { return "paste " + said[0] }
        return said.isEmpty ? nil : "paste: " + said.joined(separator: ", ")
    }

    /// A paste's parts: the text between line breaks (any: LF, CR, CR LF, NEL, a vertical tab, U+2028…) and tabs.
    /// Empty parts move nothing: separators at either end, and a line break that a terminal's paste doubles (CR LF
    /// sent as CR CR) between two values.
    static func parts(of text: String) -> [Substring] { text.split { $0.isNewline || $0 == "\t" } }

    /// A paste into a field that stands alone (a challenge's code): one part is typed at the cursor; several are not
    /// typed, as on a one-field page of a form (a note's lines were joined into one code and sent to the ACS).
    mutating func typeAlone(_ text: String, into input: inout TextInput) {
        let parts = Self.parts(of: text)
        guard parts.count <= 1 else {
            refused = (parts: parts.count, fields: 1, fromFirst: true)
            return
        }
        if let part = parts.first { type(part, into: &input) }
    }

    /// Types `text` into `input` at its cursor, as a key's text is: its control characters (a tab, an escape) left
    /// out and the field's limit kept, each noted for ``notice``.
    mutating func type(_ text: some StringProtocol, into input: inout TextInput) {
        let kept = String(text.filter { $0.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control } })
        if kept.count != text.count { controlLeftOut = true }
        if !input.insert(kept) { cutAt = input.limitText }
    }
}

extension FieldForm {
    /// A paste goes into the focused field at its cursor. A line break or a tab in it goes to the next field, as a
    /// password manager's auto-type (user name, Tab, password) does, so that a user name and password pasted
    /// together never land, in clear, in the user-name field: each part replaces its field's text, from the focused
    /// field on (never a field before it: a password's part must not land in the user name). Only the first
    /// ``pasteFields`` fields take parts (a card form's card and expiry, never the merchant's amount). More parts
    /// than fields from the focus: a credential form types none of them (which part is the password is then
    /// unknown); the card form leaves the rest out (a note's security code). Separators at either end move nothing;
    /// it never submits; the focus ends on the last field filled.
    mutating func paste(_ text: String) -> FormPaste {
        var outcome = FormPaste()
        guard let focused = focusedField else { return outcome }
        let parts = FormPaste.parts(of: text)
        // One part: typed at the cursor, as a key's text is.
        guard parts.count > 1 else {
            if let part = parts.first { outcome.type(part, into: &inputs[focused]) }
            return outcome
        }
        // More parts than fields from the focus (a card form's amount takes none): on a credential form, which part is
        // the password is unknown; on a card form's amount, they would run together ("12.50USD").
        if focused >= pasteFields || (focused + parts.count > pasteFields && !pasteLeavesOutExtraParts) {
            outcome.refused = (parts: parts.count, fields: max(0, pasteFields - focused), fromFirst: focused == 0)
            return outcome
        }
        for (offset, part) in parts.enumerated() {
            let field = focused + offset
            guard field < pasteFields else {
                outcome.partsLeftOut = parts.count - offset
                break
            }
            inputs[field].clear()
            outcome.type(part, into: &inputs[field])
            focus = field
        }
        return outcome
    }
}
