import Foundation
import FlowEngine
import FlowRecords
import LocaleText
import PaymentFlows
import Secrets
import ThreeDSecure

// The plain mode (`--plain`, or TERM=dumb, or no terminal on standard output): the same app, its screens told
// as lines of text and its questions answered one line each, as huh's accessible mode does. A line is turned
// into what the keys would do, so the flows, checks and errors are the terminal UI's own.
extension TerminalApp {
    /// The current screen as plain lines: its title and what it says, without its questions. The front end
    /// prints them when they change.
    public var plainScreen: [String] {
        switch state.screen {
        case .home where state.plainMenuQuestion != nil:
            return plainMenuQuestionScreen
        case .home where state.plainMenuListed:
            // Once listed and answered, the menu comes back as its one line that changes, the device.
            return ["What would you like to do? (device: \(state.deviceStatus); Enter lists the choices)"]
        case .home:
            // The status line's device, which the terminal UI shows at the bottom: whether Log in can work.
            return ["What would you like to do? (device: \(state.deviceStatus))"] + plainMenuChoices
        case .form(let form):
            // A form's banner (Q2's deep link's), as the terminal UI shows it over the form (and plain mode over the choice).
            var lines = [panelTitle] + ((form.prompt.request as? any CredentialForm)?.banner.map { ["⚠ \($0)"] } ?? [])
            if let note = form.note { lines.append(note) }
            if let error = form.error { lines.append("! \(error)") }
            return lines
        case .payment(let form):
            // A card of the scenario's that asks for a code, the first (2503 among Cardinal's): it was named whatever the
            // scenario held, with the default cards left out too.
            let asking = service.world.testCards.first {
                if case .challenge(let design) = $0.scenario { design.uiType == .text && design.outcome == .authenticated && !design.endsInError } else { false }
            }
            let code = service.world.scenario.challengePolicy.shownCode.map { ", \($0)" } ?? ""
            let example = asking.map { " (\($0.brand.rawValue) \(PaymentForm.formatCardNumber($0.number)) asks for a code\(code))" } ?? ""
            var lines = [panelTitle, "Test cards: ? lists them, ? TEXT those matching" + example]
            if form.showsLastCard { lines.append("The last card used is filled in: Enter keeps it, another number replaces it.") }
            if let error = form.error { lines.append("! \(error)") }
            return lines
        case .challenge(let challenge):
            let screen = challenge.screen
            var lines = [panelTitle, "\(screen.amount) at \(screen.merchantName) · card \(screen.maskedCard) · \(screen.uiType.name)", screen.prompt]
            for (index, option) in screen.options.enumerated() { lines.append("  \(index + 1) \(option)") }
            if screen.uiType == .text { lines.append("(\(AppView.codeHint(screen)))") }
            if screen.uiType == .singleSelect || screen.uiType == .multiSelect {
                lines.append(screen.expectedChoice.map { "(the simulated issuer takes \($0))" } ?? "(the scenario's own answer: its card's correct)")
            }
            // The ACS's message says the attempts left itself after a wrong answer ("wrong code; 2 attempts left").
            // A one-time code's screen says the resends left too, as the terminal UI does.
            let attempts = screen.attemptsLeftText + screen.resendsLeftText
            let status = screen.message.map { screen.messageCountsAttempts ? $0 + screen.resendsLeftText : attempts.isEmpty ? $0 : "\(attempts) · \($0)" }
            if let line = status ?? (attempts.isEmpty ? nil : attempts) { lines.append(line) }
            if let error = challenge.error { lines.append("! \(error)") }
            return lines
        case .choice(let choice):
            return Self.plainChoice(choice)
        case .working(_, let flow, let step):
            // No heading for a flow the user has cancelled (Esc at its prompt): no work starts, and its cancel
            // events and result follow at once.
            if step == ScreenState.cancellingStep { return [] }
            // Ctrl-D, as the help names the key (it said "end of input"; piped, a flow working finishes first).
            return ["\(flow.title): working… (Esc or Ctrl-D cancels)"]
        case .result(let result):
            // Its id in the history (the terminal UI's log rule says it), which `h` and `idp-tui history show` take.
            let summary = AppView.resultSummary(result)
            let history = state.historyIDs[result.flowID].map { ["  history: flow \($0) (h shows it)"] } ?? []
            return [summary.headline] + summary.rows.map { "  \($0.0): \($0.1)" } + history
        case .comparison(let comparison):
            // One side under the other, in lines an 80-column terminal does not wrap; the heading once, while it runs.
            // Under the report, its other variants, as the terminal UI's 1, 2 and 3 run them (plain mode offered none).
            let variants = ComparisonState.variantWords.enumerated().map { "\($0.offset + 1) \($0.element.word)" }.joined(separator: ", ")
            return (comparison.running ? ["KSSIDP comparison"] : []) + comparison.lines(width: state.plainWidth, stacked: true)
                + (comparison.running ? [] : ["", "Compare again: \(variants) (docs/migration.md has them)"])
        case .history, .transcript:
            return [panelTitle, "(this screen is the terminal UI's; `idp-tui history` prints it; Enter goes back)"]
        }
    }

