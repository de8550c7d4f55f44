import FlowEngine
import FlowRecords
import LocaleText
import PaymentFlows
import ThreeDSecure

/// The payment flow's panels: the card form, the challenge screens, and the 3-D Secure rows of a result.
extension AppView {
    typealias Panel = (top: Int, left: Int, width: Int, height: Int)

    // MARK: The card form

    /// A card number field as it shows without the focus: `•••• 2701` once it holds a number's worth of digits.
    static func maskedCard(_ input: TextInput) -> TextInput {
        let digits = input.text.filter(\.isNumber)
        guard digits.count >= 12, digits.count == input.text.filter({ $0 != " " }).count else { return input }
        return TextInput("•••• " + String(digits.suffix(4)), maximumBytes: 23)
    }

    static func drawPayment(_ buffer: inout ScreenBuffer, _ form: PaymentFormState, _ area: Panel) {
        // The last payment's card, while the field holds it: a tester who meant another one sees how to clear it.
        let hints = form.showsLastCard
            ? ["The last card used is filled in: typing replaces it; F4 picks a test card.", "Last card (typing replaces it); F4 picks a test card."]
            : ["The Drops page asks for the card; F4 picks a test card."]
        buffer.putWrapped(hints.first { CharacterWidth.of($0) <= area.width } ?? hints[hints.count - 1], row: area.top,
                          column: area.left, width: area.width, role: .hint)
        let labelWidth = PaymentFormState.fields.map { CharacterWidth.of($0.label) }.max() ?? 0
        let boxLeft = area.left + labelWidth + 4
        // Errors and hints start right of the widest box, so that a second line clears the next field's box. Too
        // narrow there (60 columns), an error goes under the buttons instead, at the panel's whole width.
        let besideBoxes = boxLeft + 24 + 2
        let besideRoom = area.left + area.width - besideBoxes
        let errorBeside = besideRoom >= 24
        for (index, field) in PaymentFormState.fields.enumerated() {
            let row = area.top + 1 + index
            let focused = form.focus == index
            let boxWidth = field == .card || field == .merchant ? 24 : 10
            buffer.put(field.label, row: row, column: area.left, role: focused ? .title : .label)
            // The full card number only in the field being typed: elsewhere (the last payment's card the form starts
            // with, a number typed and left) it is masked, as plain mode, the log and the results show it.
            // The last payment's card stays masked in focus too, as one value the first key replaces.
            let input = field == .card && (!focused || form.showsLastCard) ? Self.maskedCard(form.inputs[index]) : form.inputs[index]
            drawInput(&buffer, input, focused: focused, row: row, left: boxLeft, width: boxWidth)
            buffer.targets.append(ClickTarget(row: row, column: area.left, width: boxLeft + boxWidth + 1 - area.left, stop: index))
        }
        // Each field's note beside it (at 60 columns, the card's hint alone: the others go under the buttons).
        let hint = Self.cardHintNote(form.inputs[0].text, width: max(0, besideRoom))
        let notes = errorBeside ? form.fieldNotes(cardHint: hint) : [hint] + Array(repeating: nil, count: form.fieldCount - 1)
        for note in besideLayout(notes, focus: form.focusedField, rows: form.fieldCount + 1, width: max(0, besideRoom),
                                 atMost: { $0.role == .error ? 2 : 4 }) {
            for (offset, line) in note.lines.enumerated() {
                buffer.put(line, row: area.top + 1 + note.row + offset, column: besideBoxes, role: note.role, limit: max(0, besideRoom))
            }
        }
        // Under the buttons: a note about them, and at 60 columns the fields' notes, the focused field's first.
        var under: [(label: String?, text: String)] = []
        if let error = form.error, form.errorField == nil { under.append((nil, error)) }
        if !errorBeside {
            let focused = form.focusedField
            let order = (focused.map { [$0] } ?? []) + (0..<form.fieldCount).filter { $0 != focused }
            let fieldNotes = form.fieldNotes(cardHint: nil)
            for index in order {
                if let note = fieldNotes[index] { under.append((PaymentFormState.fields[index].label, note.text)) }
            }
        }
        var buttonRow = area.top + 2 + form.fieldCount
        // Notes under the buttons that need more rows than are left there (at 60×18, one): the buttons move up
        // into the blank row above them, so that they are read whole (one ended "…; chec…").
        let needed = under.reduce(0) { $0 + Wrap.lines(($1.label.map { "\($0): " } ?? "") + $1.text, width: area.width).count }
        if needed > area.top + area.height - buttonRow - 1 { buttonRow -= 1 }
        drawButtons(&buffer, [("Pay", form.focus == form.submitIndex), ("Cancel", form.focus == form.cancelIndex)],
                    row: buttonRow, left: boxLeft, firstStop: form.submitIndex)
        let rows = max(1, area.top + area.height - buttonRow - 1)
        for (offset, line) in underLayout(under, rows: rows, width: area.width).enumerated() {
            buffer.put(line, row: buttonRow + 1 + offset, column: area.left, role: .error, limit: area.width)
        }
    }

