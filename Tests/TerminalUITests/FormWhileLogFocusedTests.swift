import FlowEngine
import Testing
@testable import TerminalUI

/// A form that comes while the log's filter is typed, or an event is shown whole, leaves the log the keys: the rest
/// of the filter's text went into the password and its Enter submitted it (a wrong password, an attempt spent), and
/// the Esc that was to close the event cancelled the flow.
@Suite struct FormWhileLogFocusedTests {
    /// Activation's first form, on its way (its IdP call waits 5 s on the manual clock), with the log focused.
    private func formOnItsWay() -> AppDriver {
        let driver = AppDriver(latency: .seconds(5))
        driver.press(.enter)
        #expect(driver.clock.waitForPendingTimers(atLeast: 1))
        driver.pump { app in app.state.log.contains { $0.step == .getAuthorizationCode } }
        driver.press(.tab)
        return driver
    }

    private func formCame(_ driver: AppDriver) -> Bool {
        driver.clock.advance(by: .seconds(60))
        return driver.pump { _ in driver.isForm }
    }

    /// A filter being typed stops when a form comes, its text so far kept: keys typed on (a password meant for the
    /// form) are not typed anywhere, neither into the filter, where they showed, nor into the form; Esc hands the
    /// form the keys.
    @Test func aFilterBeingTypedStopsWhenAFormComesAndTheKeysAfterAreNotTyped() throws {
        let driver = formOnItsWay()
        driver.press(.character("/"), .character("a"), .character("b"))
        #expect(formCame(driver))
        #expect(driver.app.state.logFocus?.editingFilter == false)
        #expect(driver.app.render().text.contains("a form came: esc gives it the keys"), "\(driver.app.render().text)")
        for character in "Zq7secret//PW" { driver.press(.character(character)) }
        driver.app.handlePaste("Yx4pasted")
        var text = driver.app.render().text
        #expect(driver.app.state.logFocus?.filter == "ab", "the filter is as it was: \(text)")
        #expect(!text.contains("secret") && !text.contains("Zq7") && !text.contains("Yx4"), "\(text)")
        #expect(driver.app.render().cursor == nil, "no cursor waits in the form's field while the log has the keys")
        #expect(!text.contains("›["), "no field is drawn focused: \(text)")
        driver.press(.escape)
        #expect(driver.app.state.logFocus == nil, "the form has the keys")
        #expect(driver.app.render().text.contains("›["), "its first field is focused now")
        guard case .form(let form) = driver.screen else { Issue.record("no form"); return }
        #expect(form.inputs.allSatisfy { $0.isEmpty }, "nothing typed into the log went into the form")
        #expect(!driver.app.state.log.contains { $0.step == .provideCredentials && $0.from == .app }, "nothing was submitted")
        driver.type("alice")
        guard case .form(let typed) = driver.screen else { Issue.record("no form"); return }
        #expect(typed.inputs.first?.text == "alice")
        text = driver.app.render().text
        #expect(!text.contains("filter"), "the filter is dropped with the focus: \(text)")
    }

    /// A form that comes while the zoomed log keeps the keys (a filter typed) shows: it stayed hidden under the log.
    /// Over a form, z is not typed and zooms nothing (a "z" in a password typed there hid the form).
    @Test func aFormComingUnzoomsTheLogAndZOverAFormIsNotTyped() {
        let driver = formOnItsWay()
        driver.press(.character("z"))
        #expect(driver.app.state.logFocus?.zoomed == true)
        driver.press(.character("/"), .character("a"))
        #expect(formCame(driver))
        #expect(driver.app.state.logFocus != nil && driver.app.state.logFocus?.zoomed == false)
        #expect(driver.app.render().text.contains("Username"), "the form shows under the log: \(driver.app.render().text)")
        driver.press(.character("z"))
        #expect(driver.app.state.logFocus?.zoomed == false)
        #expect(driver.app.render().text.contains("not typed: esc gives the keys back"), "\(driver.app.render().text)")
    }

    @Test func escClosingAnEventShownWholeHandsTheFormTheKeysAndDoesNotCancel() {
        let driver = formOnItsWay()
        driver.press(.enter)
        #expect(driver.app.state.logFocus?.detail != nil)
        #expect(formCame(driver))
        #expect(driver.app.state.logFocus?.detail != nil, "the event stays shown")
        #expect(driver.app.render().text.contains("Event — esc closes, a form waits"))
        driver.press(.escape)
        #expect(driver.app.state.logFocus == nil)
        #expect(driver.isForm, "the flow goes on: \(driver.app.render().text)")
        #expect(!driver.app.state.log.contains { $0.step == .cancel })
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult }, "Esc on the form cancels, as ever")
    }

    /// The log focused without a filter being typed or an event shown gives the keys to the form as it comes.
    @Test func aFocusedLogGivesTheKeysToAFormThatComes() {
        let driver = formOnItsWay()
        #expect(formCame(driver))
        #expect(driver.app.state.logFocus == nil)
    }
}

