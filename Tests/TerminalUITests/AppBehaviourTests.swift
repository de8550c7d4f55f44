import FlowEngine
import FlowRecords
import Foundation
import IdpFlows
import LegacyFlows
import Secrets
import TerminalUI
import Testing

@Suite struct AppBehaviourTests {
    @Test func escAtThePromptCancelsAndTheLogShowsNoSetAuthorisationCode() {
        let driver = AppDriver()
        driver.openActivation()
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.outcome == .cancelled)
        #expect(driver.app.render().text.contains("cancelled"))
        #expect(!driver.app.render().text.contains("failed"))
        #expect(!driver.app.state.log.contains { $0.step == .setAuthorisationCode })
    }

    @Test func escWhileWorkingCancelsTheFlowAndEscOnAResultGoesHome() {
        let driver = AppDriver(latency: .seconds(1))
        driver.press(.enter)
        #expect(driver.clock.waitForPendingTimers(atLeast: 1))
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.failedStep == .getAuthorizationCode)
        driver.press(.escape)
        if case .home = driver.screen {} else { Issue.record("expected home") }
        driver.clock.advance(by: .seconds(10))
    }

    @Test func keysTypedWhileWorkingAreNotKeptAndTheScreenSaysSo() {
        let driver = AppDriver(latency: .seconds(1))
        driver.press(.enter)  // Activate device: its first IdP call waits on the manual clock
        #expect(driver.clock.waitForPendingTimers(atLeast: 1))
        for character in "alice" { driver.press(.character(character)) }
        #expect(driver.app.render().text.contains("not kept: no form open yet"))
        driver.clock.advance(by: .seconds(1))
        #expect(driver.pump { _ in driver.isForm })
        if case .form(let form) = driver.screen { #expect(form.inputs.allSatisfy { $0.isEmpty }) }
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
    }

    @Test func enterMovesToTheNextFieldAndSubmitsOnTheLast() {
        let driver = AppDriver()
        driver.openActivation()
        driver.type("alice")
        driver.press(.enter)
        guard case .form(let form) = driver.screen else { Issue.record("no form"); return }
        #expect(form.focus == 1)
        driver.type("wonderland")
        driver.press(.enter)
        #expect(driver.pump { _ in driver.formPage == 2 })
    }

    @Test func focusCyclesThroughFieldsAndButtons() {
        let driver = AppDriver()
        driver.openActivation()
        var focuses: [Int] = []
        for key in [Key.tab, .tab, .tab, .down, .backTab, .up] {
            driver.press(key)
            if case .form(let form) = driver.screen { focuses.append(form.focus) }
        }
        #expect(focuses == [1, 2, 3, 0, 3, 2])
    }

    @Test func pastedTextGoesIntoTheFieldOnceAndNeverSubmits() {
        let driver = AppDriver()
        driver.openActivation()
        driver.app.handlePaste("ali\nce\r\n")
        guard case .form(let form) = driver.screen else { Issue.record("the paste submitted the form"); return }
        #expect(form.inputs[0].text == "alice")
        #expect(driver.service.activeFlowCount == 1)
        driver.app.handlePaste(String(repeating: "x", count: 300))
        guard case .form(let after) = driver.screen else { return }
        #expect(after.inputs[0].text.utf8.count == 256)
        #expect(driver.app.state.notice?.contains("cut") == true)
    }

    @Test func questionMarkTypesInATextFieldButOpensHelpElsewhere() {
        let driver = AppDriver()
        driver.press(.character("?"))
        #expect(driver.app.state.showHelp)
        driver.press(.character("?"))
        #expect(!driver.app.state.showHelp)
        driver.openActivation()
        driver.type("a?b")
        guard case .form(let form) = driver.screen else { return }
        #expect(form.inputs[0].text == "a?b")
        driver.press(.f1)
        #expect(driver.app.state.showHelp)
    }

    @Test func aResizeKeepsWhatWasTyped() {
        let driver = AppDriver()
        driver.openActivation()
        driver.type("alice")
        driver.app.resize(width: 50, height: 12)
        #expect(driver.app.render().text.contains("terminal too small"))
        driver.app.resize(width: 100, height: 30)
        let screen = driver.app.render()
        #expect(screen.width == 100)
        #expect(screen.text.contains("alice"))
    }

    @Test func qQuitsFromHomeOnlyAndCtrlCQuitsWith130() {
        let driver = AppDriver()
        driver.openActivation()
        driver.press(.character("q"))
        #expect(driver.app.exitStatus == nil)
        driver.press(.control("c"))
        #expect(driver.app.exitStatus == 130)
        let home = AppDriver()
        home.press(.character("q"))
        #expect(home.app.exitStatus == 0)
    }

    @Test func theStatusLineFollowsTheDevice() {
        let driver = AppDriver()
        #expect(driver.app.render().text.contains("device: not activated"))
        driver.activate()
        #expect(driver.app.render().text.contains("device: logged in as alice"))
        driver.press(.enter)  // back home
        driver.press(.down, .down, .enter)  // Log out
        driver.pump { _ in driver.isResult }
        #expect(driver.app.render().text.contains("device: activated as alice"))
        #expect(driver.app.render().text.contains("✓ Logged out"))
        driver.press(.enter, .enter)  // back home, where Log out stays selected: log out again
        driver.pump { _ in driver.isResult && driver.app.render().text.contains("Nothing to log out") }
        // A no-op is a notice: no check mark, as for something done.
        #expect(driver.app.render().text.contains("│ Nothing to log out: no user was logged in"))
    }

    @Test func loggingOutANewDeviceSaysThereWasNothingToLogOut() {
        let driver = AppDriver()
        driver.press(.down, .down, .enter)  // Log out
        driver.pump { _ in driver.isResult }
        #expect(driver.app.render().text.contains("│ Nothing to log out: this device is not activated"))
        #expect(!driver.app.render().text.contains("✓"))
    }

    @Test func theLogShowsProvideCredentialsOnTheIdpSdkThreadAndScrolls() {
        let driver = AppDriver()
        driver.activate()
        #expect(driver.app.render().text.contains("IdpSdk "))
        #expect(driver.app.state.log.filter { $0.step == .provideCredentials }.allSatisfy { $0.thread == "IdpSdk" })
        driver.press(.pageUp)
        #expect(driver.app.state.logScroll == 5)
        let text = driver.app.render().text
        #expect(text.contains("newer below"))
        #expect(text.contains("provideCredentials"))
        driver.press(.pageDown)
        #expect(driver.app.state.logScroll == 0)
    }

    @Test func keysTypedBeforeTheServiceIsReadyWaitForIt() throws {
        let app = TerminalApp(tenant: "demo", idpUrl: "https://idp.demo.idp-tui.test/auth", width: 80, height: 24)
        #expect(app.render().text.contains("device: starting…"))
        app.handle(.enter)  // Activate device, typed during start-up
        #expect(app.serviceIfReady == nil)
        let driver = AppDriver()
        app.attach(driver.service)
        #expect(app.render().text.contains("device: not activated"))
        #expect(driver.service.activeFlowCount == 1)
    }

    @Test func focusWalksEveryEntryAndWraps() {
        let driver = AppDriver()
        var seen: [MenuItem] = []
        for _ in MenuItem.allCases {
            seen.append(MenuItem.allCases[driver.app.state.menuSelection])
            driver.press(.down)
        }
        #expect(seen == MenuItem.allCases)
        #expect(driver.app.state.menuSelection == 0)
        driver.press(.up)
        #expect(MenuItem.allCases[driver.app.state.menuSelection] == .quit)
    }

    /// The status line says "⚡ 1 fault on" beside the report: the report says that the panel's faults did not
    /// reach it (it said "the orchestrations agree" as if the fault had been tried).
    @Test func theKSSIDPComparisonSaysThePanelsFaultsDidNotApply() {
        let driver = AppDriver()
        driver.press(.character("f"), .character(" "), .escape)  // network unavailable
        driver.openComparison()
        let screen = driver.app.render().text
        #expect(screen.contains("⚡ 1 fault on"), "\(screen)")
        #expect(screen.contains("│ The faults panel's switches did not apply: the check runs on worlds of its"), "\(screen)")
        driver.press(.escape, .character("f"), .character(" "), .escape)
        driver.openComparison()
        #expect(!driver.app.render().text.contains("did not apply"), "no note once the fault is off")
    }

    @Test func theKSSIDPComparisonRunsTheParityCheck() {
        let driver = AppDriver()
        driver.openComparison()
        let screen = driver.app.render().text
        #expect(screen.contains("KSSIDP comparison — the orchestrations agree"))
        #expect(screen.contains("✓ 1. activation, then login"))
        #expect(driver.service.statusLine == "not activated", "the check runs on worlds of its own")
        // The report has the log's rows too (its events do not go into the log): 18 lines and, on the panel's last
        // row, how much of the report is out of view.
        #expect(!screen.contains("SDK events"), "\(screen)")
        let shown = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(shown[20].contains("more (↑↓ PgUp PgDn Home End)"), "\(screen)")
        #expect(shown[2...19].filter { !$0.dropFirst(2).dropLast(2).allSatisfy(\.isWhitespace) }.count >= 15, "\(screen)")
        // PgDn stops with the report's last line on the row above that note: the panel stays full.
        for _ in 0..<10 { driver.press(.pageDown) }
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[19].contains("SetAuthorisationCode, device)."), "the last line above the note: \(lines[19])")
        #expect(lines[20].contains("above (↑↓") && !lines[20].contains("more"), "\(lines[20])")
        #expect(lines[2].dropFirst().contains { $0.isLetter }, "the first row is not empty: \(lines[2])")
        driver.press(.escape)
        #expect(driver.app.render().text.contains("What would you like to do?"))
    }
}

