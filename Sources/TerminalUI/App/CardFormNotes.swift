import LocaleText
import PaymentFlows

/// What the card form says about its fields: each field's note (a refused Pay's reason, a full field, a character it
/// can never hold, the card's brand and Luhn check), all at once, and where each goes. A note stays while its problem
/// stays: the amount's "digits … only" was hidden by the currency's, which the form kept as its one complaint, and a
/// three-row Luhn note covered the expiry's. Where two cannot both be whole, a note gives up its second row for a
/// shorter wording (its example left out, or what follows a semicolon), the focused field's last.
struct CardFormNote: Equatable {
    /// The field's index; nil for a note about the buttons ("Not typed on a button").
    let field: Int?
    /// Without the field's label, ending with its full stop.
    let text: String
    let role: Role
    /// The note's own rows, when it sets them (the card's brand over its digit count); else `text` is wrapped.
    var presetLines: [String]? = nil

    /// The whole note at `width`, on `atMost` rows (the last ended with "…" when it is longer).
    func lines(width: Int, atMost rows: Int) -> [String] {
        if let presetLines, presetLines.count <= rows, presetLines.allSatisfy({ CharacterWidth.of($0) <= width }) {
            return presetLines
        }
        return Wrap.lines(text, width: width, atMost: rows)
    }

    /// The note on one row: whole if it fits, else the first shorter wording that does (`cut` false), else cut
    /// with "…" (`cut` true).
    static func oneLine(_ text: String, width: Int, label: String? = nil) -> (text: String, cut: Bool) {
        let prefix = label.map { "\($0): " } ?? ""
        for candidate in shorterWordings(text) where CharacterWidth.of(prefix + candidate) <= width {
            return (prefix + candidate, false)
        }
        return (CharacterWidth.truncate(prefix + text, to: width), true)
    }

    /// `text`, then shorter wordings of it: without its example (", e.g. 49.99", " such as EUR or USD"), then what
    /// comes before its first semicolon or colon ("fails the Luhn check").
    static func shorterWordings(_ text: String) -> [String] {
        var wordings = [text]
        let body = text.hasSuffix(".") ? String(text.dropLast()) : text
        for marker in [", e.g. ", " such as ", "; ", ": "] {
            if let range = body.range(of: marker), range.lowerBound > body.startIndex {
                wordings.append(String(body[..<range.lowerBound]) + ".")
            }
        }
        return wordings
    }
}

extension PaymentFormState {
    /// Each field's note, or nil: the form's complaint where it names the field, else what a refused Pay said of it
    /// (until the field changes), else a character the field can never hold (or a month past 12), each said until it
    /// is gone; the card's hint (`cardHint`) where it has none.
    func fieldNotes(cardHint: CardFormNote?) -> [CardFormNote?] {
        Self.fields.enumerated().map { index, field in
            if let error, errorField == field { return CardFormNote(field: index, text: Self.besideText(error, field), role: .error) }
            if let refusal = refused[field] { return CardFormNote(field: index, text: Self.besideText(refusal, field), role: .error) }
            if field == .card { return cardHint }
            return PaymentForm.strayCharacterProblem(field, text(field)).map { CardFormNote(field: index, text: $0 + ".", role: .error) }
        }
    }

    /// A complaint as it reads beside its field: without the field's label, nor "the card number" before what is
    /// wrong with it ("fails the Luhn check; …": the note is beside the number).
    static func besideText(_ error: String, _ field: PaymentField) -> String {
        var text = error.hasPrefix(field.label + ": ") ? String(error.dropFirst(field.label.count + 2)) : error
        let named = "the \(field.label.lowercased()) "
        if text.hasPrefix(named) { text = String(text.dropFirst(named.count)) }
        return text
    }
}

