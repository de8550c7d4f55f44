import FlowEngine
import Foundation
import IdentityProvider
import IdpFlows
import LocaleText
import PaymentFlows
import ThreeDSecure

/// The card form's picker of the issuer's test cards: the filter typed, and which of the cards it matches has focus.
public struct CardPickerState: Sendable, Equatable {
    public let cards: [TestCard]
    /// Index into ``matches``.
    public var focus = 0
    /// Text every listed card's line contains (any case): its number (with or without spaces), test case ("Test
    /// Case 4" or "TC4"), brand, expected outcome or name. Typing a character other than j and k adds to it (`/` first to start with those).
    public var filter = ""
    /// A filter is being typed (`/`, or a first character other than j, k and space): every character goes to it.
    public var editingFilter = false
    /// The first card the list shows (``ListWindow``).
    public var first = 0

    public init(cards: [TestCard], focusing number: String? = nil) {
        self.cards = cards
        focus = number.flatMap { number in cards.firstIndex { $0.number == number } } ?? 0
    }

    /// The cards the filter leaves, in the catalogue's order.
    public var matches: [TestCard] {
        let typed = filter.lowercased()
        guard !typed.isEmpty else { return cards }
        return cards.filter { card in
            let source = card.source ?? "own card"
            let line = [card.number, PaymentForm.formatCardNumber(card.number), source,
                        source.replacingOccurrences(of: "Test Case ", with: "TC"), card.brand.rawValue,
                        card.expectedOutcome, card.title].joined(separator: " · ").lowercased()
            return line.contains(typed)
        }
    }
}

// Test data at hand: F4 on a credential form fills the next demo user of the scenario; on the card form it opens
// a picker of the test cards (Cardinal's cases, by name and expected outcome).
extension TerminalApp {
    func handleTestDataKey() -> Bool {
        switch state.screen {
        case .form(var form):
            fillDemoUser(&form)
            state.screen = .form(form)
            return true
        case .payment:
            state.cardPicker = CardPickerState(cards: service.world.testCards, focusing: state.lastTestCard)
            return true
        default:
            return false
        }
    }

    /// Fills the form's username, password and activation code from the next user of the app's tenant.
    private func fillDemoUser(_ form: inout FormState) {
        let users = service.world.demoUsers
        guard !users.isEmpty else {
            state.notice = "the scenario has no users on this tenant"
            return
        }
        let flowID = form.prompt.flowID
        let index: Int
        // A demo user's name typed (not the one this form's F4 has just filled in, untouched since): that user, and
        // the next F4 goes on from there; with 1,000 users on the tenant, stepping through them is no way to reach
        // one. A form asked again in the same flow starts its own turn.
        let typed = form.prompt.fields.firstIndex(of: .username).map { form.inputs[$0].text }
        let named = typed.flatMap { name in users.firstIndex { $0.username == name } }
        if let named, typed != form.filledName {
            index = named
            form.demoUser = named + 1
        } else if !form.prompt.fields.contains(.username), let last = state.lastUser, last.flowID == flowID {
            // A later page (activation's code; the password of a form that asks for the username first): the user
            // the first page named, filled in or typed. Another user's secret there is wrong for that name and
            // costs an attempt, so a name that is no demo user's gets nothing.
            guard let user = users.firstIndex(where: { $0.username == last.name }) else {
                state.notice = "the name the first page sent is no demo user's: type its \(Self.secretAsked(form))"
                return
            }
            index = user
        } else {
            index = form.demoUser % users.count
            form.demoUser += 1
        }
        let user = users[index]
        state.lastUser = (flowID, user.username)
        Self.fill(&form, with: user)
        // On to the first field still empty, else Submit: Enter then submits what F4 filled in, as after typing the
        // last field (the focus stayed on the username, and the first Enter only moved it on).
        form.focus = form.inputs.firstIndex { $0.isEmpty } ?? form.fieldCount
        if form.prompt.fields.contains(.username) { form.filledName = user.username }
        state.notice = !form.prompt.fields.contains(.username) ? "filled in demo user \(user.username)'s \(Self.secretAsked(form))"
            : index == named && typed == (form.prompt.request as? any CredentialForm)?.knownUsername
                ? "filled in demo user \(user.username), the name the form had (F4: the next one)"
            : index == named ? "filled in demo user \(user.username), the name typed (F4: the next one)"
            : "filled in demo user \(user.username) (F4: the next one; or type a name, then F4)"
    }

    /// What a page that asks for no user name asks for, in words: "code", "password", or both.
    static func secretAsked(_ form: FormState) -> String {
        let words = form.prompt.fields.map { $0 == .activationCode ? "code" : TerminalApp.label($0).lowercased() }
        return words.joined(separator: " and ")
    }

    /// What a demo user fills `field` with: its name, its password (a current password too), its activation code.
    static func value(of field: CredentialField, for user: UserConfiguration) -> String? {
        switch field {
        case .username: user.username
        case .password, .currentPassword: user.password.reveal()
        case .activationCode: user.activationCode?.code.reveal()
        default: nil
        }
    }

