import Testing

/// Plain mode's Q2 sign-in when its screen times out.
@Suite struct PlainQ2TimeoutTests {
    /// A Q2 login whose sign-in screen timed out has no MobileCoreLoginFailure case: its result says the
    /// timeout, where it read "failure: .?" (a screen reader said "dot question mark").
    @Test func aQ2SignInThatTimedOutSaysSoNotAFailureCase() throws {
        let session = try TmuxSession.plain(["--prompt-timeout", "1"])
        #expect(session.waitFor("\(PlainMenu.question) (q quits):"))
        session.type("5")
        session.press("Enter")
        #expect(session.waitFor("✗ Q2 login failed — PROMPT_TIMEOUT"), "\(session.scrollback())")
        let text = session.scrollback()
        #expect(!text.contains(".?"), "\(text)")
        #expect(text.contains("the sign-in screen was not answered in time"), "\(text)")
    }
}