@Suite struct TextInputTests {
    @Test func editingKeys() {
        var input = TextInput()
        input.insert("hello world")
        _ = input.apply(.control("w"))
        #expect(input.text == "hello ")
        _ = input.apply(.home)
        _ = input.apply(.delete)
        #expect(input.text == "ello ")
        _ = input.apply(.end)
        _ = input.apply(.left)
        _ = input.apply(.backspace)
        #expect(input.text == "ell ")
        _ = input.apply(.control("a"))
        _ = input.apply(.right)
        _ = input.apply(.control("k"))
        #expect(input.text == "e")
        _ = input.apply(.control("e"))
        input.insert("xyz")
        _ = input.apply(.left)
        _ = input.apply(.control("u"))
        #expect(input.text == "z")
        #expect(input.cursor == 0)
    }

    @Test func wideCharactersAndTheByteLimit() {
        var input = TextInput(maximumBytes: 8)
        let fitted = input.insert("日本")
        let overflowed = input.insert("語x")
        #expect(fitted && !overflowed)
        #expect(input.text == "日本")
        let control = input.insert("\u{7}")
        #expect(!control)
        #expect(input.text == "日本")
    }

    @Test func takeReturnsASecretAndEmptiesTheField() {
        var input = TextInput("wonderland")
        let secret = input.take()
        #expect(secret == Secret("wonderland"))
        #expect(input.isEmpty)
    }
}

