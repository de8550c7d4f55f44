import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import LocaleText
import Secrets
@testable import TerminalUI
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
        #expect(!driver.app.render().text.contains("not kept: no form open yet"), "the form that came takes the notice away")
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
        // A line break goes on to the next field (a user name and a password pasted together), and the focus with it.
        #expect(form.inputs[0].text == "ali" && form.inputs[1].text == "ce" && form.focus == 1)
        #expect(driver.service.activeFlowCount == 1)
        driver.app.handlePaste(String(repeating: "x", count: 300))
        guard case .form(let after) = driver.screen else { return }
        #expect(after.inputs[1].text.utf8.count == 256)
        #expect(driver.app.state.notice?.contains("cut") == true)
    }

    /// A user name and password pasted together (a password manager's copy, a note's two lines) fill the two
    /// fields: the password never shows in the user-name field, nor goes to the IdP and the history as a user name.
    /// More parts than fields from the focus are typed nowhere and never shown.
    @Test func aUserNameAndPasswordPastedTogetherFillBothFields() {
        for separator in ["\t", "\n", "\r\n", "\r"] {
            let driver = AppDriver()
            driver.openActivation()
            driver.app.handlePaste("zed" + separator + "Zq7secretPW")
            guard case .form(let form) = driver.screen else { Issue.record("the paste submitted the form"); return }
            #expect(form.inputs[0].text == "zed" && form.inputs[1].text == "Zq7secretPW" && form.focus == 1, "\(separator.debugDescription)")
            #expect(!driver.app.render().text.contains("Zq7"), "\(driver.app.render().text)")
            #expect(driver.app.state.notice == nil)
        }
        // From the password on, two parts have one field: which is the password is unknown, so neither is typed.
        let driver = AppDriver()
        driver.openActivation()
        driver.press(.tab)
        driver.app.handlePaste("Zq7secretPW\nYx4morePW\n\n")
        guard case .form(let form) = driver.screen else { Issue.record("the paste submitted the form"); return }
        #expect(form.inputs[0].text.isEmpty && form.inputs[1].text.isEmpty && form.focus == 1)
        #expect(driver.app.state.notice == "paste not typed: 2 parts, 1 field from here (shift-tab first)")
        #expect(!driver.app.render().text.contains("Zq7") && !driver.app.render().text.contains("Yx4"))
        // A separator first moves nothing (the name went, masked, into the password field).
        let leading = AppDriver()
        leading.openActivation()
        leading.app.handlePaste("\nzed\tZq7secretPW")
        guard case .form(let led) = leading.screen else { return }
        #expect(led.inputs[0].text == "zed" && led.inputs[1].text == "Zq7secretPW", "\(led.inputs.map(\.text.count))")
    }

    /// At a login whose user name is filled in, a pair pasted on the name replaces both fields (it was inserted at
    /// the cursor: "alicealice"); pasted on the password, it is not typed (the name went into the password field,
    /// and a wrong password counted towards the lock).
    @Test func aPastedPairReplacesTheFieldsFromTheFocus() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter)  // back home
        driver.press(.down, .enter)  // Log in
        driver.pump { _ in driver.isForm }
        guard case .form(let before) = driver.screen else { Issue.record("not a form"); return }
        #expect(before.inputs[0].text == "alice" && before.focus == 1)
        driver.app.handlePaste("bob\tbuilder")
        guard case .form(let onPassword) = driver.screen else { Issue.record("the paste submitted"); return }
        #expect(onPassword.inputs[0].text == "alice" && onPassword.inputs[1].text.isEmpty)
        driver.press(.backTab)
        driver.app.handlePaste("bob\r\nbuilder")
        guard case .form(let after) = driver.screen else { return }
        #expect(after.inputs[0].text == "bob" && after.inputs[1].text == "builder" && after.focus == 1)
    }

    /// A paste is typing: the "Fill in Username." left from an empty submit goes, as it does at the first key.
    @Test func aPasteClearsTheFormsComplaint() {
        let driver = AppDriver()
        driver.openActivation()
        driver.press(.tab, .tab, .enter)  // Submit, with nothing filled in
        guard case .form(let refused) = driver.screen else { Issue.record("not a form"); return }
        #expect(refused.error == "Fill in Username.")
        #expect(refused.focus == 0)
        driver.app.handlePaste("alice")
        guard case .form(let form) = driver.screen else { Issue.record("not a form"); return }
        #expect(form.inputs[0].text == "alice")
        #expect(form.error == nil)
        #expect(!driver.app.render().text.contains("Fill in Username."))
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
        // Who was logged out, and that the activation stays.
        #expect(driver.app.render().text.contains("✓ Logged out alice@demo"), "\(driver.app.render().text)")
        #expect(driver.app.render().text.contains("device        still activated for alice: the next login asks for no"))
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
        // A page is the rows the log shows (it was 5 whatever it showed).
        driver.press(.pageUp)
        #expect(driver.app.state.logScroll == AppView.logRows(driver.app.state))
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
        for _ in MenuItem.all {
            seen.append(MenuItem.all[driver.app.state.menuSelection])
            driver.press(.down)
        }
        #expect(seen == MenuItem.all)
        #expect(driver.app.state.menuSelection == 0)
        driver.press(.up)
        #expect(MenuItem.all[driver.app.state.menuSelection] == .quit)
    }

    /// The status line says "⚡ 1 fault on" beside the report: the report says that the panel's faults did not
    /// reach it (it said "the orchestrations agree" as if the fault had been tried).
    @Test func theKSSIDPComparisonSaysThePanelsFaultsDidNotApply() {
        let driver = AppDriver()
        driver.press(.character("f"), .character(" "), .escape)  // network unavailable
        driver.openComparison()
        let screen = driver.app.render().text
        #expect(screen.contains("⚡ 1 fault on"), "\(screen)")
        #expect(screen.contains("│ The faults switched in this session did not apply: the check runs on worlds"), "\(screen)")
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

    /// A line separator or a bidirectional control (in a Q2 user name, a crafted state file) takes no cell and is
    /// not drawn: U+2028 was given a cell and sent to the terminal raw.
    @Test func separatorsAndBidiControlsAreNotDrawn() {
        #expect(CharacterWidth.of("\u{2028}") == 0 && CharacterWidth.of("\u{202E}") == 0 && CharacterWidth.of("\u{2066}") == 0)
        var buffer = ScreenBuffer(width: 6, height: 1)
        buffer.put("a\u{2028}b\u{202E}c", row: 0, column: 0, role: .text)
        #expect(buffer.text == "abc   ")
    }

    /// An emoji sequence is drawn as its first emoji, in the cells it is given: a skin tone (👍🏽), a family joined by
    /// zero-width joiners, a flag's second letter and a variation selector were sent too, which ncurses and terminals
    /// lay out in other widths (👍🏽 in 4 cells): the field's `]` was pushed out and old glyphs stayed. Combining
    /// accents stay with their letter.
    @Test func emojiSequencesAreDrawnInTheCellsTheyAreGiven() {
        var buffer = ScreenBuffer(width: 12, height: 1)
        let written = buffer.put("[👍🏽👨‍👩‍👧🇫🇷❤️é]", row: 0, column: 0, role: .text)
        #expect(buffer.text == "[👍👨🇫❤é]" + String(repeating: " ", count: 12 - written))
        #expect(written == 1 + 2 + 2 + 1 + 1 + 1 + 1, "\(written)")
        #expect(CharacterWidth.drawable("e\u{301}") == "e\u{301}" && CharacterWidth.drawable("👍🏽") == "👍")
    }

    /// A letter with its vowel signs is drawn whole, in the cells ncurses writes it in (a spacing sign takes one of its
    /// own): the emoji rule cut कि, น้ำ and தி to their first letter.
    @Test func lettersWithTheirSignsAreDrawnWhole() {
        for word in ["कि", "น้ำ", "தி"] {
            var buffer = ScreenBuffer(width: 10, height: 1)
            let written = buffer.put("[" + word + "]", row: 0, column: 0, role: .text)
            #expect(buffer.text.hasPrefix("[" + word + "]"), "\(buffer.text)")
            #expect(written == 4, "\(word): \(written)")
        }
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
