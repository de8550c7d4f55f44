import DropsWeb
import FlowEngine
import PaymentFlows
import SafepayDropsSDK
import Secrets
import ThreeDSecure

/// The card and expiry of the session's last payment, which the next card form starts with. In memory only: never
/// saved, never logged (the number is a ``CardNumber``, whose description is its brand and last four digits).
public struct LastCard: Sendable, Equatable {
    public let number: CardNumber
    /// As it was typed (`12/30`, `12/2030`).
    public let expiry: String
}

/// The Drops page's card form: card number, expiry, amount, currency and merchant, then Pay and Cancel.
public struct PaymentFormState: Sendable {
    public let prompt: FlowPrompt
    /// The last payment's card, when the form started with it.
    let lastCard: LastCard?
    /// One input per ``PaymentField``, in order.
    public var inputs: [TextInput]
    /// What each field started with: the merchant's defaults and the last payment's card.
    private let start: [String]
    /// 0..<fields: a field; fields: Pay; fields + 1: Cancel.
    public var focus = 0
    public var error: String?
    /// The field ``error`` is about: it is drawn beside that field wherever the focus goes next.
    public var errorField: PaymentField?
    /// What a refused Pay said of each field it found wrong ("Expiry (MM/YY): write it as MM/YY, e.g. 12/30."), all
    /// at once, each kept beside its field until that field changes (a tester met them one Pay at a time).
    public internal(set) var refused: [PaymentField: String] = [:]

    /// The merchant's defaults, and the card and expiry of the last payment (the amount and currency stay the
    /// merchant's).
    init(prompt: FlowPrompt, defaults: PaymentDefaults, lastCard: LastCard? = nil) {
        self.prompt = prompt
        self.lastCard = lastCard
        inputs = PaymentField.allCases.map { field in
            switch field {
            case .card: TextInput(lastCard.map { PaymentForm.formatCardNumber($0.number.digits) } ?? "", maximumBytes: 23)
            case .expiry: TextInput(lastCard?.expiry ?? "", maximumBytes: 7)
            case .amount: TextInput(defaults.amount, maximumBytes: 13)
            case .currency: TextInput(defaults.currency, maximumBytes: 3)
            // Room for 40 characters of any size (a family emoji is 25 bytes): the check counts characters.
            case .merchant: TextInput(defaults.merchant, maximumBytes: PaymentForm.maximumMerchantLength * 32, maximumCharacters: PaymentForm.maximumMerchantLength)
            }
        }
        start = inputs.map(\.text)
    }

    /// Puts back what the field at `index` started with, unless that is what was refused (then it is left empty).
    mutating func restoreStart(_ index: Int) {
        let refused = inputs[index].text
        inputs[index].clear()
        if start[index] != refused { inputs[index].insert(start[index]) }
    }

    static let fields = PaymentField.allCases
    var fieldCount: Int { Self.fields.count }

    /// Wipes every field in place (after the screen has let go of the form: cancelled or submitted).
    mutating func wipe() {
        for index in inputs.indices { inputs[index].clear() }
    }

    func text(_ field: PaymentField) -> String { inputs[Self.fields.firstIndex(of: field) ?? 0].text }

    /// The card field still holds the last payment's card, as the form filled it in (the hint says so until it is
    /// changed). A number typed or pasted there again, after a change, is the user's own: the hint said "the last
    /// card used is filled in" over a number typed by hand.
    var showsLastCard: Bool {
        guard let lastCard, !cardChanged else { return false }
        return text(.card) == PaymentForm.formatCardNumber(lastCard.number.digits)
    }

    /// Whether the card field has held anything but what the form filled in (``formatAsTyped()`` sees each change).
    private var cardChanged = false
    /// The same for the expiry the form filled in with the last card.
    private var expiryChanged = false

    /// The focused field holds what the form filled in from the last payment (its card, or that card's expiry): one
    /// value, as an autofilled field's is, which the first key typed replaces ("1230" typed into the filled-in
    /// 01/29 read "01/2912", and "This field is full").
    var focusHoldsLastCard: Bool {
        guard let lastCard, let focused = focusedField else { return false }
        if focused == Self.fields.firstIndex(of: .card) { return showsLastCard }
        return focused == Self.fields.firstIndex(of: .expiry) && !expiryChanged && !lastCard.expiry.isEmpty && text(.expiry) == lastCard.expiry
    }