    // MARK: Challenge screens

    /// What a code screen says beside its field: the published test code, or where the scenario sets its own (a
    /// secret, not shown).
    static func codeHint(_ screen: ChallengeScreen) -> String {
        screen.shownCode.map { "the simulated issuer's code is \($0)" } ?? "the scenario's own code (its challenge.oneTimeCode)"
    }

    /// The options a select screen shows in `rows`: all when they fit, else a window that holds the focused one
    /// (the last ones once the focus is on the buttons below them): a scenario's eight options at 60×18. Options
    /// past the rows were neither drawn nor marked, though Space ticked them.
    static func shownOptions(_ challenge: ChallengeState, rows: Int) -> Range<Int> {
        let count = challenge.screen.options.count
        let rows = max(1, rows)
        guard count > rows else { return 0..<count }
        let focus = if case .option(let index) = challenge.focusedStop { index } else { challenge.focus == 0 ? 0 : count - 1 }
        let first = min(max(0, focus - rows + 1), count - rows)
        return first..<first + rows
    }

    /// `hasKeys` false: the log has them (a filter typed when the screen came), and no stop is drawn focused.
    static func drawChallenge(_ buffer: inout ScreenBuffer, _ challenge: ChallengeState, _ area: Panel, hasKeys: Bool = true) {
        let screen = challenge.screen
        let focusedStop: ChallengeState.Stop? = hasKeys ? challenge.focusedStop : nil
        var row = area.top
        // Shorter words before a cut (at 60 columns "· text (one-tim…" lost the kind of challenge).
        let kind = screen.uiType == .text ? "one-time code" : screen.uiType.name
        let subtitle = ["\(screen.amount) at \(screen.merchantName) · card \(screen.maskedCard) · \(screen.uiType.name)",
                        "\(screen.amount) at \(screen.merchantName) · \(screen.maskedCard) · \(kind)"]
        buffer.putWrapped(subtitle.first { CharacterWidth.of($0) <= area.width } ?? subtitle[1],
                          row: row, column: area.left, width: area.width, role: .hint)
        row += 1
        // Two rows at most, ending in "…" when the prompt is longer (a scenario's 200-character prompt was cut with
        // nothing to say so; the log's challenge screen event has it whole).
        for line in Wrap.lines(screen.prompt, width: area.width, atMost: 2) {
            buffer.put(line, row: row, column: area.left, role: .text)
            row += 1
        }
        let bottom = area.top + area.height - 1
        // The last row the screen's own content takes: the status and the ACS's message may use the rows under it.
        var used = row
        switch screen.uiType {
        case .text:
            row += 1
            let focused = focusedStop == .code
            // The label the ACS sends (challengeInfoLabel), over the field as a native 3DS SDK draws it (the screen
            // drew its own "Code" beside it); the field and the test code's hint on the row under it.
            buffer.put(screen.infoLabel ?? "Code", row: row, column: area.left, role: focused ? .title : .label)
            row += 1
            let field = area.left + 2
            drawInput(&buffer, challenge.code, focused: focused, row: row, left: field, width: 16)
            if let stop = challenge.stops.firstIndex(of: .code) {
                buffer.targets.append(ClickTarget(row: row - 1, column: area.left, width: 19, stop: stop))
                buffer.targets.append(ClickTarget(row: row, column: area.left, width: 19, stop: stop))
            }
            // The field is masked: a letter typed by mistake (a key meant for the screen before the challenge came)
            // showed as one more dot and cost an attempt unseen. Said, not refused: a scenario's code may hold one.
            // A space too: the ACS compares the code as sent. Red where the code is the published digits; a
            // scenario's own code may hold a letter, and its hint is said plainly.
            let typedOther = challenge.code.text.contains { !($0.isASCII && $0.isNumber) }
            let hint = typedOther ? "what is typed holds more than digits (the field is masked)" : Self.codeHint(screen)
            let hintColumn = field + 19
            let hintRows = buffer.putWrapped(hint, row: row, column: hintColumn, width: max(0, area.left + area.width - hintColumn),
                                             lines: 2, role: typedOther && screen.shownCode != nil ? .error : .hint)
            used = row + max(0, hintRows - 1)
        case .singleSelect, .multiSelect:
            let single = screen.uiType == .singleSelect
            // Short of rows, the blank row under the prompt holds an option too: a multi-select's four fit at 60×18.
            if screen.options.count > bottom - 2 - row { row -= 1 }
            let firstOptionRow = row + 1
            let shown = Self.shownOptions(challenge, rows: bottom - 2 - row)
            for index in shown {
                let option = screen.options[index]
                row += 1
                let focused = focusedStop == .option(index)
                let mark = challenge.selected.contains(index) ? (single ? "(•)" : "[x]") : (single ? "( )" : "[ ]")
                buffer.put(focused ? "›" : " ", row: row, column: area.left, role: focused ? .fieldFocused : .fieldBlurred)
                // Options that do not fit are scrolled to, with the focus; the rows at the ends say how many are
                // hidden, and the option there is cut before that (with its …), not written over.
                let hidden = index == shown.lowerBound ? shown.lowerBound : index == shown.upperBound - 1 ? screen.options.count - shown.upperBound : 0
                let more = hidden > 0 ? "\(index == shown.lowerBound ? "↑" : "↓") \(hidden) more" : ""
                let room = area.width - 2 - (more.isEmpty ? 0 : CharacterWidth.of(more) + 1)
                let entry = CharacterWidth.truncate("\(mark) \(option)", to: room)
                buffer.put(entry, row: row, column: area.left + 2, role: focused ? .menuFocused : .text, limit: room)
                // The option itself takes the click, not the rest of its row, where a hint may wrap (a click on the
                // hint's "Bakery" toggled Cinema).
                if let stop = challenge.stops.firstIndex(of: .option(index)) {
                    buffer.targets.append(ClickTarget(row: row, column: area.left, width: 2 + CharacterWidth.of(entry), stop: stop))
                }
                if !more.isEmpty {
                    buffer.put(more, row: row, column: area.left + area.width - CharacterWidth.of(more), role: .hint)
                }
            }
            // Test data at hand, as the code screen's code: under the options when there is a row for it, else
            // beside the first (a multi-select's four options fill the panel at 80×24).
            do {
                let hint = screen.expectedChoice.map { "the simulated issuer takes \($0)" } ?? "the scenario's own answer (its card's correct)"
                let widest: Int = screen.options.map { CharacterWidth.of($0) }.max() ?? 0
                // The focus mark and "[ ] ", the widest option, three spaces.
                let besideOptions = area.left + 6 + widest + 3
                if row + 1 < bottom - 1 {
                    row += 1
                    buffer.put("  " + hint, row: row, column: area.left, role: .hint, limit: area.width)
                } else if shown.count == screen.options.count, area.left + area.width - besideOptions >= 12 {
                    // Wrapped beside the options when one row is too short (at 60×18 a multi-select's hint was dropped).
                    buffer.putWrapped(hint, row: firstOptionRow, column: besideOptions, width: area.left + area.width - besideOptions,
                                      lines: shown.count, role: .hint)
                }
            }
            used = row
        case .outOfBand:
            row += 1
            let status = switch challenge.decision {
            case true?: "✓ approved on the other device: press enter to continue"
            case false?: "✗ refused on the other device: press enter to continue"
            case nil: "press a to approve (r to refuse) on the simulated other device, then continue"
            }
            let statusRows = buffer.putWrapped(status, row: row, column: area.left, width: area.width, lines: 2,
                                               role: challenge.decision == nil ? .hint : .text)
            used = row + max(0, statusRows - 1)
        case .htmlOther:
            row += 1
            // Wrapped, not cut: at 60 columns both lines lost their ends, and with them what Continue does.
            let room = max(2, bottom - 1 - row)
            let first = buffer.putWrapped("This challenge is an HTML page, which a terminal cannot show.", row: row, column: area.left,
                                          width: area.width, lines: room - 1, role: .error)
            let more = buffer.putWrapped("Continue tells the ACS so (transStatus U, challengeCancel 06).", row: row + first, column: area.left,
                                         width: area.width, lines: room - first, role: .hint)
            used = row + max(0, first + more - 1)
        }
        let attempts = screen.attemptsLeftText
        var status = attempts + screen.resendsLeftText
        // Out-of-band: once the cardholder has answered on the other device, the ACS's "not approved yet" is old news.
        let message = challenge.error ?? (screen.uiType == .outOfBand && challenge.decision != nil ? nil : screen.message)
        // Too narrow for the whole status beside the message: the attempts alone ("no more codes can be sent …").
        if let message, CharacterWidth.of(status) + 3 + CharacterWidth.of(message) > area.width,
           CharacterWidth.of(attempts) + 3 + CharacterWidth.of(message) <= area.width {
            status = attempts
        }
        // The rows over the buttons that the content left free; the last of them at least.
        let rows = max(1, bottom - 1 - used)
        // The ACS's message says the attempts left itself after a wrong answer ("wrong code; 2 attempts left").
        if let message, message == screen.message, screen.messageCountsAttempts {
            // The resends left stay in view beside it.
            let text = message + screen.resendsLeftText
            let lines = Wrap.lines(text, width: area.width, atMost: rows).count
            buffer.putWrapped(text, row: bottom - lines, column: area.left, width: area.width, lines: rows, role: .error)
        } else if let message, CharacterWidth.of(status) + 3 + CharacterWidth.of(message) > area.width {
            // Too narrow for both on one row: the status over the message, wrapped, where there are rows for them
            // (at 80 columns "2 attempts left" went, and the message's end was cut); else the message alone (it
            // says what went wrong, and the attempts left when that is news).
            // The status only where the message then still shows whole: at 60×18 it took the row the message's end
            // ("(2 more such answers end the challenge)") needed.
            let statusRows = status.isEmpty || Wrap.lines(message, width: area.width).count > rows - 1 ? 0 : 1
            let lines = Wrap.lines(message, width: area.width, atMost: rows - statusRows).count
            let top = bottom - lines - statusRows
            if statusRows == 1 { buffer.put(status, row: top, column: area.left, role: .hint) }
            buffer.putWrapped(message, row: top + statusRows, column: area.left, width: area.width, lines: rows - statusRows, role: .error)
        } else {
            buffer.put(status, row: bottom - 1, column: area.left, role: .hint)
            if let message {
                let column = status.isEmpty ? area.left : area.left + CharacterWidth.of(status) + 3
                buffer.put(message, row: bottom - 1, column: column, role: .error, limit: area.left + area.width - column)
            }
        }
        let titles: [(ChallengeState.Stop, String)] = challenge.stops.compactMap { stop in
            switch stop {
            case .code, .option: nil
            case .submit: (stop, "Submit")
            case .resend: (stop, "Resend code")
            case .approve: (stop, "Approve on phone")
            case .refuse: (stop, "Refuse on phone")
            case .proceed: (stop, screen.uiType == .htmlOther ? "Continue without it" : "Continue")
            case .cancel: (stop, "Cancel")
            }
        }
        // Too wide for the panel: the short titles (at 60 columns an out-of-band screen's four buttons spilled over).
        let wide = titles.reduce(0) { $0 + CharacterWidth.of($1.1) + 6 } - 2 > area.width
        var column = area.left
        for (stop, full) in titles {
            let short: String? = switch stop {
            case .approve: "Approve"
            case .refuse: "Refuse"
            case .resend: "Resend"
            case .proceed: "Continue"
            default: nil
            }
            let title = wide ? short ?? full : full
            let width = buffer.put("[ \(title) ]", row: bottom, column: column,
                                   role: focusedStop == stop ? .buttonFocused : .buttonBlurred)
            if let index = challenge.stops.firstIndex(of: stop) {
                buffer.targets.append(ClickTarget(row: bottom, column: column, width: width, stop: index))
            }
            column += width + 2
        }
        if focusedStop != .code { buffer.cursor = nil }
    }

    /// A row of buttons, the focus stops `firstStop`, `firstStop + 1` …, each clickable.
    static func drawButtons(_ buffer: inout ScreenBuffer, _ buttons: [(String, Bool)], row: Int, left: Int, firstStop: Int) {
        var column = left
        for (offset, (title, focused)) in buttons.enumerated() {
            let width = buffer.put("[ \(title) ]", row: row, column: column, role: focused ? .buttonFocused : .buttonBlurred)
            buffer.targets.append(ClickTarget(row: row, column: column, width: width, stop: firstStop + offset))
            column += width + 2
        }
    }
}