    /// Puts `user`'s username, password and activation code into the form's fields that ask for them (F4, and `?`
    /// in plain mode): into the fields' text, which becomes a `Secret` on submit, as typed text does. Returns the
    /// fields filled; never shows a value.
    @discardableResult
    static func fill(_ form: inout FormState, with user: UserConfiguration) -> [CredentialField] {
        var filled: [CredentialField] = []
        for (index, field) in form.prompt.fields.enumerated() {
            guard let value = value(of: field, for: user) else { continue }
            form.inputs[index].clear()
            form.inputs[index].insert(value)
            filled.append(field)
        }
        form.error = nil
        return filled
    }

    func handleCardPicker(_ key: Key, _ picker: inout CardPickerState) {
        let cards = picker.matches
        // As the history list's: the list moves only to keep the focus shown.
        let rows = AppView.cardPickerRows(picker, height: state.height)
        picker.first = ListWindow.first(kept: picker.first, focus: picker.focus, rows: rows, count: cards.count)
        switch key {
        case .escape where !picker.filter.isEmpty || picker.editingFilter:
            // The first Esc clears the filter, the next closes the picker. The card the filter found stays focused
            // among them all, as the log's selection does (it went back to the first card).
            let found = cards.indices.contains(picker.focus) ? cards[picker.focus].number : nil
            picker.filter = ""
            picker.editingFilter = false
            picker.focus = picker.matches.firstIndex { $0.number == found } ?? 0
        case .escape, .f4:
            state.cardPicker = nil
            return
        case .character("/") where !picker.editingFilter:
            picker.editingFilter = true
        case .character(let character)
            where picker.editingFilter || !picker.filter.isEmpty || !["j", "k", " "].contains(character):
            // At most 40 characters, as the log's filter.
            guard picker.filter.count < LogFocusState.filterLimit else {
                state.notice = LogFocusState.filterFull
                break
            }
            // Once a filter is being typed every character is part of it (arrows move).
            picker.filter.append(character)
            picker.editingFilter = true
            picker.focus = 0
        case .backspace where !picker.filter.isEmpty, .control("h") where !picker.filter.isEmpty, .control("u"), .control("w"), .altBackspace:
            _ = TextInput.deleteAtEnd(of: &picker.filter, key)
            picker.focus = 0
        case .backspace: picker.editingFilter = false
        case .up, .backTab, .character("k"): picker.focus = max(0, picker.focus - 1)
        case .down, .tab, .character("j"): picker.focus = min(max(0, cards.count - 1), picker.focus + 1)
        case .pageUp: picker.focus = max(0, picker.focus - 10)
        case .pageDown: picker.focus = min(max(0, cards.count - 1), picker.focus + 10)
        case .home: picker.focus = 0
        case .end: picker.focus = max(0, cards.count - 1)
        case .enter where cards.indices.contains(picker.focus):
            state.cardPicker = nil
            guard case .payment(var form) = state.screen else { return }
            let card = cards[picker.focus]
            let before = form.inputs.map(\.text)
            for (field, value) in [(PaymentField.card, card.number), (.expiry, testExpiry)] {
                guard let index = PaymentFormState.fields.firstIndex(of: field) else { continue }
                form.inputs[index].clear()
                form.inputs[index].insert(value)
            }
            form.formatAsTyped()
            form.forgetRefusals(changedFrom: before)
            // Pay, unless another field is still wrong: then that field (a tester's next keys, meant for the amount,
            // went into the card from Pay).
            let wrong = PaymentForm.problems(card: form.text(.card), expiry: form.text(.expiry), amount: form.text(.amount),
                                             currency: form.text(.currency), merchant: form.text(.merchant)).first
            form.focus = wrong.flatMap { PaymentFormState.fields.firstIndex(of: $0.field) } ?? form.submitIndex
            form.error = nil
            // A letter left in the amount is still there, and still said (the pick had cleared the complaint).
            form.sayStrayCharacters()
            state.screen = .payment(form)
            state.notice = "\(card.brand.rawValue) \(card.source.map { "· \($0) " } ?? "")· \(card.title)"
            state.lastTestCard = card.number
            return
        default: break
        }
        picker.first = ListWindow.first(kept: picker.first, focus: picker.focus, rows: rows, count: picker.matches.count)
        state.cardPicker = picker
    }

    /// An expiry in the future, as Cardinal's tables advise: month 01, three years on (on the simulation clock).
    private var testExpiry: String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let year = calendar.component(.year, from: service.world.clock.now.date)
        return "01/" + String(format: "%02d", (year + 3) % 100)
    }
}

extension TestCard {
    /// What a card ends in, in a few words: "frictionless Y", "challenge → N", "lookup: Enrolled U".
    var expectedOutcome: String {
        switch scenario {
        case .frictionless(let status, _): return "frictionless \(status.rawValue)"
        case .lookup(let outcome): return "lookup: Enrolled \(outcome.enrolled.rawValue)"
        case .challenge(let design):
            let kind = switch design.uiType {
            case .text: "challenge"
            case .singleSelect: "single-select"
            case .multiSelect: "multi-select"
            case .outOfBand: "out-of-band"
            case .htmlOther: "HTML"
            }
            // An HTML challenge cannot be shown here: the 3DS SDK ends it as a transaction error (challengeCancel 06), U.
            if design.uiType == .htmlOther { return "\(kind) → U" }
            // "(error)", not EMV's message name "Erro", which two testers read as a word cut short.
            return design.endsInError ? "\(kind) → U (error)" : "\(kind) → \(design.outcome.rawValue)"
        }
    }
}

