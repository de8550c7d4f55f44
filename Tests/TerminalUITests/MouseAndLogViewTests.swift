import FlowEngine
import FlowRecords
import Foundation
import LegacyFlows
import LocaleText
import Secrets
@testable import TerminalUI
import Testing

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

    /// A click in the main panel while the log has the focus takes it back, and presses what it is on (the Enter
    /// went to the log and opened an event); a field clicked while a filter is typed over a form that came gets the
    /// keys.
    @Test func aClickTakesTheFocusFromTheLog() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.escape, .tab)
        #expect(driver.app.state.logFocus != nil)
        try click("Pay with card (3-D Secure)", driver)
        #expect(driver.app.state.logFocus == nil)
        #expect(driver.pump { _ in driver.isPaymentForm }, "the item was pressed: \(driver.app.render().text)")
        // A click on an empty row of the panel takes it too (only one on an item or a field did).
        driver.press(.escape, .escape, .tab)
        driver.app.handleMouse(MouseReport(button: 0, column: 60, row: 8, pressed: true))
        #expect(driver.app.state.logFocus == nil)
    }

    /// A double-click presses once: its second press on the same cell is not a click on what the first brought (a
    /// result's Back double-clicked went Home and pressed Quit, on the same row; a menu item double-clicked pressed
    /// what its form has there).
    @Test func aDoubleClickPressesOnce() throws {
        let driver = AppDriver()
        driver.press(.character("3"), .enter)  // Log out, on a device never activated: a result at once
        driver.pump { _ in driver.isResult }
        let (row, column) = try position(of: "[ Back ]", in: driver)
        try click("[ Back ]", driver)
        #expect(driver.app.render().text.contains("What would you like to do?"))
        // The menu's Quit is under where Back was: what a second press there would press.
        let quit = try #require(driver.app.render().targets.first { $0.contains(row: row - 1, column: column - 1) })
        #expect(MenuItem.allCases[quit.stop] == .quit)
        driver.app.handleMouse(MouseReport(button: 0, column: column, row: row, pressed: true))
        driver.app.handleMouse(MouseReport(button: 0, column: column, row: row, pressed: false))
        #expect(driver.app.exitStatus == nil, "the second press of a double-click quit")
        #expect(driver.app.render().text.contains("What would you like to do?"))
        // One column over is the same double-click (a hand moves a little between the presses).
        driver.app.handleMouse(MouseReport(button: 0, column: column + 1, row: row, pressed: true))
        #expect(driver.app.exitStatus == nil, "the second press of a double-click, a column over, quit")
        // A click elsewhere is a click.
        try click("Activate device", driver)
        #expect(driver.pump { _ in driver.isForm }, "\(driver.app.render().text)")
    }

    /// A triple click at an ordinary pace presses once: each press counts from the one before it (the third,
    /// 0.6 s after the first, switched a fault back).
    @Test func aTripleClickPressesOnce() throws {
        let driver = AppDriver()
        driver.press(.character("f"))
        let (row, column) = try position(of: "network unavailable", in: driver)
        func press() { driver.app.handleMouse(MouseReport(button: 0, column: column, row: row, pressed: true)) }
        // The presses' times, 0.3 s apart, as the app saw them.
        func earlier() { driver.app.state.lastClick?.at -= .milliseconds(300) }
        press()
        earlier()
        press()
        earlier()
        press()
        #expect(driver.app.render().text.contains("[x] network unavailable"), "\(driver.app.render().text)")
    }

    /// A past flow clicked in the history opens (the click was ignored, and Enter then opened the flow selected
    /// before, the newest).
    @Test func aClickOnAPastFlowOpensIt() throws {
        let driver = AppDriver()
        driver.activate(password: "wrong")
        driver.press(.enter)
        driver.activate()
        driver.press(.enter, .character("h"))
        try click("WRONG_CREDENTIALS", driver)
        #expect(driver.app.render().text.contains("Flow 1"), "\(driver.app.render().text)")
    }

    /// A test card clicked fills the form, and a fault clicked switches (both were ignored); a click beside them
    /// does nothing to the screen under them.
    @Test func aClickPicksATestCardAndSwitchesAFault() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.f4)
        #expect(driver.app.state.cardPicker != nil, "\(driver.app.render().text)")
        try click("5200 0000 0000 2276", driver)
        #expect(driver.app.state.cardPicker == nil)
        guard case .payment(let form) = driver.app.state.screen else { Issue.record("no card form"); return }
        #expect(form.text(.card) == "5200 0000 0000 2276", "\(form.text(.card))")
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        driver.press(.enter, .character("f"))
        #expect(driver.app.state.faultsPanel != nil)
        try click("network unavailable", driver)
        #expect(driver.app.render().text.contains("[x] network unavailable"))
        try click("clock skew", driver)
        #expect(driver.app.render().text.contains("[x] clock skew"))
        // Beside the panel, over the menu's Activate device: nothing.
        driver.app.handleMouse(MouseReport(button: 0, column: 1, row: 5, pressed: true))
        #expect(driver.app.state.faultsPanel != nil)
        guard case .home = driver.app.state.screen else { Issue.record("the click went through the panel"); return }
    }

    /// A past flow's event clicked shows it whole, as its Enter does (a click there did nothing).
    @Test func aClickOnAPastFlowsEventShowsItWhole() throws {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter, .character("h"), .enter)
        #expect(driver.app.render().text.contains("Flow 1"))
        try click("App→MC-SDK GetAstClientData", driver)
        let text = driver.app.render().text
        #expect(text.contains("Event — esc closes") && text.contains("GetAstClientDataEvent"), "\(text)")
    }

    /// An option takes the click on its own text, not on the rest of its row, where the hint may wrap at 60×18 (a
    /// click on the hint's "Bakery" toggled Cinema).
    @Test func aClickBesideAnOptionDoesNotChooseIt() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.pay(card: "4000009900000020")
        let (row, column) = try position(of: "[ ] Cinema", in: driver)
        let beside = column + CharacterWidth.of("[ ] Cinema") + 4
        driver.app.handleMouse(MouseReport(button: 0, column: beside, row: row, pressed: true))
        #expect(driver.challenge?.selected.isEmpty == true)
        try click("Cinema", driver)
        #expect(driver.challenge?.selected == [1])
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
        // At 80×24 the log lists 7 lines (rows 14 to 20): still full at the top, its first flow's rule on the first
        // line and its first event under it.
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[14].contains("── flow 1: Activate device ──"), "\(lines[14])")
        #expect(lines[15].contains("Start"), "\(lines[15])")
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
        // The first flow's rule on the top line, its first event under it.
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[14].contains("── flow 1: Activate device"), "\(lines[14])")
        #expect(lines[15].contains("Start"), "\(lines[15])")
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

    /// The wheel over a form leaves the log alone: it scrolled it, and the log then stopped following the flow.
    @Test func theWheelOverAFormLeavesTheLogFollowing() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.escape, .character("2"), .enter)
        #expect(driver.pump { _ in driver.isForm })
        driver.app.handleMouse(MouseReport(button: 64, column: 40, row: 4, pressed: true))
        #expect(driver.app.state.logScroll == 0)
        #expect(driver.isForm)
        // Over the log it scrolls the log.
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        #expect(driver.app.state.logScroll == 1)
        // The focused log (Tab from the home screen) moves its selection, as ↑ does.
        driver.press(.escape)  // cancels the login
        #expect(driver.pump { if case .result = $0.state.screen { true } else { false } })
        driver.press(.enter, .tab)
        #expect({ if case .home = driver.app.state.screen { true } else { false } }())
        let selected = driver.app.state.logFocus?.selected
        driver.app.handleMouse(MouseReport(button: 64, column: 10, row: 20, pressed: true))
        #expect(driver.app.state.logFocus != nil && driver.app.state.logFocus?.selected != selected)
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

    /// Esc while typing the filter clears it (it kept it, as Enter does, and the help bar said "esc keep").
    @Test func escWhileTypingTheFilterClearsIt() {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.tab, .character("/"))
        for character in "AReq" { driver.press(.character(character)) }
        #expect(driver.app.render().text.contains("esc clear"), "\(driver.app.render().text)")
        let all = driver.app.state.log.count
        driver.press(.escape)
        #expect(driver.app.state.logFocus?.filter == "")
        #expect(driver.app.state.logFocus?.editingFilter == false)
        #expect(driver.app.state.listedEvents.count == all)
        // Enter keeps one.
        driver.press(.character("/"), .character("A"), .enter)
        #expect(driver.app.state.logFocus?.filter == "A")
    }

    /// An event found with a filter stays selected, and in view, when the filter is cleared: it jumped to the
    /// newest, and the event's neighbours were lost.
    @Test func clearingTheFilterKeepsTheEventFoundWithIt() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.tab, .character("/"))
        for character in "ack" { driver.press(.character(character)) }
        driver.press(.enter, .home)
        let chosen = try #require(driver.app.state.logFocus?.selected)
        driver.press(.character("/"), .escape)
        #expect(driver.app.state.logFocus?.filter == "")
        #expect(driver.app.state.logFocus?.selected == chosen)
        let event = try #require(driver.app.state.log.first { $0.sequence == chosen })
        driver.press(.enter)
        #expect(driver.app.render().text.contains("step      \(event.step.rawValue)"))
        driver.press(.escape)
        // A filter that no longer lists it selects the newest.
        driver.press(.character("/"), .character("A"), .character("R"), .character("e"), .character("q"))
        #expect(driver.app.state.logFocus?.selected == nil)
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

