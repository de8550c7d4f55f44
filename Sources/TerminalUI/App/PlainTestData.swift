import FlowRecords
import FlowEngine
import IdentityProvider
import IdpFlows
import LocaleText
import PaymentFlows
import ThreeDSecure

// Plain mode's test data, asked for with `?`, as F4 gives it in the terminal UI: at the card number, the test cards
// in columns; at a credential form's user name or activation code, the demo users by number, one of which fills
// the form (its password and activation code go into the fields unseen, as F4 puts them there).
extension TerminalApp {
    /// Whether plain mode's listings are spelled in ASCII (a locale that is not UTF-8): their columns are then
    /// measured in the ASCII that is printed (`→` is `->`, two columns).
    public var plainASCII: Bool {
        get { state.plainASCII }
        set { state.plainASCII = newValue }
    }

    /// The app runs in plain mode (``answerPlain(_:)``).
    public var plain: Bool {
        get { state.plain }
        set { state.plain = newValue }
    }

    /// The test cards, one a line in columns: number, brand, Cardinal's case (or the scenario's own card), what
    /// the payment should end with, and the case's name.
    static func testCardLines(_ cards: [TestCard], ascii: Bool) -> [String] {
        let rows = cards.map { card in
            [PaymentForm.formatCardNumber(card.number), card.brand.rawValue, card.source ?? "own card", card.expectedOutcome, card.title]
        }
        return ["Test cards (type a number; the expiry can be any month to come):"]
            + plainColumns([["number", "brand", "case", "outcome", "name"]] + rows, ascii: ascii)
    }

    /// A listing's rows in aligned columns (``CharacterWidth/columns(_:gap:)``: by the width the terminal shows,
    /// not by the count of characters), indented by two. With `ascii` each cell is spelled in ASCII first, so
    /// that the columns are measured in what is printed.
    static func plainColumns(_ rows: [[String]], ascii: Bool) -> [String] {
        CharacterWidth.columns(rows.map { row in row.map { ascii ? PlainASCII.text($0) : $0 } }).map { "  " + $0 }
    }

    /// Whether `?` at this field gives demo data, when the scenario has users on the app's tenant: at the user name
    /// the demo users; at a password or activation code the secret of the user named (``namedUser(of:)``), on the
    /// user name's page too (`?` was sent there as the password, and cost an attempt; at KSSIDP's code it listed
    /// every user, and the one picked replaced the name typed).
    func offersDemoUsers(_ field: CredentialField, in form: FormState) -> Bool {
        (field == .username || field == .activationCode || field == .password) && !service.world.demoUsers.isEmpty
    }

    /// The demo user whose secrets a form's `?` fills in: the one whose name is typed on its page, or on a later page
    /// that asks for no user name, the one the first page named. Nil when that name is no demo user's.
    func namedUser(of form: FormState) -> UserConfiguration? {
        guard let at = form.prompt.fields.firstIndex(of: .username) else { return firstPageUser(of: form) }
        let typed = form.inputs[at].text
        return service.world.demoUsers.first { $0.username == typed }
    }

    /// The fields `?` at the field `index` fills in: it and the secrets after it. The name and the answers given
    /// before it stay as typed (a wrong password typed on purpose).
    private static func secretsFilled(from index: Int, in form: FormState) -> [Int] {
        form.prompt.fields.indices.filter { $0 >= index && [.password, .activationCode].contains(form.prompt.fields[$0]) }
    }

    /// Those fields in words: "password and code".
    private static func secretWords(from index: Int, in form: FormState) -> String {
        secretsFilled(from: index, in: form).map { form.prompt.fields[$0] == .activationCode ? "code" : "password" }.joined(separator: " and ")
    }