@Suite struct ScreenBufferTests {
    @Test func wideCharactersTakeTwoCellsAndClip() {
        var buffer = ScreenBuffer(width: 5, height: 1)
        #expect(buffer.put("日本語", row: 0, column: 0, role: .text) == 4)
        #expect(buffer.text == "日本 ")
        #expect(buffer.roles == ".>.>.")
        buffer.put("x", row: 0, column: 1, role: .error)
        #expect(buffer.text == " x本 ")
    }

    @Test func truncation() {
        #expect(CharacterWidth.truncate("SetAuthorisationCode", to: 8) == "SetAuth…")
        #expect(CharacterWidth.of("•••") == 3)
        #expect(CharacterWidth.of("日本") == 4)
    }

    /// Columns are aligned by the width the terminal shows (plain mode's listings): a wide character takes two
    /// columns and a combining mark none, where counting characters would take one each.
    @Test func columnsAreAlignedByDisplayWidth() {
        let lines = CharacterWidth.columns([["日本", "wide", "1"], ["ab", "narrow", "2"], ["e\u{301}", "combining", "3"], ["abcde", "x"]])
        #expect(lines == ["日本   wide       1", "ab     narrow     2", "e\u{301}      combining  3", "abcde  x"])
        #expect(Set(lines.prefix(3).map { CharacterWidth.of($0) }) == [19], "\(lines)")
    }
}

