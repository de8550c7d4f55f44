import FlowEngine
import FlowRecords
import Foundation
import LegacyFlows
import LocaleText
import Secrets
@testable import TerminalUI
import Testing

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
        // Scrolled up a page of the arrows it shows (or to its first), it says so, whatever the title's length.
        driver.press(.pageUp)
        let rows = AppView.logRows(driver.app.state), arrows = driver.app.state.log.count { $0.flowID == 1 }
        #expect(driver.app.state.logScroll == min(rows, arrows - rows))
        #expect(driver.app.render().text.contains("\(driver.app.state.logScroll) newer below"), "\(driver.app.render().text)")
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

    /// Smart case: "IdP" lists the IdP's events, not every event of the idp-tui.flow thread (Start, GetAstClientData
    /// …); "idp" still lists those.
    @Test func aFilterWithACapitalMatchesItsCase() throws {
        let driver = AppDriver()
        driver.activate()
        driver.press(.tab, .character("/"))
        for character in "IdP" { driver.press(.character(character)) }
        driver.press(.enter)
        let idp = driver.app.state.listedEvents
        #expect(!idp.isEmpty && idp.allSatisfy { $0.from.rawValue == "IdP" || $0.to.rawValue == "IdP" }, "\(idp.map(\.step))")
        // The log's title says how many it lists, as a past flow's transcript does.
        let count = "filter \"IdP\" · \(idp.count) of \(driver.app.state.log.count)"
        #expect(idp.count < driver.app.state.log.count && driver.app.render().text.contains(count), "\(driver.app.render().text)")
        driver.press(.character("/"), .control("u"))
        for character in "idp" { driver.press(.character(character)) }
        driver.press(.enter)
        #expect(driver.app.state.listedEvents.contains { $0.step == .start }, "\(driver.app.state.listedEvents.map(\.step))")
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
        for character in "card form" { driver.press(.character(character)) }
        driver.press(.enter, .home)
        let chosen = try #require(driver.app.state.logFocus?.selected)
        driver.press(.character("/"), .escape)
        #expect(driver.app.state.logFocus?.filter == "")
        #expect(driver.app.state.logFocus?.selected == chosen)
        // Among its neighbours: older events above it in view and newer below (it was on the top row).
        let log = driver.app.state.log, scroll = try #require(driver.app.state.logFocus?.scroll)
        let index = try #require(log.firstIndex { $0.sequence == chosen })
        #expect(LogPane.firstShown(log, scroll: scroll, rows: AppView.logRows(driver.app.state)) < index && index < log.count - 1 - scroll)
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

/// A party's own note (the Drops SDK giving up on a message) is not an arrow to it: "→ Safepay gave up" read as
/// something sent to the SDK.
@Suite struct OwnNoteTests {
    @Test func aPartysOwnNoteIsADot() {
        let event = FlowEvent(recorded: RecordedEvent(sequence: 1, step: "gave up", from: "SafepayDrops", to: "SafepayDrops", thread: "timer",
                                                      time: "2030-01-01T00:00:00.000Z", duration: nil, status: "no ack", detail: "no ack after 3 attempts"),
                              flowID: 1, flow: .activate)
        #expect(LogPane.who(event) == "• Safepay")
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

    /// On a challenge with no code field (single-select here), `v` draws the diagram under it, CReq and CRes
    /// included, and the screen's choice stays as it was; the help bar names it. On a code field it is typed.
    @Test func vDrawsTheDiagramUnderAChallengeWithNoCodeField() throws {
        let driver = AppDriver()
        driver.pay(card: "4000009900000012")
        let before = try #require(driver.challenge)
        // The log's title names it (the help bar has no room for it at 80 columns).
        #expect(driver.app.render().text.contains("⚡ fault · v: diagram"), "\(driver.app.render().text)")
        driver.press(.character("v"))
        #expect(driver.app.state.logAsSequence)
        let text = driver.app.render().text
        #expect(text.contains("Sequence — flow 1: Pay with card") && text.contains("CReq"), "\(text)")
        #expect(driver.challenge?.prompt.id == before.prompt.id && driver.challenge?.selected == before.selected)
        driver.press(.character("v"))
        #expect(!driver.app.state.logAsSequence)
        // A text challenge's code field takes the letter.
        let text2 = AppDriver()
        text2.pay(card: "4000000000002503")
        text2.press(.character("v"))
        #expect(!text2.app.state.logAsSequence && text2.challenge?.code.text == "v")
        // Masked, it is said (it showed as one more dot, and the Enter after it spent an attempt unseen).
        #expect(text2.app.render().text.contains("what is typed holds more than digits"), "\(text2.app.render().text)")
        text2.press(.backspace)
        text2.type("12")
        #expect(!text2.app.render().text.contains("what is typed holds") && text2.app.render().text.contains("the simulated issuer's code is 1234"))
        // A space too: the ACS compares the code as sent.
        text2.type(" ")
        #expect(text2.app.render().text.contains("what is typed holds more than digits"))
    }

    /// A bridge ack is drawn by the message's own name, `safepay-inframe__ack`, with the status the page gave it (it
    /// was `ack`, status `ack`, where the page's every other message had its own name).
    @Test func anAckIsDrawnByItsOwnName() throws {
        let driver = AppDriver(width: 120, height: 90)
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.character("v"))
        let text = driver.app.render().text
        #expect(text.contains("safepay-inframe__ack success"), "\(text)")
    }
}

@Suite struct PlainWrapTests {
    /// A short value does not start a row alone: its word goes down with it (a screen reader, reading row by row,
    /// read "transStatusReason 26, eci" and then "07, challengeCancel 01").
    @Test func aShortValueKeepsItsWord() {
        let line = "  ACS→DS    RReq  DropsPage.payment  N transStatusReason 26, eci 07, challengeCancel 01, interactionCounter 00"
        let rows = CharacterWidth.wrap(line, to: 64)
        #expect(rows == ["  ACS→DS    RReq  DropsPage.payment  N transStatusReason 26,", "    eci 07, challengeCancel 01, interactionCounter 00"], "\(rows)")
        #expect(CharacterWidth.wrap("fault 18: the ACS is slow (+5 s), timing out after 30 s", to: 32)
            == ["fault 18: the ACS is slow", "  (+5 s), timing out after 30 s"])
        // A short word alone on its line stays where it is: nothing before it to take down.
        #expect(CharacterWidth.wrap("abcdefghijklmnopqrstuvwxyz 07", to: 27) == ["abcdefghijklmnopqrstuvwxyz", "  07"])
    }

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
        // A JSON value wider than a line goes on after its commas, not in the middle of an id.
        let json = #"{"acsTransID":"f29a6373-1d62-4efa","dsTransID":"618adf6a-9fd1-4ddb","enrolled":"Y"}"#
        #expect(CharacterWidth.wrap(json, to: 40) == [#"{"acsTransID":"f29a6373-1d62-4efa","#, #"  "dsTransID":"618adf6a-9fd1-4ddb","#, #"  "enrolled":"Y"}"#])
        // A comma early in the row still ends it, rather than an id cut in two.
        let early = #"{"threeDSCompInd":"Y","threeDSServerTransID":"c1e3f773-7001-4037-94ce-6a9d592ef8ea","transStatus":"Y"}"#
        let rows = CharacterWidth.wrap(early, to: 70)
        #expect(rows.contains { $0.contains(#""threeDSServerTransID":"c1e3f773-7001-4037-94ce-6a9d592ef8ea","#) }, "\(rows)")
        // A word no row could hold goes on after the last short word, not after a row of it alone.
        let sentence = #"the ACS, which heard nothing, ends the challenge by its own timer","request_id":null,"three_ds":{"acsChallengeMandated":"Y"}"#
        let wrapped = CharacterWidth.wrap(sentence, to: 40)
        #expect(!wrapped.contains { $0.trimmingCharacters(in: .whitespaces) == "own" }, "\(wrapped)")
        #expect(wrapped.allSatisfy { CharacterWidth.of($0) <= 40 }, "\(wrapped)")
        // A wide word with one column left goes on the next row, never past the edge.
        let wide = String(repeating: "a", count: 18) + " " + String(repeating: "中", count: 12)
        #expect(CharacterWidth.wrap(wide, to: 20).allSatisfy { CharacterWidth.of($0) <= 20 }, "\(CharacterWidth.wrap(wide, to: 20))")
        #expect(CharacterWidth.wrap(String(repeating: "x", count: 17) + " yy" + String(repeating: "z", count: 30), to: 20)
            .allSatisfy { CharacterWidth.of($0) <= 20 })
        // Wide characters count two.
        #expect(CharacterWidth.wrap("⚡ fault ⚡ fault ⚡ fault ⚡ fault ⚡ fault", to: 20).allSatisfy { CharacterWidth.of($0) <= 20 })
    }

    /// A JSON detail after a long step name starts on a line of its own when its first piece ending after a comma
    /// does not fit in the columns left: at 80 it was cut there, inside its first key (`{"reques` / `t_id":…`,
    /// session 51). Its pieces end after a comma, or else after other punctuation, never inside a key or an id.
    @Test func aJSONDetailIsNeverSplitInsideAKey() {
        let line = #"  ← Drops   safepay-inframe__enrollment__frictionless DropsPage.payment {"request_id":"req_a5d9aa03-dc76-4b4f-98c7-364f5dee5a02","three_ds":{"acsTransID":"f29a6373-1d62-4efa-b6f5-5262af333fa7","authenticationValue":"KDONjO3i…","dsTransID":"618adf6a-9fd1-4ddb-8278-6c890de6f7f7","eci":"05","enrolled":"Y","messageVersion":"2.2.0","signatureVerification":"Y","threeDSCompInd":"Y","threeDSServerTransID":"a5d9aa03-dc76-4b4f-98c7-364f5dee5a02","transStatus":"Y"},"tracker":"track_8fca724a-898b-472e-86cc-3779c479f911"}"#
        let rows = CharacterWidth.wrap(line, to: 80)
        #expect(rows.first == "  ← Drops   safepay-inframe__enrollment__frictionless DropsPage.payment", "\(rows)")
        #expect(rows.dropFirst().first == #"    {"request_id":"req_a5d9aa03-dc76-4b4f-98c7-364f5dee5a02","#, "\(rows)")
        #expect(rows.allSatisfy { CharacterWidth.of($0) <= 80 }, "\(rows)")
        #expect(rows.dropLast().allSatisfy { $0.hasSuffix(",") || $0.hasSuffix("{") || $0.hasSuffix(":") || $0.hasSuffix("DropsPage.payment") },
                "\(rows)")
        // Without a comma in reach: after a colon or a brace, not inside the key.
        let keys = CharacterWidth.wrap(#"{"authorization":"auth_e1df33f54a3f","payment_method":null}"#, to: 24)
        #expect(keys == [#"{"authorization":"#, #"  "auth_e1df33f54a3f","#, #"  "payment_method":null}"#], "\(keys)")
    }
}