/// On a wide terminal the detail keeps two fifths of a log line, however wide the values the log has held: after
/// a Q2 login and a payment, who took 22, step 38 and thread 18 of 118 columns at 120, leaving the detail 26.
@Suite struct LogDetailRoomTests {
    @Test func theDetailKeepsTwoFifthsOfAWideLine() {
        var widest = LogPane.Widest()
        widest.events = 10
        (widest.who, widest.step, widest.thread) = (22, 41, 18)
        for width in [100, 120, 160, 200] {
            let columns = LogPane.Columns(widest, width: width)
            let used = (columns.time ? 13 : 0) + columns.who + 1 + columns.step + 1 + columns.thread + 1
            #expect(width - 2 - used >= (width - 2) * 2 / 5, "\(width): \(columns.who) \(columns.step) \(columns.thread)")
            #expect(columns.step >= 20 && columns.who >= 16 && columns.thread >= 12)
        }
        // One more column never shows less: the time comes off before the step is cut to its floor.
        for width in 100..<200 {
            let narrower = LogPane.Columns(widest, width: width), wider = LogPane.Columns(widest, width: width + 1)
            #expect(wider.step >= narrower.step && wider.who >= narrower.who, "\(width) → \(width + 1)")
        }
        // Narrow values are left as they are.
        (widest.who, widest.step, widest.thread) = (9, 20, 12)
        #expect(LogPane.Columns(widest, width: 120).step == 20)
    }
}

/// With the log focused, the panel above it shows no focus of its own: Back and the log's selected row were both
/// drawn focused, and it was not clear where Enter goes (it goes to the log).
@Suite struct OneFocusAtATimeTests {
    private func rolesOfRow(containing text: String, _ screen: ScreenBuffer) -> Substring? {
        let lines = screen.text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let row = lines.firstIndex(where: { $0.contains(text) }) else { return nil }
        return screen.roles.split(separator: "\n", omittingEmptySubsequences: false)[row]
    }

    @Test func backAndTheMenuLoseTheirHighlightWhileTheLogHasTheFocus() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        #expect(rolesOfRow(containing: "[ Back ]", driver.app.render())?.contains("B") == true)
        driver.press(.tab)
        let back = try #require(rolesOfRow(containing: "[ Back ]", driver.app.render()))
        #expect(!back.contains("B") && back.contains("b"), "\(back)")
        driver.press(.escape, .escape)
        #expect(rolesOfRow(containing: "▸ ", driver.app.render())?.contains("M") == true)
        driver.press(.tab)
        #expect(rolesOfRow(containing: "▸ ", driver.app.render())?.contains("M") == false, "the marker stays, not the highlight")
    }
}

/// The focused log keeps what the user is looking at.
@Suite struct LogKeepsItsPlaceTests {
    /// An event opened whole while the log followed the newest stays the one shown as new events come (it was
    /// swapped for each).
    @Test func anOpenedEventStaysAsNewEventsCome() throws {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter, .tab, .enter)
        let shown = try #require(driver.app.state.logFocus?.selected)
        let before = driver.app.state.log.count
        driver.service.start(.logout)
        #expect(driver.pump { app in app.state.log.count >= before + 2 })
        #expect(driver.app.state.logFocus?.selected == shown)
        let event = try #require(driver.app.state.log.first { $0.sequence == shown })
        #expect(driver.app.render().text.contains("step      \(event.step.rawValue)"))
    }

    /// Leaving the log with a filter on keeps the event it found in view (it went back to the newest), and the title
    /// says how many are below.
    @Test func leavingWithAFilterKeepsTheFoundEventInView() throws {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter, .tab, .character("/"))
        for character in "GET /" { driver.press(.character(character)) }
        driver.press(.enter, .home)
        let found = try #require(driver.app.state.logFocus?.selected)
        driver.press(.escape)
        #expect(driver.app.state.logFocus == nil)
        let index = try #require(driver.app.state.log.firstIndex { $0.sequence == found })
        let scroll = driver.app.state.logScroll
        #expect(scroll > 0, "the view moved to it")
        #expect(index >= LogPane.firstShown(driver.app.state.log, scroll: scroll, rows: AppView.logRows(driver.app.state))
                && index <= driver.app.state.log.count - 1 - scroll, "in view")
        #expect(driver.app.render().text.contains("newer below"))
    }

    /// While the filter is typed the title names its own keys only (↑↓ and enter meant other things), and ↑↓ move the
    /// selection, as gum's filter does.
    @Test func theFiltersTitleNamesItsOwnKeys() {
        let driver = AppDriver(width: 140, height: 30)
        driver.activate()
        driver.press(.enter, .tab, .character("/"), .character("o"))
        let text = driver.app.render().text
        #expect(text.contains("enter keeps it, esc clears it") && !text.contains("enter details"), "\(text)")
        driver.press(.up)
        #expect(driver.app.state.logFocus?.selected != nil && driver.app.state.logFocus?.editingFilter == true)
    }
}

/// A challenge screen that came while the log's filter had the keys shows no focused stop until it has them, as a
/// form does (its code field showed focused beside the filter).
@Suite struct ChallengeWhileLogFocusedTests {
    @Test func aChallengeIsDrawnWithoutFocusWhileTheLogHasTheKeys() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002503")
        _ = try #require(driver.challenge)
        #expect(driver.app.render().text.contains("›["), "the code field has the focus")
        var focus = LogFocusState()
        focus.editingFilter = true
        driver.app.state.logFocus = focus
        let screen = driver.app.render()
        #expect(!screen.text.contains("›["), "\(screen.text)")
        #expect(screen.cursor == nil)
    }
}