    /// A credential form's question: its focused field (saying when `?` lists the demo users), Submit, or, after
    /// `?`, which demo user fills the form.
    func plainFormQuestion(_ form: FormState) -> PlainQuestion {
        if form.choosingDemoUser {
            let count = service.world.demoUsers.count
            // A demo user's name too (a tester typed "alice" and was refused): a name is no secret, and is listed.
            // The names made once: the question is asked again at each event, and a scenario may have 10,000 users.
            let names = state.demoUserNames ?? Set(service.world.demoUsers.map(\.username))
            state.demoUserNames = names
            return PlainQuestion(text: "Demo user (1-\(count) or a name; Enter for none): ", secret: false,
                                 takes: .numberOrListing(count: count, names: names))
        }
        guard let index = form.focusedField else { return PlainQuestion(text: "Submit? (Enter; Esc cancels) ", secret: false, takes: .choice([""])) }
        let field = form.prompt.fields[index]
        let demo = !offersDemoUsers(field, in: form) ? nil : field == .username ? "? lists demo users"
            : namedUser(of: form).map { "? fills in \($0.username)'s \(Self.secretWords(from: index, in: form))" }
        let notes = [field.isSecret ? "hidden" : nil, demo].compactMap { $0 }
        // A value already there (the device's user, for a login) is offered: Enter keeps it.
        let kept = field.isSecret || form.inputs[index].isEmpty ? "" : " [\(form.inputs[index].text)]"
        return PlainQuestion(text: "\(TerminalApp.label(field))\(notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")\(kept): ",
                             secret: field.isSecret)
    }

    /// `?` at a field that offers them: the demo users listed by number (their names, never a password or a
    /// code), and the question which one. False when the line is something else, the field's answer.
    /// `? ` and part of a name lists only the users whose name holds it (any case), as `? ` and text does for the
    /// test cards: a tenant of 1,000 users is listed 20 at most, each by its number in the whole list.
    func askPlainDemoUser(_ text: String, _ form: inout FormState) -> Bool {
        guard let index = form.focusedField, offersDemoUsers(form.prompt.fields[index], in: form) else { return false }
        let field = form.prompt.fields[index]
        // A password may start with `? `: only `?` itself is taken there.
        guard text == "?" || (text.hasPrefix("? ") && field != .password) else { return false }
        // A password or code asks for the secret of the user named, as F4 gives it; any other user's is wrong there,
        // and costs an attempt, so a name that is no demo user's gets none, and `?` is not sent as the answer either.
        if field != .username {
            if let user = namedUser(of: form) {
                plainFill(&form, with: user, from: index)
            } else if form.prompt.fields.contains(.username) {
                form.error = "the user name typed is no demo user's: ? fills in only a demo user's \(Self.secretWords(from: index, in: form)); type it"
            } else {
                form.error = "the name the first page sent is no demo user's: type its \(Self.secretAsked(form))"
            }
            state.screen = .form(form)
            return true
        }
        let filter = text.dropFirst().trimmingCharacters(in: .whitespaces)
        let wantsCode = form.prompt.fields.contains(.activationCode)
        form.choosingDemoUser = true
        form.error = nil
        state.screen = .form(form)
        let matching = service.world.demoUsers.enumerated().filter { filter.isEmpty || $0.element.username.localizedCaseInsensitiveContains(filter) }
        let rows = matching.prefix(Self.demoUsersListed).map { offset, user in
            [String(offset + 1), user.username] + (wantsCode && user.activationCode == nil ? ["no activation code"] : [])
        }
        let heading = filter.isEmpty ? "Demo users of tenant \(service.world.tenantId), by number (no password or code is shown):"
            : "Demo users of tenant \(service.world.tenantId) whose name holds \"\(VisibleText.escaped(filter))\", by number:"
        let more = matching.count - rows.count
        state.plainListing = [heading] + Self.plainColumns(rows, ascii: state.plainASCII)
            + (matching.isEmpty ? ["  none"] : [])
            + (more > 0 ? ["  … \(more) more: type ? and part of a name to list fewer (? \(Self.narrowerFilter(matching[rows.count].element.username, among: service.world.demoUsers)))"] : [])
        return true
    }

    static let demoUsersListed = 20

    /// The demo user the first page of this form's flow named (typed or filled in), for a form that asks for no
    /// user name (activation's code).
    func firstPageUser(of form: FormState) -> UserConfiguration? {
        guard !form.prompt.fields.contains(.username), let last = state.lastUser, last.flowID == form.prompt.flowID else { return nil }
        return service.world.demoUsers.first { $0.username == last.name }
    }

    /// `user`'s credentials into the form (nothing of them printed), the first field left empty focused, else
    /// Submit; the listing says which fields were filled. From `index`: only the secrets from that field on.
    private func plainFill(_ form: inout FormState, with user: UserConfiguration, from index: Int? = nil) {
        var filled: [CredentialField] = []
        if let index {
            for at in Self.secretsFilled(from: index, in: form) {
                let field = form.prompt.fields[at]
                guard let value = Self.value(of: field, for: user) else { continue }
                form.inputs[at].clear()
                form.inputs[at].insert(value)
                filled.append(field)
            }
            form.error = nil
        } else {
            filled = Self.fill(&form, with: user)
        }
        form.focus = form.inputs.firstIndex(where: \.isEmpty) ?? form.submitIndex
        let what = filled.map { $0.label.lowercased() + ($0.isSecret ? " (not shown)" : "") }
        state.plainListing = [what.isEmpty ? "Demo user \(user.username) has no activation code in the scenario."
            : "Filled in demo user \(user.username): \(what.joined(separator: ", "))."]
    }

    /// What to type after `?` to reach `name`, a user not listed: the shortest start of it that at most
    /// ``demoUsersListed`` names hold (its whole name at worst). A fixed-length start is no help when the names share
    /// one (`user0001` … `user1000`: `? user` holds them all).
    static func narrowerFilter(_ name: String, among users: [UserConfiguration]) -> String {
        var start = ""
        for character in name {
            start.append(character)
            var holding = 0
            for user in users where user.username.localizedCaseInsensitiveContains(start) {
                holding += 1
                if holding > demoUsersListed { break }
            }
            if holding <= demoUsersListed { return start }
        }
        return name
    }

    /// The answer to "Demo user": that user's credentials into the form (``fill(_:with:)``, nothing of them
    /// printed) and the first field left empty asked next, else Submit; an empty line goes back to the field.
    /// True when the answer is refused and asked again.
    func answerPlainDemoUser(_ text: String, _ form: inout FormState) -> Bool {
        // `?` or `? ` and text again: listed again, as the listing's own hint says.
        if askPlainDemoUser(text, &form) { return false }
        let users = service.world.demoUsers
        let chosen = Int(text).flatMap { users.indices.contains($0 - 1) ? users[$0 - 1] : nil } ?? users.first { $0.username == text }
        if let user = chosen {
            state.lastUser = (form.prompt.flowID, user.username)
            plainFill(&form, with: user)
        } else if !text.isEmpty {
            form.error = "choose a demo user from 1 to \(users.count), or by name, or Enter for none"
            state.screen = .form(form)
            return true
        }
        form.choosingDemoUser = false
        form.error = nil
        state.screen = .form(form)
        return false
    }
}
