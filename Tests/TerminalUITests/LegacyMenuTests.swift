import FlowEngine
import LegacyFlows
import TerminalUI
import Testing

/// The KSSIDP wrapper's flows from the home menu, as the IdpSdk's: a migrating engineer steps through the legacy
/// calls in the terminal (they ran only headless and inside the comparison).
@Suite struct LegacyMenuTests {
    @Test func theMenuOffersBothKSSIDPFlowsAndTheirFormAsksForEverythingUpFront() throws {
        let driver = AppDriver()
        let titles = MenuItem.all.map(\.title)
        #expect(titles == ["Activate device", "Log in", "Log out", "Pay with card (3-D Secure)", "Q2 login", "Activate device (KSSIDP)",
                           "Log in (KSSIDP)", "KSSIDP comparison", "Quit"])
        let home = driver.app.render().text
        #expect(home.contains("What would you like to do?") && home.contains("▸ 1 Activate device") && home.contains("  9 Quit"),
                "every entry shows at 80×24: \(home)")
        driver.press(.character("6"), .enter)
        #expect(driver.pump { _ in driver.isForm })
        let form = driver.app.render().text
        #expect(form.contains("The app asks for username, password, activation-code (all up front, for") && form.contains("KssIdpWrapper.activate)"),
                "\(form)")
        driver.fill()
        driver.press(.tab)
        driver.type("123456")
        driver.press(.enter)
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.flow == .legacyActivate && driver.result?.outcome == .success)
        let shown = driver.app.render().text
        #expect(shown.contains("✓ Device activated and logged in (KSSIDP)"), "\(shown)")
        for secret in ["wonderland", "123456"] {
            #expect(!shown.contains(secret))
            #expect(!driver.app.state.log.contains { $0.detail.contains(secret) }, "\(secret) in the log")
        }
        // The KSSIDP login from the menu, on the device the wrapper activated: its user is filled in.
        driver.press(.enter)
        driver.press(.character("7"), .enter)
        #expect(driver.pump { _ in driver.isForm })
        let login = driver.app.render().text
        #expect(login.contains("Log in (KSSIDP)") && login.contains("alice"), "\(login)")
        driver.type("wonderland")
        driver.press(.enter)
        #expect(driver.pump { _ in driver.isResult }, "\(driver.app.render().text)")
        #expect(driver.result?.flow == .legacyLogin && driver.result?.outcome == .success, "\(String(describing: driver.result))")
        // The history lists it as legacy-activate; a filter by the menu's word finds it too.
        driver.press(.enter, .character("h"), .character("/"))
        driver.type("kssidp")
        driver.press(.enter)
        if case .history(let history) = driver.app.state.screen {
            #expect(history.entries.map(\.flow) == ["legacy-login", "legacy-activate"], "\(history.entries)")
        } else {
            Issue.record("no history")
        }
        driver.press(.escape, .escape)
    }
}

extension LegacyMenuTests {
    /// A KSSIDP flow cancelled says what the wrapper does: nothing before its call; once called, it goes on without
    /// the app ("Nothing more was sent to the MC-SDK" was said while it went on to activate the device).
    @Test func aCancelSaysWhatTheWrapperDoes() throws {
        let atForm = AppDriver(width: 120, height: 40)
        atForm.press(.character("6"), .enter)
        #expect(atForm.pump { _ in atForm.isForm })
        atForm.press(.escape)
        #expect(atForm.pump { _ in atForm.isResult })
        #expect(atForm.app.render().text.contains("Cancelled before the app called KSSIDP: nothing was sent to it."), "\(atForm.app.render().text)")

        // Every round trip waits 5 s on the manual clock, which the test does not move: the wrapper's call waits.
        let inFlight = AppDriver(width: 120, height: 40, latency: .seconds(5))
        inFlight.cancelKSSIDPActivationInFlight()
        let text = inFlight.app.render().text
        #expect(text.contains("Cancelled while KssIdpWrapper.activate was in flight: KSSIDP cannot be stopped, and goes on without"), "\(text)")
        #expect(!text.contains("Nothing more was sent"), "\(text)")

        // What it goes on to do is in the log, to its answer, and the status line shows the device it leaves.
        let answered = inFlight.pump { app in
            if inFlight.clock.pendingTimerCount > 0 { inFlight.clock.advance(by: .seconds(5)) }
            return app.state.log.contains { $0.from == .kssidp && $0.to == .app }
        }
        #expect(answered)
        let after = inFlight.app.render().text
        #expect(after.contains("after the cancel, unheard by the app"), "\(after)")
        #expect(after.contains("POST /token"), "\(after)")
        #expect(after.contains("device: logged in as alice"), "\(after)")
    }
}
