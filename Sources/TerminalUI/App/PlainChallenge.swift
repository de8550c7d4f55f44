import ThreeDSecure

// Plain mode's answers to a 3-D Secure challenge: a one-time code, option numbers, y or n, Enter.
extension TerminalApp {
    func answerChallenge(_ text: String, _ line: String, _ challenge: inout ChallengeState) -> Bool {
        switch challenge.screen.uiType {
        case .text:
            let canResend = challenge.screen.resendsLeft > 0
            // Either case: `Resend`, typed with a capital, was sent as the code and cost an attempt.
            let resend = text.lowercased() == "resend"
            if resend && canResend {
                challenge.focus(on: .resend)
            } else if text.isEmpty || resend {
                challenge.error = canResend ? "type the one-time code, or resend for a new one" : "type the one-time code: no more codes can be sent"
                state.screen = .challenge(challenge)
                return true
            } else {
                // Trimmed, as a pasted line often ends in a space; too long a code is refused here, as the terminal
                // UI's field takes no more (it was sent cut, and cost an attempt).
                let confirmed = challenge.heldCode && challenge.code.text == text
                challenge.code.clear()
                challenge.heldCode = false
                guard challenge.code.insert(text) else {
                    challenge.code.clear()
                    challenge.error = "a one-time code has at most \(challenge.code.maximumBytes) characters"
                    state.screen = .challenge(challenge)
                    return true
                }
                if !confirmed, Self.holdsMoreThanDigits(text) {
                    return holdCode(&challenge)
                }
                challenge.focus(on: .code)
            }
        case .singleSelect, .multiSelect:
            let numbers = text.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Int($0) }
            let count = challenge.screen.options.count
            let single = challenge.screen.uiType == .singleSelect
            guard !numbers.isEmpty, numbers.allSatisfy({ (1...count).contains($0) }), !single || numbers.count == 1,
                Set(numbers).count == numbers.count
            else {
                challenge.error = single ? "give one option number from 1 to \(count)" : "give option numbers from 1 to \(count), each once"
                state.screen = .challenge(challenge)
                return true
            }
            challenge.selected = Set(numbers.map { $0 - 1 })
            challenge.focus(on: .submit)
        case .outOfBand:
            guard text == "y" || text == "n" else {
                challenge.error = "answer y (approve) or n (refuse)"
                state.screen = .challenge(challenge)
                return true
            }
            decide(text == "y", in: &challenge)
        case .htmlOther:
            guard text.isEmpty else {
                challenge.error = "Enter tells the ACS this device cannot show it; Esc cancels"
                state.screen = .challenge(challenge)
                return true
            }
            challenge.focus(on: .proceed)
        }
        state.screen = .challenge(challenge)
        handle(.enter)
        return false
    }

    /// A code holding more than digits is not sent: the field is hidden, so a letter typed by mistake (a `resnd`, a
    /// word meant for another question) would spend an attempt unheard, where the terminal UI says "what is typed
    /// holds more than digits" before Enter. Said, and kept: the same answer again sends it, as a scenario's own
    /// code may hold a letter. Not a refusal, so a piped script that means it sends it twice, and goes on.
    private func holdCode(_ challenge: inout ChallengeState) -> Bool {
        challenge.heldCode = true
        challenge.error = nil
        state.screen = .challenge(challenge)
        state.notice = Self.heldCodeNotice
        return false
    }

    static let heldCodeNotice = "what was typed holds more than digits (it is hidden) and was not sent: type the code, or the same again to send it as it is"

    /// Anything but ASCII digits: a letter, a space inside, another script's digit.
    static func holdsMoreThanDigits(_ code: String) -> Bool {
        code.contains { !($0.isASCII && $0.isNumber) }
    }
}
