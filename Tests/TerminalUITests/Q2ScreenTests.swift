import Scenario
import FlowCatalog
import FlowEngine
import FlowRecords
import TerminalUI
import Testing

extension AppDriver {
    /// Home → Q2 login (four Downs: activate, log in, log out, pay, Q2).
    func openQ2() {
        while MenuItem.all[app.state.menuSelection].title != "Q2 login" { press(.down) }
        press(.enter)
        pump { _ in self.isForm || self.isResult || { if case .working = self.screen { return false } else { return true } }() }
    }

    func signInQ2(password: String = "wonderland") {
        openQ2()
        pump { _ in self.isForm || self.isResult }
        if isForm {
            type("alice")
            press(.tab)
            type(password)
            press(.enter)
        }
        pump { _ in self.isResult }
    }
}

/// The Q2 sign-in screen. It asks `shouldAllowAutoLogin()` on the main actor, as the module does: the driver
/// delivers on the main queue.
@Suite struct Q2ScreenTests {
    /// While a form's answer is on its way, the working screen says what the form's family does with it: the
    /// IdpSdk submits a page of the IdP's form, Q2 runs its security check and password login.
    @Test func aSubmittedFormSaysWhatItsFamilyDoesWithTheAnswer() {
        func working(_ driver: AppDriver) -> String? {
            if case .working(_, _, let step) = driver.screen { return step }
            return nil
        }
        let idp = AppDriver()
        idp.openActivation()
        idp.fill(password: "wonderland")
        idp.press(.enter)
        #expect(working(idp) == "IdpSdk: submitting page 1 of 2…")
        let q2 = AppDriver()
        q2.openQ2()
        q2.type("alice")
        q2.press(.tab)
        q2.type("wonderland")
        q2.press(.enter)
        #expect(working(q2) == "Q2: security check and password login…")
    }

    @Test func escAtTheSignInScreenSaysWhereItWasCancelled() {
        let driver = AppDriver()
        driver.openQ2()
        driver.type("alice")
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        let text = driver.app.render().text
        // Said plainly ("its answer was not sent" had no answer it could be).
        #expect(driver.result?.error?.message == "cancelled at the sign-in screen; no credential was sent")
        #expect(text.contains("Cancelled at the sign-in screen; no credential was sent."), "\(text)")
        #expect(!text.contains("Cancelled: cancelled"))
        #expect(text.contains("Nothing was sent to Q2 Core.") && !text.contains("Nothing more") && !text.contains("MC-SDK."), "\(text)")
    }

    @Test func theSignInScreenMasksThePasswordAndSignsIn() throws {
        let driver = AppDriver()
        driver.openQ2()
        #expect(driver.isForm)
        driver.type("alice")
        driver.press(.tab)
        driver.type("wonderland")
        let screen = driver.app.render()
        #expect(screen.text.contains("Q2 login — sign in"))
        #expect(screen.text.contains("Sign in to online banking"))
        #expect(!screen.text.contains("wonderland") && screen.text.contains("••••••••••"))
        Snapshot.check(screen, "q2-sign-in-80x24")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        let result = try #require(driver.result)
        #expect(result.outcome == .success)
        let shown = driver.app.render().text
        #expect(shown.contains("✓ Signed in to Q2"))
        #expect(shown.contains("completePlatformAuthentication(with:) called"))
    }

    @Test func aDeepLinkShowsTheBanner() {
        var configuration = FlowConfiguration()
        configuration.q2.launch = .deepLink
        let driver = AppDriver(configuration: configuration)
        driver.openQ2()
        #expect(driver.app.render().text.contains("⚠ Please sign in to continue"))
    }

