import FlowEngine
import FlowRecords
import LocaleText

/// A choice a form opens on (``ChoosingForm``: Q2's "Welcome back, alice — not you?"): the family's words and
/// options, drawn as the home menu draws its items, and in plain mode as numbered lines.
public struct ChoiceState: Sendable {
    public let prompt: FlowPrompt
    public let choice: FormChoice
    /// The index of the selected option.
    public var selection = 0
    /// Plain mode: why the line given was not an answer.
    public var error: String?

    init(prompt: FlowPrompt, choice: FormChoice) {
        self.prompt = prompt
        self.choice = choice
    }

    var titles: [String] { choice.options.map(\.title) }
}

extension TerminalApp {
    /// The screen a prompt's form opens on: a choice, or the form with its note.
    func open(_ prompt: FlowPrompt, _ form: any ChoosingForm) {
        let service = service
        switch MainActor.assumeIsolated({ form.opening(in: service) }) {
        case .choice(let choice): state.screen = .choice(ChoiceState(prompt: prompt, choice: choice))
        case .form(let note): state.screen = .form(FormState(prompt: prompt, note: note, focusFirstEmpty: !state.plain))
        }
    }

    func handleChoice(_ key: Key, _ choice: inout ChoiceState) {
        if let selection = ChoiceList.selection(after: key, from: choice.selection, count: choice.choice.options.count) {
            choice.selection = selection
            state.screen = .choice(choice)
            return
        }
        switch key {
        case .escape: cancelPrompt(choice.prompt)
        case .enter:
            let option = choice.choice.options[choice.selection]
            answer(choice.prompt, option.answer, working: option.working)
        default: break
        }
    }

    /// Plain mode's answer: an option's number, or an empty line for the first.
    func answerPlainChoice(_ text: String, _ choice: inout ChoiceState) -> Bool {
        let count = choice.choice.options.count
        guard text.isEmpty || Int(text).map({ (1...count).contains($0) }) == true else {
            choice.error = "give a number from 1 to \(count) (Enter: 1, \(choice.choice.first))"
            state.screen = .choice(choice)
            return true
        }
        choice.error = nil
        choice.selection = (Int(text) ?? 1) - 1
        state.screen = .choice(choice)
        handle(.enter)
        return false
    }

    /// Plain mode's lines for the choice: the banner, the heading and the numbered options.
    static func plainChoice(_ choice: ChoiceState) -> [String] {
        [choice.prompt.title] + (choice.choice.banner.map { ["⚠ \($0)"] } ?? []) + [choice.choice.heading]
            + choice.titles.enumerated().map { "  \($0.offset + 1) \($0.element)" } + (choice.error.map { ["! \($0)"] } ?? [])
    }
}

extension AppView {
    /// The banner or a hint, the heading, then the options as the home menu shows its items.
    static func drawChoice(_ buffer: inout ScreenBuffer, _ choice: ChoiceState, _ area: Panel, focused: Bool = true) {
        if let banner = choice.choice.banner {
            buffer.put(CharacterWidth.truncate("⚠ \(banner)", to: area.width), row: area.top, column: area.left, role: .error)
        } else if let hint = choice.choice.hints.first(where: { CharacterWidth.of($0) <= area.width }) ?? choice.choice.hints.last {
            buffer.put(CharacterWidth.truncate(hint, to: area.width), row: area.top, column: area.left, role: .hint)
        }
        buffer.put(CharacterWidth.truncate(choice.choice.heading, to: area.width), row: area.top + 1, column: area.left, role: .title)
        let width = min(area.width, max(30, (choice.titles.map { CharacterWidth.of($0) }.max() ?? 0) + 4))
        ChoiceList.draw(&buffer, choice.titles, selection: choice.selection, top: area.top + 3, left: area.left, width: width,
                        rows: area.height - 3, focused: focused)
    }
}