    /// Forgets what a refused Pay said of each field whose text is no longer what it was (`before`, each field's).
    mutating func forgetRefusals(changedFrom before: [String]) {
        for (index, field) in Self.fields.enumerated() where inputs[index].text != before[index] { refused[field] = nil }
    }

    /// The card number in groups and the expiry with its slash, as they are typed (or pasted).
    mutating func formatAsTyped() {
        if let lastCard, text(.card) != PaymentForm.formatCardNumber(lastCard.number.digits) { cardChanged = true }
        if let lastCard, text(.expiry) != lastCard.expiry { expiryChanged = true }
        let digit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        if let card = Self.fields.firstIndex(of: .card) { inputs[card].reformat(counting: digit, PaymentForm.formatCardNumber) }
        if let expiry = Self.fields.firstIndex(of: .expiry) {
            // A first digit from 2 to 9 can only be a month's second: 9 becomes 09, as card forms write it.
            if case let typed = inputs[expiry].text, typed.count == 1, let first = typed.first, ("2"..."9").contains(first) {
                inputs[expiry].clear()
                inputs[expiry].insert("0" + typed)
            }
            inputs[expiry].reformat(counting: digit, PaymentForm.formatExpiry)
        }
    }

    /// A letter typed or pasted into the expiry (or the amount, a digit into the currency) is said beside it at
    /// once, not only when Pay is pressed; a complaint already shown (a refused Pay, a full field) stays until the
    /// next key. The field being typed first. The screen draws every field's such note, not only this one
    /// (``fieldNotes(cardHint:)``: the currency's hid the amount's).
    mutating func sayStrayCharacters() {
        guard error == nil else { return }
        for field in (focusedField.map { [Self.fields[$0]] } ?? []) + Self.fields {
            guard let problem = PaymentForm.strayCharacterProblem(field, text(field)) else { continue }
            error = "\(field.label): \(problem)."
            errorField = field
            return
        }
    }
}

/// A challenge screen: what the ACS asks, and the cardholder's answer in progress.
public struct ChallengeState: Sendable {
    public let prompt: FlowPrompt
    public let screen: ChallengeScreen
    /// The one-time code (text challenges); masked on screen.
    public var code = TextInput(maximumBytes: ChallengePolicy.codeMaximumBytes, masked: true)
    /// Plain mode holds a code given with more than digits in ``code`` unsent, until it is given again.
    var heldCode = false
    /// The chosen options (select challenges).
    public var selected: Set<Int> = []
    /// Out-of-band: what the cardholder did on the other device, if anything yet.
    public var decision: Bool?
    public var focus = 0
    public var error: String?

    init(prompt: FlowPrompt, screen: ChallengeScreen) {
        self.prompt = prompt
        self.screen = screen
        // Out-of-band: `a` and `r` answer on the other device, and Enter continues, as the help bar says.
        if screen.uiType == .outOfBand { focus(on: .proceed) }
    }

    /// The focus stops, in order.
    enum Stop: Equatable {
        case code, option(Int), submit, resend, approve, refuse, proceed, cancel
    }

    var stops: [Stop] {
        switch screen.uiType {
        // Resend only while a code can be sent, as the CRes's resendInformationLabel is left out then: pressed with
        // none left, it was refused, and each refusal counted towards the ACS's end of the challenge.
        case .text: [.code, .submit] + (screen.resendsLeft > 0 ? [.resend] : []) + [.cancel]
        case .singleSelect, .multiSelect: screen.options.indices.map { .option($0) } + [.submit, .cancel]
        case .outOfBand: [.approve, .refuse, .proceed, .cancel]
        case .htmlOther: [.proceed, .cancel]
        }
    }

    var focusedStop: Stop { stops[min(focus, stops.count - 1)] }

    mutating func focus(on stop: Stop) {
        if let index = stops.firstIndex(of: stop) { focus = index }
    }
}