@Suite struct MenuAndHelpKeyTests {
    @Test func theMenuTakesDigitsJKHomeAndEnd() {
        let driver = AppDriver()
        let count = MenuItem.allCases.count
        driver.press(.character("4"))
        #expect(driver.app.state.menuSelection == 3)
        #expect(driver.app.render().text.contains("▸ 4 Pay with card (3-D Secure)"))
        driver.press(.character("j"))
        #expect(driver.app.state.menuSelection == 4)
        driver.press(.character("k"), .character("k"))
        #expect(driver.app.state.menuSelection == 2)
        driver.press(.end)
        #expect(driver.app.state.menuSelection == count - 1)
        driver.press(.home)
        #expect(driver.app.state.menuSelection == 0)
        driver.press(.character("9"), .character("0"))
        #expect(driver.app.state.menuSelection == 0, "a digit without an item does nothing")
    }

    @Test func helpScrollsToItsLastKeyAt60x18() {
        let driver = AppDriver(width: 60, height: 18)
        driver.press(.character("?"))
        var text = driver.app.render().text
        #expect(text.contains("↑↓ scroll"))
        #expect(!text.contains("suspend; fg resumes"))
        driver.press(.end)
        text = driver.app.render().text
        #expect(text.contains("suspend; fg resumes"), "\(text)")
        #expect(text.contains("ctrl-c"))
        driver.press(.character("?"))
        #expect(!driver.app.state.showHelp)
    }

    /// PgDn moves the help one page (it jumped from lines 1–13 to 24–36 at 60×18, skipping 14–23), PgUp back;
    /// a page holds whole keys (line 13 is a key whose description goes on, so it starts the next page).
    @Test func helpPagesOnePageAtATime() {
        let driver = AppDriver(width: 60, height: 18)
        driver.press(.f1)
        #expect(driver.app.render().text.contains("(1–12 of 36"))
        driver.press(.pageDown)
        #expect(driver.app.render().text.contains("(13–25 of 36"), "\(driver.app.render().text)")
        driver.press(.pageDown)
        #expect(driver.app.render().text.contains("(24–36 of 36"))
        driver.press(.pageUp)
        #expect(driver.app.render().text.contains("(11–23 of 36"))
        driver.press(.pageUp)
        #expect(driver.app.render().text.contains("(1–12 of 36"))
    }

    /// Every page of the help starts with a key, never with the rest of the description above it ("ctrl-→ too)"
    /// alone on the top line at 60×18), going down or up a key or a page at a time.
    @Test func aHelpPageStartsWithAKey() throws {
        for (start, key) in [(Key.home, Key.pageDown), (.home, .down), (.end, .pageUp), (.end, .up)] {
            let driver = AppDriver(width: 60, height: 18)
            driver.press(.f1, start)
            for _ in 0..<20 {
                let rows = driver.app.render().text.split(separator: "\n").map { Array($0) }
                let title = try #require(rows.firstIndex { String($0).contains("┌─ Keys") })
                let left = try #require(String(rows[title]).range(of: "┌─ Keys").map { String(rows[title])[..<$0.lowerBound].count })
                #expect(rows[title + 2][left + 2] != " ", "\(key): a page starts on a continuation line:\n\(driver.app.render().text)")
                driver.press(key)
            }
        }
    }