    /// The menu's choices, one a line, numbered.
    var plainMenuChoices: [String] {
        MenuItem.all.enumerated().map { "  \($0.offset + 1) \($0.element.title)" }
            + ["  f Faults: switch them on and off (the terminal UI's panel)", "  h History: past flows, each with its events",
               "  ? Help: the keys at every question"]
    }

    /// What is wrong with the answer just given, when the same question is asked again for it.
    public var plainError: String? {
        switch state.screen {
        case .form(let form): form.error
        case .payment(let form): form.error
        case .challenge(let challenge): challenge.error
        case .choice(let choice): choice.error
        default: nil
        }
    }

    private var panelTitle: String {
        switch state.screen {
        case .form(let form): form.prompt.title
        case .payment(let form): form.prompt.title
        case .challenge(let challenge): challenge.prompt.title
        case .choice(let choice): choice.prompt.title
        default: ""
        }
    }

    /// What the current screen asks, if anything.
    public var plainQuestion: PlainQuestion? {
        switch state.screen {
        case .home where state.plainMenuQuestion != nil:
            return plainMenuSubquestion
        case .home:
            // Either case, and Enter (which lists the choices again, not echoed as "not an answer").
            let choices = Set((1...MenuItem.all.count).map(String.init) + ["q", "Q", "f", "F", "h", "H", "?", ""])
            // The faults on, as the status line counts them: the flow chosen meets them. In the question, which is
            // asked again as the menu comes back, rather than in the menu, printed again at each switch.
            let faults = state.faultsOnText.map { "\($0); " } ?? ""
            var menu = PlainQuestion(text: "Choose 1-\(MenuItem.all.count) (\(faults)q quits): ", secret: false, takes: .choice(choices))
            menu.stableIdentity = "menu"
            return menu
        case .form(let form):
            return plainFormQuestion(form)
        case .payment(let form):
            guard let index = form.focusedField else { return PlainQuestion(text: "Pay? (Enter; Esc cancels) ", secret: false, takes: .choice([""])) }
            let field = PaymentFormState.fields[index]
            let question = PlainQuestion(text: "", secret: false, cardNumber: field == .card)
            let value = form.inputs[index].isEmpty ? "" : question.shown(form.inputs[index].text)
            return PlainQuestion(text: "\(field.label)\(value.isEmpty ? "" : " [\(value)]"): ", secret: false, cardNumber: field == .card)
        case .challenge(let challenge):
            switch challenge.screen.uiType {
            case .text:
                // Resend is offered while the ACS will send another code.
                let resend = challenge.screen.resendsLeft > 0 ? "; \"resend\" for a new one" : ""
                return PlainQuestion(text: "One-time code (hidden\(resend)): ", secret: true)
            case .singleSelect:
                return PlainQuestion(text: "Choose one (1-\(challenge.screen.options.count)): ", secret: false,
                                     takes: .options(count: challenge.screen.options.count))
            case .multiSelect:
                return PlainQuestion(text: "Choose all that apply (e.g. 1,3): ", secret: false,
                                     takes: .options(count: challenge.screen.options.count))
            case .outOfBand: return PlainQuestion(text: "Approve on the other device? (y/n): ", secret: false, takes: .choice(["y", "n"]))
            case .htmlOther: return PlainQuestion(text: "Not shown here; Enter tells the ACS (U, challengeCancel 06): ", secret: false, takes: .choice([""]))
            }
        case .choice(let choice):
            let count = choice.choice.options.count
            return PlainQuestion(text: "Choose 1-\(count) (Enter: 1): ", secret: false, takes: .choice(Set([""] + (1...count).map(String.init))))
        case .comparison(let comparison) where comparison.running:
            return nil  // the report comes first, as a flow's result does
        case .comparison:
            let count = ComparisonState.variantWords.count
            return PlainQuestion(text: "Enter goes back (1-\(count) compares again; h history; q quits): ", secret: false,
                                 takes: .choice(Set(["", "q", "h", "H"] + (1...count).map(String.init))))
        case .result, .history, .transcript:
            return PlainQuestion(text: "Enter goes back (h history; q quits): ", secret: false, takes: .choice(["", "q", "h", "H"]))
        case .working: return nil
        }
    }