/// `z` in the focused log gives it the main panel's rows too, as lazygit's `+` and tmux's zoom do: at 60×18 a
/// result's log is one row.
@Suite struct LogZoomTests {
    @Test func zGivesTheLogThePanelsRowsAndLeavingEndsIt() {
        let driver = AppDriver(width: 60, height: 18)
        driver.signInQ2()
        #expect(driver.isResult)
        driver.press(.tab)
        let rows = AppView.logRows(driver.app.state)
        #expect(rows <= 2, "a result's log at 60×18: \(rows)")
        driver.press(.character("z"))
        #expect(AppView.logRows(driver.app.state) >= rows + 8, "\(AppView.logRows(driver.app.state))")
        var text = driver.app.render().text
        #expect(text.contains("── flow 1: Q2 login") && text.contains("─ Q2 login ─"), "the whole flow, under the panel's title: \(text)")
        #expect(!text.contains("Signed in to Q2"), "the result is under the log")
        driver.press(.character("z"))
        #expect(AppView.logRows(driver.app.state) == rows, "z again gives the rows back")
        driver.press(.character("z"), .escape)
        text = driver.app.render().text
        #expect(driver.app.state.logFocus == nil && text.contains("Signed in to Q2"), "leaving the log ends the zoom: \(text)")
    }
}
