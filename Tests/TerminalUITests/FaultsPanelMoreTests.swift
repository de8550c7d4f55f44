import DropsWeb
import Foundation
import Synchronization
import FlowCatalog
import FlowEngine
import FlowRecords
import LocaleText
import Scenario
import TerminalUI
import Testing
import ThreeDSecure

/// `--insecure-device REASON` denies every Q2 login whatever the panel says: the panel shows its switch on, with the
/// reason, and space does not pretend to switch it off.
@Suite struct InsecureDeviceOptionTests {
    @Test func thePanelShowsTheOptionsSwitchOnWithItsReason() throws {
        var configuration = FlowConfiguration()
        configuration.q2.insecureDeviceReason = "su found"
        let driver = AppDriver(configuration: configuration)
        #expect(driver.app.render().text.contains("⚡ 1 fault on"), "the status line counts it from the start")
        driver.press(.character("f"))
        let row = try #require(driver.faultRow("insecureDevice"))
        for _ in 0..<row { driver.press(.down) }
        #expect(driver.app.render().text.contains("[x] insecure device: su found (--insecure-device)"))
        driver.press(.character(" "))
        #expect(driver.app.render().text.contains("[x] insecure device: su found (--insecure-device)"))
        #expect(driver.app.render().text.contains(#"on for this session: --insecure-device "su found" was given"#))
        // The option is the fault held on: the MC-SDK's flows meet it too (they ran as on a sound device).
        #expect(driver.service.environment.world.identityFaults.insecureDevice)
    }

    /// `x` switches every fault off at once, a switch with several values included, and says what it did; one an
    /// option holds stays on, and is said so.
    @Test func xSwitchesEveryFaultOff() throws {
        var configuration = FlowConfiguration()
        configuration.q2.insecureDeviceReason = "su found"
        let driver = AppDriver(configuration: configuration)
        driver.press(.character("f"))
        driver.press(.character(" "))  // network unavailable
        let acs = try #require(driver.faultRow("threeDS.acs"))
        for _ in 0..<acs { driver.press(.down) }
        driver.press(.character(" "), .character(" "))  // the ACS's second value
        #expect(driver.app.state.faultSwitches.filter(\.isOn).count == 3)
        #expect(driver.app.render().text.contains("x all off"), "\(driver.app.render().text)")
        driver.press(.character("x"))
        #expect(driver.app.state.faultSwitches.filter(\.isOn).map(\.key) == ["insecureDevice"])
        #expect(driver.app.render().text.contains("switched off: 2 of 3 (1 held on by a command-line option)"), "\(driver.app.render().text)")
        #expect(!driver.service.environment.world.identityFaults.networkUnavailable)
        driver.press(.character("x"))
        #expect(driver.app.render().text.contains("switched off: 0 of 1 (1 held on by a command-line option)"))
    }

    @Test func withoutTheOptionTheSwitchIsThePanels() throws {
        let driver = AppDriver()
        driver.press(.character("f"))
        let row = try #require(driver.faultRow("insecureDevice"))
        for _ in 0..<row { driver.press(.down) }
        #expect(driver.app.render().text.contains("[ ] insecure device (rooted or jailbroken)"))
        driver.press(.character(" "))
        #expect(driver.app.render().text.contains("[x] insecure device (rooted or jailbroken)"))
    }

    /// The MC-SDK's advice names the one switch that made the device insecure: the option, which the panel cannot
    /// switch off, or the panel's switch (it said "turn the insecure-device fault off (or run without
    /// --insecure-device)" either way).
    @Test func theMasterControllersAdviceNamesTheSwitchThatSetIt() {
        var configuration = FlowConfiguration()
        configuration.q2.insecureDeviceReason = "su found"
        let held = AppDriver(configuration: configuration)
        held.press(.enter)
        held.pump { _ in held.isResult }
        #expect(whatToTry(held) == "The MC-SDK does not run on a rooted or jailbroken device: --insecure-device holds for this session; run without it.")
        let panel = AppDriver()
        panel.flipFault("insecureDevice")
        panel.press(.enter)
        panel.pump { _ in panel.isResult }
        #expect(whatToTry(panel) == "The MC-SDK does not run on a rooted or jailbroken device: turn the insecure-device fault off.")
    }

    /// A logout the insecure device stopped says the user is still logged in: the refused restart keeps the session.
    @Test func aRefusedRestartSaysTheUserIsStillLoggedIn() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.escape)
        driver.flipFault("insecureDevice")
        while MenuItem.all[driver.app.state.menuSelection] != .flow(.logout) { driver.press(.down) }
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.failedStep?.rawValue == "Restart")
        #expect(whatToTry(driver) == "alice is still logged in (a refused restart keeps the session): turn the insecure-device fault off, then log out again.")
    }

    /// The result screen's "what to try", its wrapped lines joined.
    private func whatToTry(_ driver: AppDriver) -> String {
        let lines = driver.app.render().text.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }
        guard let first = lines.firstIndex(where: { $0.hasPrefix("what to try") }) else { return "" }
        let rows = lines[first...].prefix { !$0.hasPrefix("[ Back ]") }.filter { !$0.isEmpty }
        return rows.map { $0.hasPrefix("what to try") ? String($0.dropFirst("what to try".count)).trimmingCharacters(in: .whitespaces) : $0 }
            .joined(separator: " ")
    }
}