    /// A resize rewraps the help: the page it was on starts on the key that line now belongs to, not on the
    /// rest of a description.
    @Test func aResizedHelpPageStillStartsWithAKey() throws {
        for width in 61...79 {
            let driver = AppDriver(width: 60, height: 18)
            driver.press(.f1)
            for presses in 1...8 {
                // A key down at 60 columns (where the page is on a key), then drawn at the new width.
                driver.app.resize(width: 60, height: 18)
                driver.press(.down)
                driver.app.resize(width: width, height: 18)
                let rows = driver.app.render().text.split(separator: "\n").map { Array($0) }
                let title = try #require(rows.firstIndex { String($0).contains("┌─ Keys") })
                let left = try #require(String(rows[title]).range(of: "┌─ Keys").map { String(rows[title])[..<$0.lowerBound].count })
                #expect(rows[title + 2][left + 2] != " ", "\(presses) keys down, then \(width) columns:\n\(driver.app.render().text)")
            }
        }
    }

    @Test func helpWrapsItsDescriptionsAtWordsAndNeverCutsOne() {
        for (width, height) in [(60, 18), (80, 24)] {
            let driver = AppDriver(width: width, height: height)
            driver.press(.character("?"))
            var seen = ""
            for _ in 0..<40 {
                seen += driver.app.render().text
                driver.press(.down)
            }
            // Descriptions that were cut at 60 or 80 columns, whole.
            for words in ["to that item)", "the test cards", "on the other device", "/ filter", "with transcripts"] {
                let joined = seen.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "│" }).joined(separator: " ")
                #expect(joined.contains(words), "\(width)×\(height): \(words)")
            }
        }
    }

    @Test func theHelpBarKeepsEscAndHelpAtEveryWidth() {
        for width in [60, 70, 80] {
            let driver = AppDriver(width: width, height: 24)
            driver.openActivation()
            let bar = driver.app.render().text.split(separator: "\n").last.map(String.init) ?? ""
            #expect(bar.contains("esc cancel"), "\(width): \(bar)")
            #expect(bar.contains("F1 help") || bar.contains("? help"), "\(width): \(bar)")
            #expect(bar.contains("F4 demo user"), "test data is found at every width: \(width): \(bar)")
        }
    }
}

@Suite struct WaitingTests {
    @Test func waitingShowsTheCallInFlightAndItsElapsedTime() throws {
        // Every round trip to the IdP takes 5 s on the manual clock, which the test never moves: the activation
        // waits on its first IdP call.
        let driver = AppDriver(latency: .seconds(5))
        driver.press(.enter)  // Activate device
        let shown = driver.pump { _ in driver.app.state.inFlight != nil && driver.app.render().text.contains("waiting for") }
        #expect(shown)
        let call = try #require(driver.app.state.inFlight)
        #expect(driver.app.tickInterval == .milliseconds(250), "the elapsed time ticks while a call is in flight")
        driver.app.tick(now: call.since + .milliseconds(3_250))
        let text = driver.app.render().text
        #expect(text.contains("waiting for IdpSdk: getAuthorizationCode (from App) · 3.2 s"), "\(text)")
        #expect(!text.contains("fault injected"))
        driver.press(.escape)
        let ended = driver.pump { _ in driver.isResult }
        #expect(ended)
        #expect(driver.app.tickInterval == nil, "nothing ticks once the flow has ended")
    }
}

extension WaitingTests {
    /// After the form is answered the SDK goes on with it: the working screen says so, not that it waits for the
    /// prompt it has just had its answer to.
    @Test func afterTheFormTheWorkingScreenSaysTheSDKHasTheAnswer() throws {
        let driver = AppDriver(latency: .seconds(5))
        driver.press(.enter)  // Activate device: its connection waits 5 s on the manual clock
        #expect(driver.pump { _ in driver.clock.pendingTimerCount > 0 })
        driver.clock.advance(by: .seconds(5))
        #expect(driver.pump { _ in driver.isForm })
        driver.fill()
        driver.press(.enter)
        #expect(driver.pump { _ in driver.app.render().text.contains("(provideCredentials answered)") })
        #expect(!driver.app.render().text.contains("waiting for IdpSdk: provideCredentials"))
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
    }
}

