import FlowEngine

/// The sign-in screen's words and choices, which every front end shows as its own screen (``ChoosingForm``).
extension Q2SignIn {
    /// With a saved credential that `shouldAllowAutoLogin()` lets sign in (asked on the main actor, as the module
    /// asks it): "Welcome back, alice — not you?", as banking apps ask, rather than signing in at once (a tester
    /// could not reach the form again in that session; docs/decisions.md): continue with it, another account, or
    /// forget it. Otherwise the form, saying why there is no auto-login, or why it is empty after that choice.
    @MainActor
    public func opening(in service: FlowService) -> FormOpening {
        guard let saved = savedUsername else { return .form(note: setAside?.note) }
        guard service.family(Q2Family.self)?.allowsAutoLogin() == true else {
            let why = launch == .push ? "the app was opened from a push notification" : "the app does not allow it now"
            // The saved user is known: the form asks for the password.
            return .form(note: "No auto-login as \(saved): \(why) (shouldAllowAutoLogin() is false).")
        }
        return .choice(FormChoice(
            banner: banner,
            // The shorter words at 60 columns, rather than a cut.
            hints: ["shouldAllowAutoLogin() is true; the last sign-in's credential is saved.", "Auto-login allowed; a credential is saved."],
            heading: "Welcome back, \(saved) — not you?",
            options: [
                FormChoice.Option("Continue as \(saved) (saved credential)", answer: .q2AutoLogin,
                                  working: "Q2: signing in automatically as \(saved) (saved credential)…"),
                FormChoice.Option("Use another account", answer: .q2AnotherAccount, working: "Q2: another account: the sign-in form…"),
                FormChoice.Option("Forget \(saved)'s saved credential", answer: .q2ForgetSavedCredential,
                                  working: "Q2: forgetting \(saved)'s saved credential…"),
            ],
            first: "continue as \(saved)"))
    }
}

extension Q2SetAside {
    /// The sign-in form's note after the choice: why it is empty.
    public var note: String {
        switch choice {
        case .anotherAccount: "No auto-login as \(username): you chose another account (the saved credential is kept)."
        case .forgetSavedCredential: "\(username)'s saved credential is forgotten: sign in with a username and password."
        }
    }
}