extension AppView {
    /// The card number's hint as it is typed: its brand, digit count and Luhn check. Narrow (60 columns leave 12):
    /// the short forms, so that "Visa · Luhn ✓" is not cut before its ✓; still too wide, the brand on one row and
    /// the rest under it, rather than a wrap that leaves "Mastercard ·" above "8/16".
    static func cardHintNote(_ number: String, width: Int) -> CardFormNote {
        let hint = PaymentForm.cardHint(number)
        let role: Role = hint.valid == true ? .success : hint.valid == false ? .error : .hint
        var text = hint.text
        if CharacterWidth.of(text) > width {
            text = text.replacingOccurrences(of: "American Express", with: "Amex")
                .replacingOccurrences(of: " · Luhn ✓", with: " ✓").replacingOccurrences(of: " · fails Luhn", with: " ✗ Luhn")
        }
        var preset: [String]?
        if CharacterWidth.of(text) > width, let dot = text.range(of: " · ") {
            preset = [String(text[..<dot.lowerBound]), String(text[dot.upperBound...])]
        } else if CharacterWidth.of(text) > width, let mark = text.range(of: " ✗ ") {
            preset = [String(text[..<mark.lowerBound]), String(text[text.index(after: mark.lowerBound)...])]
        }
        return CardFormNote(field: 0, text: text, role: role, presetLines: preset)
    }

    /// The rows beside the fields (`rows`: one per field, then the blank ones under the last): each note from its
    /// field's row, whole while the rows under it hold no other note (at most `atMost` of them); else on one row, in
    /// a shorter wording. The focused field's note keeps its rows when no shorter wording fits (only "…" would),
    /// and the note it then covers comes back when the focus leaves. Returns each note's first row and lines.
    static func besideLayout(_ notes: [CardFormNote?], focus: Int?, rows: Int, width: Int, atMost: (CardFormNote) -> Int)
        -> [(row: Int, lines: [String], role: Role)]
    {
        var placed: [(row: Int, lines: [String], role: Role)] = []
        var free = 0
        for (index, note) in notes.enumerated() {
            guard index >= free, let note else { continue }
            let next = notes.indices.first { $0 > index && notes[$0] != nil } ?? rows
            let whole = note.lines(width: width, atMost: min(atMost(note), rows - index))
            var lines: [String]
            if whole.count <= next - index {
                lines = whole
            } else if next - index >= 2 {
                lines = note.lines(width: width, atMost: next - index)
            } else if case let short = CardFormNote.oneLine(note.text, width: width), !short.cut || index != focus {
                lines = [short.text]
            } else {
                lines = whole
            }
            placed.append((index, lines, note.role))
            free = index + lines.count
        }
        return placed
    }

    /// The rows under the buttons (a form too narrow for notes beside its fields): each note with its field's label,
    /// `notes` in order (the focused field's first). All whole when they fit; else one row each, in a shorter
    /// wording; more notes than rows: the last row names the fields whose notes are not shown, so that none goes
    /// unsaid (Tab there shows it first).
    static func underLayout(_ notes: [(label: String?, text: String)], rows: Int, width: Int) -> [String] {
        guard rows > 0, !notes.isEmpty else { return [] }
        let whole = notes.map { Wrap.lines(labelled($0), width: width) }
        if whole.reduce(0, { $0 + $1.count }) <= rows { return whole.flatMap { $0 } }
        if notes.count == 1 { return Wrap.lines(labelled(notes[0]), width: width, atMost: rows) }
        let shown = notes.count <= rows ? notes[...] : notes.prefix(rows - 1)
        var lines = shown.map { CardFormNote.oneLine($0.text, width: width, label: $0.label).text }
        if notes.count > rows {
            let rest = notes.dropFirst(rows - 1).compactMap(\.label)
            lines.append(CharacterWidth.truncate("Also a note on \(rest.joined(separator: ", ")) (Tab there shows it).", to: width))
        } else if let first = whole.first, first.count > 1, first.count - 1 <= rows - lines.count {
            // Rows to spare: the first (focused) note whole.
            lines.replaceSubrange(0..<1, with: first)
        }
        return lines
    }

    private static func labelled(_ note: (label: String?, text: String)) -> String { (note.label.map { "\($0): " } ?? "") + note.text }
}