    /// With a saved credential the screen asks first ("Welcome back, alice — not you?"); Enter continues with it.
    @Test func theSavedCredentialSignsInWhenContinuedUnlessOpenedFromAPush() throws {
        let driver = AppDriver()
        driver.signInQ2()
        driver.press(.enter)
        driver.openQ2()
        #expect(driver.isChoice, "the saved credential does not sign in before the user chooses")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.q2?.autoLogin == true)
        #expect(driver.app.render().text.contains("Signed in to Q2 with the saved credential"))

        var configuration = FlowConfiguration()
        configuration.q2.launch = .push
        let pushed = AppDriver(configuration: configuration)
        pushed.signInQ2()
        pushed.press(.enter)
        pushed.openQ2()
        #expect(pushed.isForm, "no auto-login after a push")
        let text = pushed.app.render().text
        #expect(text.contains("No auto-login as alice: the app was opened from a push notification"))
        // The reason is whole at 80 columns (it wraps), and the form asks for the password of the saved user.
        #expect(text.contains("(shouldAllowAutoLogin() is false)."), "\(text)")
        guard case .form(let form)? = Optional(pushed.app.state.screen) else { Issue.record("not a form"); return }
        #expect(form.inputs.first?.text == "alice" && form.focus == 1)
    }

    @Test func eachFailureHasAClearMessage() throws {
        let driver = AppDriver()
        driver.signInQ2(password: "nope")
        var shown = driver.app.render().text
        #expect(shown.contains("failed — INVALID_CREDENTIALS"))
        #expect(shown.contains("failure        .invalidCredentials · HTTP 401 · hydraCode 1001"))
        #expect(shown.contains("invalid user id or password (2 attempts left)"))
        // Where the flow failed, as every other family's failure says it.
        #expect(shown.contains("failed at      authenticate(using:)"), "\(shown)")
        Snapshot.check(driver.app.render(), "q2-failure-80x24")

        var configuration = FlowConfiguration()
        configuration.q2.insecureDeviceReason = "jailbroken: Cydia found"
        let insecure = AppDriver(configuration: configuration)
        insecure.signInQ2()
        shown = insecure.app.render().text
        #expect(shown.contains("failed — INSECURE"))
        #expect(shown.contains("the security module blocked the login: jailbroken: Cydia"), "the reason is shown")
        // The log's fault says the same reason, not "rooted".
        let fault = insecure.app.state.log.last { $0.step.rawValue == "fault injected" }
        #expect(fault?.detail == "insecure device: the security module finds it insecure: jailbroken: Cydia found", "\(String(describing: fault?.detail))")
    }
}

extension Q2ScreenTests {
    /// The security module answers before the password goes to Core: the app's `authenticate(using:)` is still
    /// waited on, and the working screen says so with its elapsed time, not the security module's "allow" of
    /// before (with a request timeout, that line stood still for 30 s).
    /// A fault that strikes Core's answer goes on Core's lane, the rightmost: its label ends at its mark there, left
    /// of the lane, where the room is (right of the lane it read "⚡…" at every width).
    @Test func aFaultOnTheRightmostLaneIsReadable() throws {
        var scenario = Scenario.embeddedDefault
        scenario.identityFaults.serverError = true
        let driver = AppDriver(scenario: scenario)
        driver.signInQ2()
        driver.press(.character("v"))
        let lines = driver.app.render().text.split(separator: "\n").map(String.init)
        let fault = try #require(lines.first { $0.contains("⚡") }, "\(lines.joined(separator: "\n"))")
        #expect(fault.contains("server error: Q2 Core answers HTTP 500 ⚡"), "\(fault)")
    }

    @Test func whileCoreIsAskedTheWorkingScreenWaitsOnAuthenticate() throws {
        // Every round trip takes 5 s on the manual clock, which the test never moves: the sign-in waits on Core.
        let driver = AppDriver(latency: .seconds(5))
        driver.openQ2()
        driver.type("alice")
        driver.press(.tab)
        driver.type("wonderland")
        driver.press(.enter)
        let askedCore = driver.pump { app in app.state.log.contains { $0.step.rawValue == "POST /mobilews/logonUser" } }
        #expect(askedCore)
        let call = try #require(driver.app.state.inFlight)
        #expect(driver.app.tickInterval == .milliseconds(250), "the elapsed time ticks while Core is asked")
        driver.app.tick(now: call.since + .milliseconds(2_500))
        let text = driver.app.render().text
        // The logon request is in flight from its start: the screen names it (it named authenticate(using:), the
        // request being logged only with Core's answer).
        #expect(text.contains("waiting for Q2 Core: POST /mobilews/logonUser (from Q2 SDK) · 2.5 s"), "\(text)")
        #expect(!text.contains("allowLogin allow"), "\(text)")
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
    }
}