@Suite struct MouseTests {
    /// The screen row and column (1-based, as a terminal reports them) of the first cell showing `text`.
    func position(of text: String, in driver: AppDriver) throws -> (row: Int, column: Int) {
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let row = try #require(lines.firstIndex { $0.contains(text) })
        let prefix = try #require(lines[row].range(of: text)).lowerBound
        return (row + 1, CharacterWidth.of(lines[row][..<prefix]) + 1)
    }

    func click(_ text: String, _ driver: AppDriver) throws {
        let (row, column) = try position(of: text, in: driver)
        driver.app.handleMouse(MouseReport(button: 0, column: column, row: row, pressed: true))
        driver.app.handleMouse(MouseReport(button: 0, column: column, row: row, pressed: false))
    }

    @Test func clicksPressMenuItemsFieldsAndButtons() throws {
        let driver = AppDriver()
        try click("Pay with card (3-D Secure)", driver)
        driver.pump { _ in driver.isPaymentForm }
        #expect(driver.isPaymentForm)
        try click("Expiry (MM/YY)", driver)
        guard case .payment(let form) = driver.app.state.screen else { Issue.record("no card form"); return }
        #expect(form.focus == 1, "a click on a field's label focuses the field")
        try click("[ Cancel ]", driver)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.outcome == .cancelled)
        try click("[ Back ]", driver)
        #expect(driver.app.render().text.contains("What would you like to do?"))
    }

    @Test func aClickChoosesAChallengeOption() throws {
        let driver = AppDriver()
        driver.pay(card: "4000009900000012")
        try click("Lisbon", driver)
        try click("[ Submit ]", driver)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.payment?.transStatus == "Y")
    }

    @Test func theLogScrollsNoFurtherThanItsFirstEventAndFollowsAgain() {
        let driver = AppDriver()
        driver.activate()
        for _ in 0..<20 { driver.press(.pageUp) }
        // At 80×24 the log lists 7 lines (rows 14 to 20): still full at the top, its first event on the first line.
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[14].contains("Start"), "\(lines[14])")
        #expect(lines[20].dropFirst().contains { $0.isLetter }, "the last line is not empty: \(lines[20])")
        let top = driver.app.state.logScroll
        driver.press(.pageDown)
        #expect(driver.app.state.logScroll == top - 5)
        // Tab, End, Esc: the log follows the newest event again.
        driver.press(.tab, .end, .escape)
        #expect(driver.app.state.logScroll == 0)
        #expect(!driver.app.render().text.contains("newer below"))
        // Scrolled back, then a flow started from the menu: the log follows it.
        driver.press(.pageUp, .escape, .character("3"), .enter)
        #expect(driver.app.state.logScroll == 0)
        _ = driver.pump { _ in driver.isResult }
        #expect(!driver.app.render().text.contains("newer below"))
    }

    @Test func theFocusedLogAtItsTopStillFillsThePane() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.tab, .home)
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[14].contains("Start"), "\(lines[14])")
        #expect(lines[20].dropFirst().contains { $0.isLetter }, "the pane is full: \(lines[20])")
    }

    @Test func theWheelScrollsTheLog() {
        let driver = AppDriver()
        driver.activate()
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        #expect(driver.app.state.logScroll == 2)
        driver.app.handleMouse(MouseReport(button: 65, column: 10, row: 20, pressed: true))
        #expect(driver.app.state.logScroll == 1)
    }

    @Test func theWheelScrollsWhatIsUnderThePointer() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.escape)
        driver.openComparison()
        func comparisonScroll() -> Int? {
            if case .comparison(let comparison) = driver.app.state.screen { return comparison.scroll }
            return nil
        }
        // The report takes the log's rows on this screen: the wheel scrolls it wherever it is.
        driver.app.handleMouse(MouseReport(button: 65, column: 10, row: 5, pressed: true))
        #expect(comparisonScroll() == 1)
        driver.app.handleMouse(MouseReport(button: 65, column: 10, row: 20, pressed: true))  // where the log is elsewhere
        #expect(comparisonScroll() == 2)
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        #expect(comparisonScroll() == 1)
        #expect(driver.app.state.logScroll == 0, "the log, not on screen, did not move")
        // Back home, the same row is the log's again.
        driver.press(.escape)
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        #expect(driver.app.state.logScroll == 1)
    }

    @Test func theComparisonFitsSixtyByEighteen() {
        let driver = AppDriver(width: 60, height: 18)
        driver.openComparison()
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[14].contains("more (↑↓ PgUp PgDn Home End)"), "the note on the panel's last row: \(lines[14])")
        #expect(lines[2...13].filter { !$0.dropFirst(2).dropLast(2).allSatisfy(\.isWhitespace) }.count >= 11, "\(lines)")
        #expect(lines[15].contains("─") && lines[16].contains("device:"), "the frame, then the status line: \(lines)")
        driver.press(.end)
        let end = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(end[13].contains("device)."), "the report's last line above the note: \(end[13])")
    }
}

