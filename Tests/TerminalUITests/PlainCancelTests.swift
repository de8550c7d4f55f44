import FlowCatalog
import TerminalUI
import Testing

/// Plain mode's screens around a cancel: a flow cancelled at its prompt prints no "working…" heading, as if work
/// had started, above its cancel lines (a QA tester saw "Q2 login: working…" after Esc at the sign-in prompt).
@Suite struct PlainCancelTests {
    /// The plain screens from Esc at the prompt to the result, as the plain session prints them.
    func screensAfterEscape(_ driver: AppDriver) -> [[String]] {
        driver.app.plain = true
        var seen = [driver.app.plainScreen]
        driver.app.answerPlain("\u{1b}")
        seen.append(driver.app.plainScreen)
        driver.pump { app in
            seen.append(app.plainScreen)
            if case .result = app.state.screen { return true }
            return false
        }
        return seen
    }

    func expectNoWorkingHeadingAfterTheForm(_ seen: [[String]], _ flow: String) {
        let afterForm = seen.dropFirst()
        #expect(!afterForm.joined().contains { $0.contains("working…") }, "\(flow): \(seen)")
        #expect(seen.last?.first?.contains("cancelled") == true, "\(flow): \(seen)")
    }

    @Test func escAtTheQ2SignInPrintsNoWorkingHeading() {
        let driver = AppDriver()
        driver.openQ2()
        #expect(driver.isForm)
        driver.type("alice")
        expectNoWorkingHeadingAfterTheForm(screensAfterEscape(driver), "Q2")
    }

    @Test func escAtTheActivationPasswordPrintsNoWorkingHeading() {
        let driver = AppDriver()
        driver.openActivation()
        expectNoWorkingHeadingAfterTheForm(screensAfterEscape(driver), "activation")
    }

    @Test func escAtTheCardFormPrintsNoWorkingHeading() {
        let driver = AppDriver()
        driver.openPayment()
        #expect(driver.pump { _ in if case .payment = driver.screen { return true } else { return false } })
        expectNoWorkingHeadingAfterTheForm(screensAfterEscape(driver), "payment")
    }

    @Test func escAtAChallengePrintsNoWorkingHeading() {
        let driver = AppDriver()
        driver.pay(card: "4000000000002503")
        #expect(driver.challenge != nil)
        expectNoWorkingHeadingAfterTheForm(screensAfterEscape(driver), "challenge")
    }
}
