import FlowEngine
import FlowRecords
import LocaleText
import Q2Flows

/// Q2's sign-in screen with a saved credential that `shouldAllowAutoLogin()` lets sign in: "Welcome back, alice —
/// not you?", as banking apps ask, rather than signing in at once (a tester could not reach the form again in that
/// session; docs/decisions.md). Continue signs in with the saved credential, as the auto-login did.
public struct Q2ChoiceState: Sendable {
    public let prompt: FlowPrompt
    /// The saved credential's user.
    public let username: String
    /// `presentWithLocalizedErrorMessage` (a deep link's), when set.
    public let banner: String?
    /// The index of the selected ``Choice``.
    public var selection = 0
    /// Plain mode: why the line given was not an answer.
    public var error: String?

    public enum Choice: CaseIterable, Sendable {
        case savedCredential, anotherAccount, forget
    }

    init(prompt: FlowPrompt, username: String, banner: String?) {
        self.prompt = prompt
        self.username = username
        self.banner = banner
    }

    var titles: [String] {
        Choice.allCases.map { choice in
            switch choice {
            case .savedCredential: "Continue as \(username) (saved credential)"
            case .anotherAccount: "Use another account"
            case .forget: "Forget \(username)'s saved credential"
            }
        }
    }

    var welcome: String { "Welcome back, \(username) — not you?" }

    /// The sign-in form's note after the choice: why it is empty.
    static func note(_ setAside: Q2SetAside) -> String {
        switch setAside.choice {
        case .anotherAccount: "No auto-login as \(setAside.username): you chose another account (the saved credential is kept)."
        case .forgetSavedCredential: "\(setAside.username)'s saved credential is forgotten: sign in with a username and password."
        }
    }
}

extension TerminalApp {
    func handleQ2Choice(_ key: Key, _ choice: inout Q2ChoiceState) {
        if let selection = ChoiceList.selection(after: key, from: choice.selection, count: Q2ChoiceState.Choice.allCases.count) {
            choice.selection = selection
            state.screen = .q2Choice(choice)
            return
        }
        let (prompt, user) = (choice.prompt, choice.username)
        switch key {
        case .escape: cancelPrompt(prompt)
        case .enter:
            switch Q2ChoiceState.Choice.allCases[choice.selection] {
            case .savedCredential: answer(prompt, .q2AutoLogin, working: "Q2: signing in automatically as \(user) (saved credential)…")
            case .anotherAccount: answer(prompt, .q2AnotherAccount, working: "Q2: another account: the sign-in form…")
            case .forget: answer(prompt, .q2ForgetSavedCredential, working: "Q2: forgetting \(user)'s saved credential…")
            }
        default: break
        }
    }

    /// Plain mode's answer: a choice's number, or an empty line for the first (continue with the saved credential).
    func answerPlainQ2Choice(_ text: String, _ choice: inout Q2ChoiceState) -> Bool {
        let count = Q2ChoiceState.Choice.allCases.count
        guard text.isEmpty || Int(text).map({ (1...count).contains($0) }) == true else {
            choice.error = "give a number from 1 to \(count) (Enter: 1, continue as \(choice.username))"
            state.screen = .q2Choice(choice)
            return true
        }
        choice.error = nil
        choice.selection = (Int(text) ?? 1) - 1
        state.screen = .q2Choice(choice)
        handle(.enter)
        return false
    }

    /// Plain mode's lines for the choice: the banner, the welcome and the numbered choices.
    static func plainQ2Choice(_ choice: Q2ChoiceState) -> [String] {
        [choice.prompt.title] + (choice.banner.map { ["⚠ \($0)"] } ?? []) + [choice.welcome]
            + choice.titles.enumerated().map { "  \($0.offset + 1) \($0.element)" } + (choice.error.map { ["! \($0)"] } ?? [])
    }
}

extension AppView {
    /// The banner (a deep link's) or a hint, the welcome, then the choices as the home menu shows its items.
    static func drawQ2Choice(_ buffer: inout ScreenBuffer, _ choice: Q2ChoiceState, _ area: Panel, focused: Bool = true) {
        if let banner = choice.banner {
            buffer.put(CharacterWidth.truncate("⚠ \(banner)", to: area.width), row: area.top, column: area.left, role: .error)
        } else {
            // The shorter words at 60 columns, rather than a cut.
            let hints = ["shouldAllowAutoLogin() is true; the last sign-in's credential is saved.", "Auto-login allowed; a credential is saved."]
            buffer.put(CharacterWidth.truncate(hints.first { CharacterWidth.of($0) <= area.width } ?? hints[1], to: area.width),
                       row: area.top, column: area.left, role: .hint)
        }
        buffer.put(CharacterWidth.truncate(choice.welcome, to: area.width), row: area.top + 1, column: area.left, role: .title)
        let width = min(area.width, max(30, (choice.titles.map { CharacterWidth.of($0) }.max() ?? 0) + 4))
        ChoiceList.draw(&buffer, choice.titles, selection: choice.selection, top: area.top + 3, left: area.left, width: width,
                        rows: area.height - 3, focused: focused)
    }
}