@Suite struct EventLogFocusTests {
    @Test func theSequenceViewOpensOnTheNewestArrows() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.pageUp, .pageUp)
        #expect(driver.app.state.logScroll > 0)
        driver.press(.character("v"))
        #expect(driver.app.state.logAsSequence)
        #expect(!driver.app.render().text.contains("newer below"), "\(driver.app.render().text)")
        // Scrolled up, it says so, whatever the title's length.
        driver.press(.pageUp)
        #expect(driver.app.render().text.contains("5 newer below"), "\(driver.app.render().text)")
    }

    @Test func helpOpensFromTheFocusedLogAndItsFilterTakesAQuestionMark() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.tab, .f1)
        #expect(driver.app.state.showHelp)
        driver.press(.escape)
        #expect(!driver.app.state.showHelp && driver.app.state.logFocus != nil, "the log keeps its focus under the help")
        driver.press(.character("?"))
        #expect(driver.app.state.showHelp)
        driver.press(.escape, .character("/"), .character("?"))
        #expect(!driver.app.state.showHelp && driver.app.state.logFocus?.filter == "?")
        // A filter that matches nothing says so, and how to widen it.
        driver.press(.character("z"))
        #expect(driver.app.render().text.contains("No event matches the filter \"?z\": backspace widens it."), "\(driver.app.render().text)")
        driver.press(.backspace)
        // A paste goes into the filter being typed.
        driver.press(.backspace)
        driver.app.handlePaste("AReq\n")
        #expect(driver.app.state.logFocus?.filter == "AReq")
        #expect(driver.app.state.listedEvents.allSatisfy { LogPaneProbe.matches($0, "AReq") } && !driver.app.state.listedEvents.isEmpty)
    }

    @Test func tabSelectsEventsAndEnterShowsOneWhole() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.tab)
        #expect(driver.app.state.logFocus != nil)
        var text = driver.app.render().text
        #expect(text.contains("↑↓ select · enter details"))
        // Filter to the AReq, then open it.
        driver.press(.character("/"))
        for character in "AReq" { driver.press(.character(character)) }
        driver.press(.enter)
        text = driver.app.render().text
        #expect(text.contains("filter \"AReq\""))
        let listed = driver.app.state.listedEvents
        #expect(!listed.isEmpty && listed.allSatisfy { LogPaneProbe.matches($0, "AReq") })
        driver.press(.enter)
        text = driver.app.render().text
        #expect(text.contains("Event — esc closes"))
        #expect(text.contains("from → to Drops → DS"))
        #expect(text.contains("\"messageType\": \"AReq\""), "the whole message, pretty-printed: \(text)")
        #expect(text.contains("│     \"messageType\": \"AReq\""), "its keys indented inside the braces: \(text)")
        // Its last keys below the fold, a page down.
        driver.press(.pageDown)
        text = driver.app.render().text
        #expect(text.contains("\"threeDSServerTransID\""), "\(text)")
        driver.press(.escape, .escape)
        #expect(driver.app.state.logFocus == nil)
        // A bridge message's JSON body, pretty-printed too.
        driver.press(.tab, .character("/"))
        for character in "enrollment__frictionless" { driver.press(.character(character)) }
        driver.press(.enter, .enter)
        text = driver.app.render().text
        #expect(text.contains("│     \"request_id\": "), "pretty-printed: \(text)")
    }

    @Test func arrowsMoveTheSelectionAndEndFollowsTheNewest() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.tab, .up, .up)
        let listed = driver.app.state.listedEvents
        #expect(driver.app.state.logFocus?.selected == listed[listed.count - 3].sequence)
        driver.press(.enter)
        let text = driver.app.render().text
        #expect(text.contains("detail"))
        driver.press(.escape, .end)
        #expect(driver.app.state.logFocus?.selected == nil)
    }

    @Test func theSelectionStaysOnItsEventAsNewOnesCome() throws {
        let driver = AppDriver()
        driver.activate()
        driver.press(.tab, .up, .up)
        let chosen = try #require(driver.app.state.logFocus?.selected)
        let before = driver.app.state.log.count
        driver.service.start(.logout)
        let arrived = driver.pump { app in app.state.log.count >= before + 2 }
        #expect(arrived, "the logout's events came: \(driver.app.state.log.count - before)")
        #expect(driver.app.state.logFocus?.selected == chosen)
        driver.press(.enter)
        let event = try #require(driver.app.state.log.first { $0.sequence == chosen })
        #expect(driver.app.render().text.contains("step      \(event.step.rawValue)"))
    }
}