/// The faults panel's list scrolls as the log's does: only when the focus leaves the rows shown.
@Suite struct FaultsPanelScrollTests {
    /// From the last switch, ↑ moves the cursor up the rows shown (the list scrolled under a cursor pinned to the
    /// bottom row, one switch a key).
    @Test func upFromTheLastSwitchMovesTheCursorNotTheList() throws {
        let driver = AppDriver()
        driver.press(.character("f"), .end)
        let first = try #require(driver.app.state.faultsPanel?.first)
        #expect(first > 0, "19 switches do not fit at 80×24")
        let cursorRow = { driver.app.render().text.split(separator: "\n").firstIndex { $0.contains("›") } }
        let bottom = try #require(cursorRow())
        driver.press(.up, .up)
        #expect(driver.app.state.faultsPanel?.first == first)
        #expect(cursorRow() == bottom - 2)
        // Up past the top of the rows shown, the list follows.
        for _ in 0..<14 { driver.press(.up) }
        #expect(driver.app.state.faultsPanel?.first ?? 0 < first)
        // Opened again on its last switch, and after a resize, ↑ still moves the cursor, not the list.
        driver.press(.end, .escape, .character("f"))
        let reopened = try #require(cursorRow())
        driver.press(.up)
        #expect(cursorRow() == reopened - 1)
        driver.press(.end)
        driver.app.resize(width: 60, height: 18)
        let resized = try #require(cursorRow())
        driver.press(.up)
        #expect(cursorRow() == resized - 1)
    }

    /// At 60 columns a label cut in its row is shown whole on the row above the list while it has the focus (it could
    /// be read only by switching it).
    @Test func aCutLabelIsShownWholeWhileFocused() {
        let driver = AppDriver(width: 60, height: 18)
        driver.press(.character("f"))
        let whole = "server error: the IdP and Q2 Core answer HTTP 500"
        #expect(!driver.app.render().text.contains(whole))
        driver.press(.down, .down, .down)
        let text = driver.app.render().text
        #expect(text.contains(whole), "\(text)")
        #expect(text.contains("[ ] server error: the IdP and Q2 Core answer HTTP…"), "its row is still cut: \(text)")
    }
}

/// A past flow's transcript and its diagram say what they do not show, above and below.
@Suite struct TranscriptMoreTests {
    @Test func theTranscriptAndItsDiagramSayWhatIsHidden() throws {
        let driver = AppDriver()
        driver.payWithAChallenge()
        driver.press(.enter, .character("h"), .enter)
        guard case .transcript(let transcript, _) = driver.screen else { Issue.record("no transcript"); return }
        let count = transcript.record.events.count
        // At 80 columns the short form fits beside the header ("↓16").
        let header = { driver.app.render().text.split(separator: "\n").first { $0.contains("\(count) events") }.map(String.init) ?? "" }
        #expect(header().contains("↓") && !header().contains("↑"), "\(header())")
        driver.press(.end)
        #expect(header().contains("↑") && !header().contains("↓"), "\(header())")
        // The diagram, opened at its last arrows: how many are above.
        driver.press(.character("v"), .home)
        var text = driver.app.render().text
        #expect(!text.contains(" above ─"), "\(text)")
        driver.press(.end)
        text = driver.app.render().text
        #expect(text.contains(" above ─") && count > 10, "\(text)")
    }
}

/// The status line names the faults on as far as it has room, cut after a whole word: "added latency: +100…" read
/// as 100 ms where the latency was 1000 ms.
@Suite struct StatusLineCutTests {
    @Test(arguments: [80, 72, 60])
    func theFaultsOnAreCutAfterAWholeWord(width: Int) throws {
        var scenario = Scenario.embeddedDefault
        scenario.identityFaults.addedLatency = .milliseconds(1000)
        scenario.bridgeFaults.threeDS.acs = .unreachable
        let driver = AppDriver(width: width, height: 24, scenario: scenario)
        let rows = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let status = try #require(rows.last { $0.contains("⚡ 2 faults on") }, "\(rows)")
        #expect(!status.contains("+100…") && !status.contains("+10…"), "\(width): \(status)")
        #expect(CharacterWidth.of(status) <= width, "\(status)")
        if let cut = status.range(of: "…") {
            #expect(status[..<cut.lowerBound].hasSuffix(" "), "cut after a whole word: \(width): \(status)")
        }
    }
}

@Suite struct TruncateAtWordTests {
    @Test func aCutAfterAWholeWordKeepsItsEllipsisApartAndWithinTheWidth() {
        // The cut falls at a word's end: the word whole, then " …", within the columns.
        #expect(CharacterWidth.truncateAtWord("latency +1000 ms a round trip", to: 14) == "latency …")
        #expect(CharacterWidth.truncateAtWord("latency +1000 ms a round trip", to: 16) == "latency +1000 …")
        #expect(CharacterWidth.truncateAtWord("short", to: 10) == "short")
        for width in 3...30 {
            #expect(CharacterWidth.of(CharacterWidth.truncateAtWord("added latency: +1000 ms a round trip", to: width)) <= width, "\(width)")
        }
    }
}