extension ChallengeScreen {
    /// "2 attempts left" where a wrong answer costs an attempt (``spendsAttempts``); else "" (an out-of-band
    /// screen said "3 attempts left").
    var attemptsLeftText: String { spendsAttempts ? attemptsLeftPhrase : "" }
    /// " · 3 resends left" on a one-time code's screen (the terminal and plain mode keep it in view); else "".
    var resendsLeftText: String { uiType == .text ? " · " + resendsLeftPhrase : "" }
}

extension TerminalApp {
    // MARK: The card form

    func handlePayment(_ key: Key, _ form: inout PaymentFormState) {
        // The last payment's card, as the form filled it in, is one value, as an autofilled field's is: the first
        // character typed replaces it and Backspace clears it (typing went on after its digits, whole on the
        // screen: a tester's new number read "4000 0000 0000 2503 400" and "too long").
        if form.focusHoldsLastCard {
            if case .character(let character) = key, !character.isNewline {
                form.inputs[form.focus].clear()
            } else {
                // Any other key that would edit it (Backspace, Delete, Ctrl-W, Ctrl-K …) clears it whole, as an
                // autofill's value goes: edited in place, the number showed whole (Ctrl-W left "4000 0000 0000").
                var probe = form.inputs[form.focus]
                if probe.apply(key), probe.text != form.inputs[form.focus].text {
                    let before = form.inputs.map(\.text)
                    form.clearError()
                    form.inputs[form.focus].clear()
                    form.formatAsTyped()
                    form.forgetRefusals(changedFrom: before)
                    state.screen = .payment(form)
                    return
                }
            }
        }
        let before = form.inputs.map(\.text)
        switch form.handle(key) {
        case .cancel:
            cancelPrompt(form.prompt)
            form.wipe()
        case .submit: submitPayment(&form)
        case .edited:
            form.formatAsTyped()
            form.forgetRefusals(changedFrom: before)
            form.sayStrayCharacters()
            state.screen = .payment(form)
        }
    }

    private func submitPayment(_ form: inout PaymentFormState) {
        let (card, expiry, amount, currency, merchant) = (form.text(.card), form.text(.expiry), form.text(.amount), form.text(.currency), form.text(.merchant))
        let problems = PaymentForm.problems(card: card, expiry: expiry, amount: amount, currency: currency, merchant: merchant)
        // Every wrong field is marked at once, the focus on the first (huh's and a web form's way).
        if let first = problems.first {
            form.clearError()
            form.refused = Dictionary(problems.map { ($0.field, "\($0.field.label): \($0.message).") }) { kept, _ in kept }
            form.focus = PaymentFormState.fields.firstIndex(of: first.field) ?? 0
            state.screen = .payment(form)
            return
        }
        guard let details = try? PaymentForm.details(card: card, expiry: expiry, amount: amount, currency: currency, merchant: merchant)
        else { return }
        // The next card form of this session starts with this card (a tester retries a challenge card).
        state.lastCard = LastCard(number: details.card, expiry: form.text(.expiry).trimmingCharacters(in: .whitespaces))
        answer(form.prompt, .payment(details), working: "Drops: device data collection and authentication…")
        form.wipe()
    }

    // MARK: Challenge screens

    func handleChallenge(_ key: Key, _ challenge: inout ChallengeState) {
        let stops = challenge.stops.count
        switch key {
        case .escape:
            cancelPrompt(challenge.prompt)
            challenge.code.clear()
            return
        case .tab, .down, .backTab, .up:
            let from = challenge.focusedStop
            challenge.focus = (challenge.focus + (key == .tab || key == .down ? 1 : stops - 1)) % stops
            // A single-select's choice follows ↑↓ from option to option, as a radio group's does: the (•) is always
            // the option Enter sends (Space on Amsterdam, ↓↓, Enter sent Lisbon with Amsterdam shown chosen).
            // Coming back from a button (↑ from Submit, ↓ round from Cancel) chooses nothing.
            if key == .down || key == .up, challenge.screen.uiType == .singleSelect, case .option = from,
               case .option(let index) = challenge.focusedStop {
                choose(index, in: &challenge)
            }
        case .character(" ") where challenge.focusedStop != .code:
            if case .option(let index) = challenge.focusedStop { choose(index, in: &challenge) }
        case .character("a") where challenge.screen.uiType == .outOfBand: decide(true, in: &challenge)
        case .character("r") where challenge.screen.uiType == .outOfBand: decide(false, in: &challenge)
        case .enter:
            if activate(&challenge) { return }
        default:
            if challenge.focusedStop == .code {
                _ = challenge.code.apply(key)
                challenge.error = nil
            }
        }
        state.screen = .challenge(challenge)
    }