/// The log's matching, as the app filters with it.
enum LogPaneProbe {
    static func matches(_ event: FlowEvent, _ filter: String) -> Bool {
        [event.step.rawValue, event.detail, event.thread, event.from.rawValue, event.to.rawValue, event.status ?? ""]
            .contains { $0.range(of: filter, options: .caseInsensitive) != nil }
    }
}

@Suite struct SequenceViewTests {
    @Test func vDrawsAnActivationAsASequenceDiagram() throws {
        let driver = AppDriver()
        driver.activate()
        driver.press(.character("v"))
        #expect(driver.app.state.logAsSequence)
        let screen = driver.app.render()
        Snapshot.check(screen, "sequence-activation-80x24")
        let text = screen.text
        #expect(text.contains("Sequence — flow 1: Activate device"))
        for lane in ["App", "MC-SDK", "IdpSdk", "IdP"] { #expect(text.contains(lane)) }
        #expect(text.contains("▶") && text.contains("◀"), "arrows both ways")
        driver.press(.character("v"))
        #expect(!driver.app.state.logAsSequence)
    }

    @Test func aChallengePaymentHasItsOwnLanes() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002503")
        driver.type("1234")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        driver.press(.character("v"))
        let text = driver.app.render().text
        #expect(text.contains("Sequence — flow 1: Pay with card"))
        for lane in ["SafepayDrops", "Drops", "DS", "ACS"] { #expect(text.contains(lane), "no lane \(lane)") }
        #expect(text.contains("RReq"))
        Snapshot.check(driver.app.render(), "sequence-challenge-80x24")
    }

    /// A bridge ack's status only repeats its step: its arrow says "ack" once.
    @Test func anAckSaysAckOnce() throws {
        let driver = AppDriver(width: 120, height: 90)
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.character("v"))
        let text = driver.app.render().text
        #expect(text.contains("ack"), "\(text)")
        #expect(!text.contains("ack ack"), "\(text)")
    }
}