extension AppView {
    /// The height of the picker's box at a terminal of `height` rows: as tall as the whole catalogue, whatever the
    /// filter leaves, within the terminal.
    static func cardPickerHeight(_ picker: CardPickerState, height: Int) -> Int { min(height - 4, picker.cards.count + 6) }

    /// The cards the picker's list shows.
    static func cardPickerRows(_ picker: CardPickerState, height: Int) -> Int { max(1, cardPickerHeight(picker, height: height) - 5) }

    static func drawCardPicker(_ buffer: inout ScreenBuffer, _ picker: CardPickerState) {
        let cards = picker.matches
        let width = buffer.width - 4
        // The list, and under it the focused card's whole name and outcome (the list's columns cut them when narrow).
        // Its height stays that of the whole catalogue while a filter narrows the list.
        let height = cardPickerHeight(picker, height: buffer.height)
        let top = max(1, (buffer.height - height) / 2)
        let left = 2
        buffer.fill(top: top, left: left, width: width, height: height, role: .text)
        // What the picker covers is not clickable through it; its cards are.
        buffer.targets = []
        let title: String
        if picker.filter.isEmpty && !picker.editingFilter {
            // The focused card's place, and below a filter how many match: "33 of 55" said either.
            let place = cards.isEmpty ? "Test cards" : "Test card \(picker.focus + 1) of \(cards.count)"
            title = "\(place) — type to filter, enter fills the form, esc closes"
        } else if picker.filter.isEmpty {
            // A filter emptied by Ctrl-W or Backspace, still being typed ("matching “”: 55 of 55 match" said nothing).
            title = "Type to filter all \(picker.cards.count) test cards — esc stops filtering"
        } else {
            title = "Test cards matching “\(picker.filter)”: \(cards.count) of \(picker.cards.count) match — esc clears"
        }
        Frame.draw(&buffer, top: top, left: left, width: width, height: height,
                   title: CharacterWidth.truncate(title, to: width - 6))
        let rows = cardPickerRows(picker, height: buffer.height)
        if cards.indices.contains(picker.focus) {
            let card = cards[picker.focus]
            let whole = "\(card.source ?? "own card"): \(card.title) — \(card.expectedOutcome)"
            buffer.putWrapped(whole, row: top + height - 3, column: left + 3, width: width - 4, lines: 2, role: .hint)
        } else {
            buffer.putWrapped("No test card matches; backspace or esc widens the list.", row: top + 2, column: left + 3,
                              width: width - 4, lines: 2, role: .hint)
        }
        let first = ListWindow.first(kept: picker.first, focus: picker.focus, rows: rows, count: cards.count)
        // As wide as the longest outcome of the whole catalogue (so the column stays put while a filter narrows the
        // list), within 24; a longer one ends in "…" ("challenge → U, Erro" was cut to "challenge → U, Err"; it
        // reads "challenge → U (error)" now).
        let outcomeWidth = min(24, picker.cards.map { CharacterWidth.of($0.expectedOutcome) }.max() ?? 18)
        // The name only where it has room to say something: at 60 columns it was cut to "Suc…", "Err…" (the line
        // under the list has the focused card's whole).
        // The numbers' column as wide as the catalogue's longest (a scenario's 19-digit Visa was cut to 16, and two
        // such cards read the same).
        let numberWidth = max(19, picker.cards.map { CharacterWidth.of(PaymentForm.formatCardNumber($0.number)) }.max() ?? 19)
        let showsName = width - 4 - (numberWidth + 2 + 4 + 2 + outcomeWidth + 2) >= 12
        for (offset, card) in cards.enumerated().dropFirst(first).prefix(rows) {
            let row = top + 2 + offset - first
            let focused = offset == picker.focus
            buffer.targets.append(ClickTarget(row: row, column: left + 1, width: width - 2, stop: offset))
            let source = card.source.map { $0.replacingOccurrences(of: "Test Case ", with: "TC") } ?? "own"
            let columns = [
                LogPane.pad(PaymentForm.formatCardNumber(card.number), numberWidth),
                LogPane.pad(source, 4), showsName ? LogPane.pad(card.expectedOutcome, outcomeWidth) : card.expectedOutcome,
            ] + (showsName ? [card.title] : [])
            let line = columns.joined(separator: "  ")
            buffer.put(focused ? "›" : " ", row: row, column: left + 1, role: focused ? .fieldFocused : .fieldBlurred)
            buffer.put(CharacterWidth.truncate(line, to: width - 4), row: row, column: left + 3,
                       role: focused ? .menuFocused : .text, limit: width - 4)
        }
        buffer.cursor = nil
    }
}
