import Scenario
import TerminalUI
import Testing

/// The test data and paste keys on a form that asks for the username on a page of its own (a scenario's
/// `usernameFirst`), then the password.
@Suite struct UsernameFirstFormTests {
    /// On a form that asks for the username first, F4 on the password's page fills in the password of the user the
    /// first page named, and says "password" (it said "code"); a name that is no demo user's gets nothing (alice's
    /// password went with "mallory", and cost an attempt).
    @Test func f4OnAPasswordPageOfItsOwnFillsTheNamedUsersPassword() throws {
        var scenario = Scenario.embeddedDefault
        scenario.identityProvider.tenants[0].usernameFirst = true
        for (name, fills) in [("bob", true), ("mallory", false)] {
            let driver = AppDriver(scenario: scenario)
            driver.openActivation()
            driver.type(name)
            driver.press(.enter)
            driver.pump { _ in
                if case .form(let page) = driver.app.state.screen { return page.prompt.page == 2 }
                return false
            }
            // The page names whose password it asks for: the name the first page sent.
            #expect(driver.app.render().text.contains("The IdpSdk asks for \(name)'s password (client KssIdpEnrollment)"))
            driver.press(.f4)
            guard case .form(let form) = driver.app.state.screen else { Issue.record("no form"); return }
            let text = driver.app.render().text
            if fills {
                #expect(form.inputs.map(\.text) == ["builder"])
                #expect(text.contains("filled in demo user bob's password"), "\(text)")
            } else {
                #expect(form.inputs.map(\.text) == [""])
                #expect(text.contains("the name the first page sent is no demo user's: type its password"), "\(text)")
            }
        }
    }

    /// A name and password pasted on a page that asks for the username alone are not typed, and the notice says why
    /// (it said "shift-tab first", and the page has no field before).
    @Test func aPairPastedOnAUsernamePageOfItsOwnSaysThePageHasOneField() throws {
        var scenario = Scenario.embeddedDefault
        scenario.identityProvider.tenants[0].usernameFirst = true
        let driver = AppDriver(scenario: scenario)
        driver.openActivation()
        driver.app.handlePaste("alice\twonderland")
        guard case .form(let form) = driver.app.state.screen else { Issue.record("no form"); return }
        #expect(form.inputs.map(\.text) == [""])
        #expect(driver.app.state.notice == "paste not typed: 2 parts for this page's 1 field")
        #expect(!driver.app.render().text.contains("wonderland"))
    }
}
