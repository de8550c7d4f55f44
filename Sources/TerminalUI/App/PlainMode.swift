import FlowEngine
import PaymentFlows
import Secrets
import ThreeDSecure

/// What the plain front end asks, one line at a time: the text before the answer, and whether the answer is a
/// secret (read with echo off).
public struct PlainQuestion: Equatable, Sendable {
    public let text: String
    public let secret: Bool
    /// The answer is a card number: shown masked (`•••• 2503`) wherever it is shown again.
    public var cardNumber = false

    public init(text: String, secret: Bool, cardNumber: Bool = false) {
        self.text = text
        self.secret = secret
        self.cardNumber = cardNumber
    }

    /// The answer as the plain output may show it again (a log of piped answers): nothing of a secret, a card
    /// number masked.
    public func shown(_ answer: String) -> String {
        if secret { return "" }
        if cardNumber {
            let digits = answer.filter(\.isNumber)
            return digits.count >= 4 ? "•••• \(digits.suffix(4))" : "••••"
        }
        return answer
    }
}

// The plain mode (`--plain`, or TERM=dumb, or no terminal on standard output): the same app, its screens told
// as lines of text and its questions answered one line each, as huh's accessible mode does. A line is turned
// into what the keys would do, so the flows, checks and errors are the terminal UI's own.
extension TerminalApp {
    /// The current screen as plain lines: its title and what it says, without its questions. The front end
    /// prints them when they change.
    public var plainScreen: [String] {
        switch state.screen {
        case .home:
            return ["What would you like to do?"] + MenuItem.allCases.enumerated().map { "  \($0.offset + 1) \($0.element.title)" }
        case .form(let form):
            var lines = [panelTitle]
            if let note = form.note { lines.append(note) }
            if let error = form.error { lines.append("! \(error)") }
            return lines
        case .payment(let form):
            var lines = [panelTitle, "Test cards: docs/payer-authentication.md (Visa 4000 0000 0000 2503 asks for a code, 1234)"]
            if let error = form.error { lines.append("! \(error)") }
            return lines
        case .challenge(let challenge):
            let screen = challenge.screen
            var lines = [panelTitle, "\(screen.amount) at \(screen.merchantName) · card \(screen.maskedCard) · \(screen.uiType.name)", screen.prompt]
            for (index, option) in screen.options.enumerated() { lines.append("  \(index + 1) \(option)") }
            lines.append("\(screen.attemptsLeft) \(screen.attemptsLeft == 1 ? "attempt" : "attempts") left" + (screen.message.map { " · \($0)" } ?? ""))
            if let error = challenge.error { lines.append("! \(error)") }
            return lines
        case .working(_, let flow, _):
            return ["\(flow.title): working… (a line with Esc, or end of input, cancels)"]
        case .result(let result):
            let summary = AppView.resultSummary(result)
            return [summary.headline] + summary.rows.map { "  \($0.0): \($0.1)" }
        case .history, .transcript, .comparison:
            return [panelTitle, "(this screen is the terminal UI's; Enter goes back)"]
        }
    }

    private var panelTitle: String {
        switch state.screen {
        case .form(let form): form.prompt.title
        case .payment(let form): form.prompt.title
        case .challenge(let challenge): challenge.prompt.title
        default: ""
        }
    }