    /// One line typed as the answer to ``plainQuestion`` (nil: the input ended). A line with Esc cancels. Returns
    /// true when the same question is asked again because the answer was refused (``plainError`` says why): the
    /// front end then says why again even when the screen is unchanged.
    @discardableResult
    public func answerPlain(_ line: String?) -> Bool {
        guard let line else {
            // End of input: cancel what runs, or quit from a resting screen.
            switch state.screen {
            // Ctrl-D at the faults or the history question goes back to the menu, as Esc does (it quit the session).
            case .home where state.plainMenuQuestion != nil: closePlainMenuQuestion()
            case .home, .result, .history, .transcript, .comparison: quit(0)
            default: handle(.escape)
            }
            return false
        }
        if let refused = Self.refusedForEscapes(line) {
            return refuse(refused)
        }
        if line.unicodeScalars.contains("\u{1b}") {
            // At the menu there is nothing to cancel: it asked again without a word.
            if case .home = state.screen, state.plainMenuQuestion == nil {
                state.notice = "Esc cancels a flow; there is none here: q quits"
                return false
            }
            if case .home = state.screen {
                closePlainMenuQuestion()
                return false
            }
            handle(.escape)
            return false
        }
        let text = line.trimmingCharacters(in: .whitespaces)
        switch state.screen {
        case .home where state.plainMenuQuestion != nil:
            return answerPlainMenuSubquestion(text)
        case .home:
            // Left for a flow, the faults or the history, the menu comes back as one line; a listing (`?`, Enter)
            // or a refusal keeps it in place, printed once.
            if openPlainMenuQuestion(text) {
                if state.plainMenuQuestion != nil { state.plainMenuListed = true }
                return false
            }
            if text.lowercased() == "q" { quit(0) } else if let number = Int(text), (1...MenuItem.all.count).contains(number) {
                state.plainMenuListed = true
                handle(.character(Character(String(number))))
                handle(.enter)
            } else if text.isEmpty {
                // Enter alone lists the choices again, as bash's `select` does on an empty line.
                state.plainListing = plainMenuChoices
            } else {
                state.notice = "choose a number from 1 to \(MenuItem.all.count), f (faults), h (history), ? (help) or q"
            }
            return false
        case .form(var form):
            // `?` at the user name or activation code: the demo users, and then which one fills the form.
            if form.choosingDemoUser { return answerPlainDemoUser(text, &form) }
            // Refused (a later page's `?` for a name that is no demo user's): asked again, as any refusal.
            if askPlainDemoUser(text, &form) { return form.error != nil }
            // Submit takes Enter alone: a line meant for a question the form no longer asks (a code a demo user
            // filled in) neither submits nor shows.
            guard let index = form.focusedField else { return text.isEmpty ? submitPlain() : refuse("Enter submits; Esc cancels") }
            let field = form.prompt.fields[index]
            let label = TerminalApp.label(field)
            // Each field is checked as it is answered, not after the whole form. An empty line keeps what a field
            // that is not secret already holds (the device's user name).
            let keep = line.isEmpty && !field.isSecret && !form.inputs[index].isEmpty
            // What it held is offered again when the line is refused as too long.
            let held = field.isSecret ? "" : form.inputs[index].text
            if !keep { form.inputs[index].clear() }
            if keep {
                form.error = nil
            } else if line.isEmpty {
                form.error = "Fill in \(label)."
            } else if !form.inputs[index].insert(line) {
                form.inputs[index].clear()
                form.inputs[index].insert(held)
                form.error = "\(label): at most \(form.inputs[index].maximumBytes) bytes, and no control characters."
            } else {
                form.error = nil
            }
            state.screen = .form(form)
            if form.error != nil { return true }
        case .payment(var form):
            guard let index = form.focusedField else { return text.isEmpty ? submitPlain() : refuse("Enter pays; Esc cancels") }
            let field = PaymentFormState.fields[index]
            if field == .card && (text == "?" || text.hasPrefix("? ")) {
                // The picker F4 opens in the terminal UI, as lines: each card, its case and what it should do; after
                // `? `, only the cards its filter matches.
                var picker = CardPickerState(cards: service.world.testCards)
                picker.filter = String(text.dropFirst(1).trimmingCharacters(in: .whitespaces).prefix(40))
                state.plainListing = picker.matches.isEmpty
                    ? ["No test card matches \"\(VisibleText.escaped(picker.filter))\"; ? lists them all."]
                    : Self.testCardLines(picker.matches, ascii: state.plainASCII)
                return false
            }
            if !text.isEmpty {
                form.inputs[index].clear()
                if !form.inputs[index].insert(text) {
                    form.restoreStart(index)
                    // The merchant's 40 characters, not its 160 bytes' room; the other fields are ASCII.
                    form.error = "\(field.label): too long (at most \(form.inputs[index].maximumCharacters ?? form.inputs[index].maximumBytes) characters)."
                    form.errorField = field
                    state.screen = .payment(form)
                    return true
                }
                form.formatAsTyped()
            }
            // The form is checked in field order: a problem with this field or an earlier one is said now, and the
            // refused value is not offered back as a default.
            if let problem = Self.paymentProblem(form), let at = PaymentFormState.fields.firstIndex(of: problem.field), at <= index {
                // The field goes back to what the form started with (the merchant's amount): a refused amount left
                // "Amount:" with no default, and Enter alone was then refused too.
                form.restoreStart(at)
                form.error = "\(problem.field.label): \(problem.message)."
                form.errorField = problem.field
                form.focus = at
                state.screen = .payment(form)
                return true
            }
            form.error = nil
            form.errorField = nil
            state.screen = .payment(form)
        case .challenge(var challenge):
            return answerChallenge(text, line, &challenge)
        case .choice(var choice):
            return answerPlainChoice(text, &choice)
        case .comparison where Int(text).map({ ComparisonState.variantWords.indices.contains($0 - 1) }) == true:
            handle(.character(Character(String(Int(text) ?? 1))))
            return false
        case .result, .history, .transcript, .comparison:
            if text == "q" {
                quit(0)
            } else if text.isEmpty || text.lowercased() == "h" {
                state.screen = .home
                refreshDeviceStatus()
                // `h` from a result, as the terminal UI takes it there: the flow just run is the list's first.
                if !text.isEmpty { _ = openPlainMenuQuestion(text) }
            } else {
                // Any other line went back too, silently ("xyz", "1,5"): the menu and the other choices refuse theirs.
                return refuse("Enter goes back; h shows the history; q quits")
            }
            return false
        case .working:
            return false
        }
        handle(.enter)
        return false
    }

    /// The first problem of the card form as it stands, in field order.
    private static func paymentProblem(_ form: PaymentFormState) -> PaymentFormProblem? {
        do {
            _ = try PaymentForm.details(
                card: form.text(.card), expiry: form.text(.expiry), amount: form.text(.amount),
                currency: form.text(.currency), merchant: form.text(.merchant))
            return nil
        } catch {
            return error
        }
    }

    /// Enter at a form's last question (Submit, Pay): the form goes.
    private func submitPlain() -> Bool {
        handle(.enter)
        return false
    }

    func refuse(_ reason: String) -> Bool {
        switch state.screen {
        case .form(var form):
            form.error = reason
            state.screen = .form(form)
        case .payment(var form):
            form.error = reason
            state.screen = .payment(form)
        case .challenge(var challenge):
            challenge.error = reason
            state.screen = .challenge(challenge)
        case .choice(var choice):
            choice.error = reason
            state.screen = .choice(choice)
        default:
            state.notice = reason
            return false
        }
        return true
    }
}
