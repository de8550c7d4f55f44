import FlowRecords
import TerminalUI
import Testing

/// Every screen at 80×24, one small and one large size, and the monochrome theme.
@Suite struct ScreenSnapshotTests {
    @Test func home() {
        Snapshot.check(AppDriver().app.render(), "home-80x24")
    }

    @Test func credentialFormWithAMaskedPassword() {
        let driver = AppDriver()
        driver.openActivation()
        driver.fill(password: "wonderland")
        let screen = driver.app.render()
        #expect(!screen.text.contains("wonderland"))
        #expect(screen.text.contains("••••••••••"))
        Snapshot.check(screen, "form-activation-page1-80x24")
    }

    @Test func activationCodePageWithAnEmptyFieldError() {
        let driver = AppDriver()
        driver.openActivation()
        driver.fill(password: "wonderland")
        driver.press(.enter)
        driver.pump { _ in driver.formPage == 2 }
        driver.press(.enter)
        let screen = driver.app.render()
        #expect(screen.text.contains("Fill in Activation code."))
        Snapshot.check(screen, "form-activation-page2-empty-80x24")
    }

    @Test func workingWhileTheIdpSdkWaitsOnTheNetwork() {
        let driver = AppDriver(latency: .seconds(5))
        driver.press(.enter)
        // Start and GetAstClientData need no network; the IdpSdk's connect now waits five simulated seconds.
        #expect(driver.clock.waitForPendingTimers(atLeast: 1))
        driver.pump { app in app.state.log.contains { $0.step == .getAuthorizationCode } }
        Snapshot.check(driver.app.render(), "working-80x24")
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.outcome == .cancelled)
        driver.clock.advance(by: .seconds(60))
    }

    /// q on a result goes back, as on the history and the comparison (it did nothing); on the home screen it quits.
    @Test func qOnAResultGoesBack() {
        let driver = AppDriver()
        driver.activate()
        #expect(driver.isResult)
        driver.press(.character("q"))
        guard case .home = driver.screen else { Issue.record("q left the result screen as it was"); return }
    }

    @Test func successResult() {
        let driver = AppDriver()
        driver.activate()
        #expect(driver.result?.outcome == .success)
        Snapshot.check(driver.app.render(), "result-success-80x24")
    }

    @Test func failureResult() {
        let driver = AppDriver()
        driver.activate(password: "nope")
        #expect(driver.result?.status == "WRONG_CREDENTIALS")
        Snapshot.check(driver.app.render(), "result-failure-80x24")
    }

    @Test func cancelledResult() {
        let driver = AppDriver()
        driver.openActivation()
        driver.type("alice")
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        Snapshot.check(driver.app.render(), "result-cancelled-80x24")
    }

    @Test func helpOverlay() {
        let driver = AppDriver()
        driver.press(.character("?"))
        Snapshot.check(driver.app.render(), "help-80x24")
    }

    @Test func tooSmall() {
        let driver = AppDriver(width: 50, height: 12)
        #expect(driver.app.render().text.contains("terminal too small (need 60×18, have 50×12)"))
        Snapshot.check(driver.app.render(), "too-small-50x12")
    }

    @Test func smallestLayout() {
        let driver = AppDriver(width: 60, height: 18)
        driver.activate()
        Snapshot.check(driver.app.render(), "result-success-60x18")
    }

    @Test func largeLayoutShowsEventTimes() {
        let driver = AppDriver(width: 120, height: 40)
        driver.activate()
        let screen = driver.app.render()
        #expect(screen.text.contains("00:00:00.000"))
        Snapshot.check(screen, "result-success-120x40")
    }

    @Test func monochromeKeepsFocusVisibleWithoutColour() throws {
        let theme = try #require(Theme.builtIn("monochrome"))
        #expect(!theme.usesColor)
        let driver = AppDriver()
        driver.openActivation()
        driver.fill(password: "pw")
        let screen = driver.app.render()
        Snapshot.check(screen, "form-monochrome-80x24", extra: "# monochrome styles\n\(Snapshot.styleLayer(screen, theme))\n")
        for (focused, blurred) in [(Role.fieldFocused, Role.fieldBlurred), (.buttonFocused, .buttonBlurred), (.menuFocused, .text)] {
            #expect(theme.style(focused).attributes.contains(.reverse))
            #expect(theme.style(focused) != theme.style(blurred))
        }
    }
}