    /// What the current screen asks, if anything.
    public var plainQuestion: PlainQuestion? {
        switch state.screen {
        case .home: return PlainQuestion(text: "Choose 1-\(MenuItem.allCases.count) (q quits): ", secret: false)
        case .form(let form):
            guard let index = form.focusedField else { return PlainQuestion(text: "Submit? (Enter; Esc cancels) ", secret: false) }
            let field = form.prompt.fields[index]
            return PlainQuestion(text: "\(TerminalApp.label(field))\(field.isSecret ? " (hidden)" : ""): ", secret: field.isSecret)
        case .payment(let form):
            guard let index = form.focusedField else { return PlainQuestion(text: "Pay? (Enter; Esc cancels) ", secret: false) }
            let field = PaymentFormState.fields[index]
            let question = PlainQuestion(text: "", secret: false, cardNumber: field == .card)
            let value = form.inputs[index].isEmpty ? "" : question.shown(form.inputs[index].text)
            return PlainQuestion(text: "\(field.label)\(value.isEmpty ? "" : " [\(value)]"): ", secret: false, cardNumber: field == .card)
        case .challenge(let challenge):
            switch challenge.screen.uiType {
            case .text: return PlainQuestion(text: "One-time code (hidden; \"resend\" for a new one): ", secret: true)
            case .singleSelect: return PlainQuestion(text: "Choose one (1-\(challenge.screen.options.count)): ", secret: false)
            case .multiSelect: return PlainQuestion(text: "Choose all that apply (e.g. 1,3): ", secret: false)
            case .outOfBand: return PlainQuestion(text: "Approve on the other device? (y/n): ", secret: false)
            case .htmlOther: return PlainQuestion(text: "This device cannot show it; Enter tells the ACS: ", secret: false)
            }
        case .result, .history, .transcript, .comparison: return PlainQuestion(text: "Enter goes back (q quits): ", secret: false)
        case .working: return nil
        }
    }

    /// One line typed as the answer to ``plainQuestion`` (nil: the input ended). A line with Esc cancels.
    public func answerPlain(_ line: String?) {
        guard let line else {
            // End of input: cancel what runs, or quit from a resting screen.
            switch state.screen {
            case .home, .result, .history, .transcript, .comparison: quit(0)
            default: handle(.escape)
            }
            return
        }
        if line.unicodeScalars.contains("\u{1b}") {
            handle(.escape)
            return
        }
        let text = line.trimmingCharacters(in: .whitespaces)
        switch state.screen {
        case .home:
            if text == "q" { quit(0) } else if let number = Int(text), (1...MenuItem.allCases.count).contains(number) {
                handle(.character(Character(String(number))))
                handle(.enter)
            } else {
                state.notice = "choose a number from 1 to \(MenuItem.allCases.count), or q"
            }
        case .form(var form):
            if let index = form.focusedField {
                form.inputs[index].clear()
                form.inputs[index].insert(line)
                state.screen = .form(form)
            }
            handle(.enter)
        case .payment(var form):
            if let index = form.focusedField, !text.isEmpty {
                form.inputs[index].clear()
                form.inputs[index].insert(text)
                form.formatAsTyped()
                state.screen = .payment(form)
            }
            handle(.enter)
        case .challenge(var challenge):
            answerChallenge(text, line, &challenge)
        case .result, .history, .transcript, .comparison:
            if text == "q" { quit(0) } else { state.screen = .home }
        case .working:
            break
        }
    }

    private func answerChallenge(_ text: String, _ line: String, _ challenge: inout ChallengeState) {
        switch challenge.screen.uiType {
        case .text:
            if text == "resend" {
                challenge.focus(on: .resend)
            } else {
                challenge.code.clear()
                challenge.code.insert(line)
                challenge.focus(on: .code)
            }
        case .singleSelect, .multiSelect:
            let numbers = text.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Int($0) }
            let count = challenge.screen.options.count
            guard !numbers.isEmpty, numbers.allSatisfy({ (1...count).contains($0) }) else {
                challenge.error = "give option numbers from 1 to \(count)"
                state.screen = .challenge(challenge)
                return
            }
            challenge.selected = Set(numbers.map { $0 - 1 })
            challenge.focus(on: .submit)
        case .outOfBand:
            guard text == "y" || text == "n" else {
                challenge.error = "answer y (approve) or n (refuse)"
                state.screen = .challenge(challenge)
                return
            }
            challenge.decision = text == "y"
            challenge.focus(on: .proceed)
        case .htmlOther:
            challenge.focus(on: .proceed)
        }
        state.screen = .challenge(challenge)
        handle(.enter)
    }

    /// The one-off notice has been shown.
    public func clearNotice() { state.notice = nil }

    /// An event as the plain front end prints it: one line, whole.
    public static func plainLine(_ event: FlowEvent) -> String {
        // A line has no width to keep to: step and thread whole.
        "  " + LogPane.line(event, columns: LogPane.Columns(who: max(9, CharacterWidth.of(LogPane.who(event))),
                                                            step: max(8, CharacterWidth.of(event.step.rawValue)),
                                                            thread: max(6, CharacterWidth.of(event.thread)), time: false))
    }
}