@Suite struct PlainWrapTests {
    @Test func aLineWrapsAtSpacesWithItsRestIndented() {
        let line = "  ← MC-SDK  Start  MC-SDK  OK 1.3ms sdkState=ACTIVATION_REQUIRED, users=[]"
        let lines = CharacterWidth.wrap(line, to: 40)
        #expect(lines == ["  ← MC-SDK  Start  MC-SDK  OK 1.3ms", "    sdkState=ACTIVATION_REQUIRED,", "    users=[]"])
        #expect(lines.allSatisfy { CharacterWidth.of($0) <= 40 })
        // A word wider than a line goes on in pieces; a line that fits, and a width under 20, are left alone.
        let long = String(repeating: "x", count: 50)
        #expect(CharacterWidth.wrap(long, to: 20) == [String(repeating: "x", count: 20), "  " + String(repeating: "x", count: 18), "  " + String(repeating: "x", count: 12)])
        #expect(CharacterWidth.wrap("short", to: 40) == ["short"])
        #expect(CharacterWidth.wrap(line, to: 10) == [line])
        // A column's padding where the line breaks is not carried to the next line.
        #expect(CharacterWidth.wrap("  ⇢ IdP     GET /authorize       IdpSdk         client_id=KssIdpEnrollment, tenant=demo", to: 40)
            == ["  ⇢ IdP     GET /authorize       IdpSdk", "    client_id=KssIdpEnrollment,", "    tenant=demo"])
        // Wide characters count two.
        #expect(CharacterWidth.wrap("⚡ fault ⚡ fault ⚡ fault ⚡ fault ⚡ fault", to: 20).allSatisfy { CharacterWidth.of($0) <= 20 })
    }
}