    private func choose(_ index: Int, in challenge: inout ChallengeState) {
        if challenge.screen.uiType == .singleSelect {
            challenge.selected = [index]
        } else if challenge.selected.contains(index) {
            challenge.selected.remove(index)
        } else {
            challenge.selected.insert(index)
        }
        challenge.error = nil
    }

    /// Out-of-band: the cardholder approves or refuses on the other device, which tells the ACS at once (and the log
    /// says so then: an approval followed by Cancel was lost). Once only, as in a banking app; Enter then continues.
    func decide(_ approve: Bool, in challenge: inout ChallengeState) {
        challenge.focus(on: .proceed)
        if let otherDevice = (challenge.prompt.request as? ChallengeRequest)?.otherDevice {
            if let decided = challenge.decision {
                challenge.error = "already \(decided ? "approved" : "refused") on the other device: press enter to continue"
                return
            }
            otherDevice.decide(approve: approve)
        }
        challenge.decision = approve
        challenge.error = nil
    }

    /// Enter on the focused stop. Returns true when the screen was answered (or cancelled).
    private func activate(_ challenge: inout ChallengeState) -> Bool {
        let prompt = challenge.prompt
        switch challenge.focusedStop {
        case .cancel:
            cancelPrompt(prompt)
            return true
        case .resend:
            answer(prompt, .challenge(.answer(.resend)), working: "ACS: sending a new code…")
            return true
        case .approve:
            decide(true, in: &challenge)
            return false
        case .refuse:
            decide(false, in: &challenge)
            return false
        case .proceed where challenge.screen.uiType == .htmlOther:
            answer(prompt, .challenge(.answer(.unsupportedInterface)), working: "ACS: reporting that the challenge cannot be shown…")
            return true
        case .proceed:
            // The decision has reached the ACS already where the page gave the other device; else it goes with this.
            let decided = (challenge.prompt.request as? ChallengeRequest)?.otherDevice == nil ? challenge.decision : nil
            let action: CardholderAction = decided.map { .decideOnOtherDevice(approve: $0) } ?? .answer(.continueOutOfBand)
            answer(prompt, .challenge(action), working: "ACS: checking the other device…")
            return true
        case .option(let index) where challenge.screen.uiType == .singleSelect:
            // The option shown chosen, (•), is the one sent; with none chosen, the one Enter is on.
            if challenge.selected.isEmpty { challenge.selected = [index] }
            return submitChallenge(&challenge)
        case .code, .submit, .option:
            return submitChallenge(&challenge)
        }
    }

    private func submitChallenge(_ challenge: inout ChallengeState) -> Bool {
        let answer: ChallengeAnswer
        switch challenge.screen.uiType {
        case .text:
            guard !challenge.code.isEmpty else {
                // Resend only where its button is (it goes with the last code).
                challenge.error = challenge.screen.resendsLeft > 0 ? "Type the one-time code, or choose Resend." : "Type the one-time code."
                challenge.focus(on: .code)
                return false
            }
            answer = .code(challenge.code.take())
        case .singleSelect, .multiSelect:
            guard !challenge.selected.isEmpty else {
                challenge.error = challenge.screen.uiType == .singleSelect ? "Choose one option (space or enter)." : "Choose at least one option with space."
                return false
            }
            answer = .select(challenge.selected)
        case .outOfBand, .htmlOther:
            return false
        }
        self.answer(challenge.prompt, .challenge(.answer(answer)), working: "ACS: checking the answer…")
        return true
    }

    // MARK: Answering

    func answer(_ prompt: FlowPrompt, _ answer: PromptAnswer, working step: String) {
        if !service.answer(prompt, with: answer) { state.notice = "that prompt had already closed" }
        state.screen = .working(flowID: prompt.flowID, flow: prompt.flow, step: step)
    }

    func cancelPrompt(_ prompt: FlowPrompt) {
        service.answer(prompt, with: .cancel)
        state.showCancelling(flowID: prompt.flowID, flow: prompt.flow)
    }
}
