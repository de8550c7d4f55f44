/// A credential form that may open on a choice instead (Q2's saved credential: continue with it, use another
/// account, or forget it): a family's own screen that every front end draws from this description — the terminal
/// UI as a list, plain mode as numbered lines — so that the family's module holds its words and its answers, and
/// a front end holds none of them.
public protocol ChoosingForm: CredentialForm {
    /// What the screen opens on, asked on the front end's main thread as the prompt comes: an app's callback may
    /// decide (Q2's `shouldAllowAutoLogin()`, which the module calls on the main actor). `service` reaches the
    /// family.
    @MainActor func opening(in service: FlowService) -> FormOpening
}

/// How a ``ChoosingForm`` opens.
public enum FormOpening: Sendable {
    /// The form, with a note above it when there is something to say (why it is empty, why no auto-login).
    case form(note: String?)
    /// A choice: each option answers the prompt.
    case choice(FormChoice)
}

/// A choice a prompt offers in place of its form: a heading, the options, and what is said above them.
public struct FormChoice: Sendable {
    public struct Option: Sendable {
        public let title: String
        public let answer: PromptAnswer
        /// What the working screen says once it is chosen.
        public let working: String

        public init(_ title: String, answer: PromptAnswer, working: String) {
            self.title = title
            self.answer = answer
            self.working = working
        }
    }

    /// A warning shown first, in place of the hint (Q2's `presentWithLocalizedErrorMessage`).
    public let banner: String?
    /// The hint when there is no banner, in the order to try: the first that fits the width is shown.
    public let hints: [String]
    public let heading: String
    public let options: [Option]
    /// The first option in a few words ("continue as alice"): what Enter alone chooses in plain mode.
    public let first: String

    public init(banner: String?, hints: [String], heading: String, options: [Option], first: String) {
        precondition(!options.isEmpty, "a choice has options")
        self.banner = banner
        self.hints = hints
        self.heading = heading
        self.options = options
        self.first = first
    }
}
