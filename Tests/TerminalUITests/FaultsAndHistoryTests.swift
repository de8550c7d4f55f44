import DropsWeb
import Foundation
import Synchronization
import FlowCatalog
import FlowEngine
import FlowRecords
import Scenario
@testable import TerminalUI
import Testing
import ThreeDSecure

@Suite struct FaultsAndHistoryTests {
    /// A switch that is on says its value: a scenario's 800 ms latency, 2-day skew and 5 lost acks were shown as
    /// the 1000 ms, 31 days and 2 acks that switching them on gives.
    @Test func theFaultsPanelShowsTheScenariosValues() {
        var scenario = Scenario.embeddedDefault
        scenario.identityFaults.addedLatency = .milliseconds(800)
        scenario.identityFaults.clockSkew = .seconds(-2 * 86_400)
        scenario.bridgeFaults.lostAcks = 5
        // A service made without `--bridge-fault`s keeps the scenario's (its payment family replaced them with none).
        let driver = AppDriver(scenario: scenario)
        driver.press(.character("f"))
        let text = driver.app.render().text
        #expect(text.contains("added latency: +800 ms a round trip"), "\(text)")
        #expect(text.contains("clock skew: the IdP is 2 days behind"), "\(text)")
        #expect(text.contains("bridge: the first 5 acks are lost"), "\(text)")
        scenario.bridgeFaults.lostAcks = 1
        let one = AppDriver(scenario: scenario)
        one.press(.character("f"))
        #expect(one.app.render().text.contains("bridge: the first ack is lost"), "it said \"the first 1 ack is lost\"")
        let demo = AppDriver()
        demo.press(.character("f"), .down, .character(" "))
        let switched = demo.app.render().text
        #expect(switched.contains("added latency: +1000 ms a round trip") && !switched.contains("+800"), "switching it on gives 1000 ms")
    }

    /// Switched off and on again, a switch takes the session's starting value back (a scenario's 800 ms came back
    /// as 1000 ms, and the scenario's value was out of reach until a restart); off, it says the value it would take.
    /// The 3-D Secure faults say how long they make the payment wait by the scenario's timers (the defaults' 10 s
    /// and 30 s were shown whatever the scenario said).
    @Test func theThreeDSFaultsSayTheScenariosTimers() {
        var scenario = Scenario.embeddedDefault
        scenario.threeDSTimers = ThreeDSTimers(method: .seconds(1), lookup: .seconds(10), firstCReq: .milliseconds(2500))
        let driver = AppDriver(height: 40, scenario: scenario)
        driver.press(.character("f"))
        let text = driver.app.render().text
        #expect(text.contains("3DS: the 3DS Method never completes (1 s)") && text.contains("3DS: the first CReq is lost (2.5 s)"), "\(text)")
    }

    @Test func aScenariosValueComesBackWhenItsSwitchIsOnAgain() {
        var scenario = Scenario.embeddedDefault
        scenario.identityFaults.addedLatency = .milliseconds(800)
        scenario.bridgeFaults.lostAcks = 5
        let driver = AppDriver(scenario: scenario)
        driver.press(.character("f"), .down, .character(" "))
        var text = driver.app.render().text
        #expect(text.contains("[ ] added latency: +800 ms a round trip"), "\(text)")
        #expect(driver.service.world.identityFaults.addedLatency == .zero)
        driver.press(.character(" "))
        text = driver.app.render().text
        #expect(text.contains("[x] added latency: +800 ms a round trip") && text.contains("switched on: added latency: +800 ms"), "\(text)")
        #expect(driver.service.world.identityFaults.addedLatency == .milliseconds(800))
        /// Moves the focus down (at most once round the panel) to the line that starts with `entry`.
        func focus(_ entry: String) -> Bool {
            for _ in driver.service.faultSwitches where !driver.app.render().text.contains("› " + entry) { driver.press(.down) }
            return driver.app.render().text.contains("› " + entry)
        }
        #expect(focus("[x] bridge: the first 5 acks"))
        driver.press(.character(" "), .character(" "))
        #expect(driver.service.world.bridgeFaults.lostAcks == 5)
        // A fault the session started without takes the panel's own value.
        #expect(focus("[ ] clock skew"))
        driver.press(.character(" "))
        #expect(driver.app.render().text.contains("[x] clock skew: the IdP is 31 days ahead"))
    }

    /// A switch thrown in the panel while a flow's runtime error fires leaves that fault off: the panel read the
    /// faults, changed one and wrote them all back, so a runtime error taken in between came back on.
    @Test func aSwitchThrownWhileARuntimeErrorFiresDoesNotPutItBack() {
        let driver = AppDriver()
        driver.press(.character("f"))  // the focus on "network unavailable", thrown on and off below
        let faults = driver.service.world.faults
        let stop = Atomic(false)
        let putBack = Atomic(0)
        let device = Thread {
            // As the MC-SDK does: the fault is on, fires once and turns itself off; nothing else turns it on.
            while !stop.load(ordering: .relaxed) {
                faults.update { $0.runtimeError = true }
                for _ in 0..<50 { _ = faults.faults.runtimeError }
                _ = faults.takeRuntimeError()
                for _ in 0..<200 where faults.faults.runtimeError { putBack.add(1, ordering: .relaxed) }
            }
        }
        device.start()
        for _ in 0..<20_000 { driver.press(.character(" ")) }
        stop.store(true, ordering: .relaxed)
        while !device.isFinished {}
        #expect(putBack.load(ordering: .relaxed) == 0)
    }

    @Test func theFaultsPanelSwitchesAFaultLiveAndTheLogShowsIt() throws {
        let driver = AppDriver()
        driver.press(.character("f"))
        var screen = driver.app.render()
        #expect(screen.text.contains("Faults — space switches, esc closes"))
        #expect(screen.text.contains("[ ] network unavailable"))
        driver.press(.character(" "))
        screen = driver.app.render()
        #expect(screen.text.contains("[x] network unavailable"))
        #expect(screen.text.contains("⚡ 1 fault on · switched on: network unavailable"))
        Snapshot.check(screen, "faults-panel-80x24")
        #expect(screen.text.contains("↓ 3 more"), "the entries below the panel are announced")
        driver.press(.escape)
        // Which one, where the line has room (a count alone sent a tester into the panel to find out).
        #expect(driver.app.render().text.contains("⚡ 1 fault on: network unavailable"), "\(driver.app.render().text)")
        driver.press(.enter)  // Activate device: the IdpSdk cannot reach the IdP
        driver.pump { _ in driver.isResult }
        let result = try #require(driver.result)
        #expect(result.status == "NOT_REACHABLE")
        #expect(driver.app.state.log.contains { $0.step == .fault && $0.detail.hasPrefix("network unavailable") })
        #expect(driver.app.render().text.split(separator: "\n").contains { $0.contains("⚡ fault") && $0.contains("fault injected") })
        // Switched off again, the next activation works.
        driver.press(.enter, .character("f"), .character(" "), .escape)
        #expect(!driver.service.environment.world.identityFaults.networkUnavailable)
        driver.activate()
        #expect(driver.result?.outcome == .success)
    }

    @Test func theThreeDSServerFaultsCycleThroughTheirValues() throws {
        let driver = AppDriver()
        driver.press(.character("f"))
        let row = try #require(driver.faultRow("threeDS.acs"))
        for _ in 0..<row { driver.press(.down) }
        driver.press(.character(" "))
        #expect(driver.app.render().text.contains("[x] 3DS: ACS unreachable"))
        #expect(driver.app.render().text.contains("space next value"), "the help bar says what space does here")
        driver.press(.character(" "))
        #expect(driver.service.environment.world.bridgeFaults.threeDS.acs == .slow)
        for _ in ServerFault.allCases.dropFirst(2) { driver.press(.character(" ")) }
        #expect(driver.service.environment.world.bridgeFaults.threeDS.acs == .malformed)
        // The longest value is shown whole at 80 columns.
        #expect(driver.app.render().text.contains("[x] 3DS: ACS answering a malformed message"))
        driver.press(.character(" "))
        #expect(driver.service.environment.world.bridgeFaults.threeDS.acs == nil)
        #expect(driver.app.render().text.contains("[ ] 3DS: ACS answers normally"))
        // Closed and opened again, the panel is where it was: the ACS, one key away from its next value.
        driver.press(.escape, .character("f"))
        #expect(driver.app.state.faultsPanel?.focus == row)
        driver.press(.character(" "))
        #expect(driver.service.environment.world.bridgeFaults.threeDS.acs == .unreachable)
    }

    /// The directory server's longest value fits the panel at 80 columns; at 60 it ends in "…", never cut bare.
    @Test func aFaultsLongestValueIsWholeOrEndsInAnEllipsis() throws {
        for (width, height) in [(80, 24), (60, 18)] {
            let driver = AppDriver(width: width, height: height)
            driver.service.environment.world.bridgeFaults.threeDS.directoryServer = .malformed
            driver.press(.character("f"))
            let row = try #require(driver.faultRow("threeDS.directoryServer"))
            for _ in 0..<row { driver.press(.down) }
            let line = try #require(driver.app.render().text.split(separator: "\n").first { $0.contains("[x] 3DS: directory") })
            if width == 80 {
                #expect(line.contains("[x] 3DS: directory server answering a malformed message"), "\(line)")
            } else {
                #expect(line.contains("[x] 3DS: directory server answering a malformed m…"), "\(line)")
            }
        }
    }

    /// The log marks the fault that bit with ⚡, and the faults switched on at the flow's start as a notice from
    /// the simulator (it was marked ⚡ as if it had bitten); the sequence view the same.
    @Test func onlyAFaultThatBitIsMarkedWithALightningBolt() throws {
        let driver = AppDriver(height: 40)
        driver.press(.character("f"), .character(" "), .escape, .enter)
        driver.pump { _ in driver.isResult }
        let rows = driver.app.render().text.split(separator: "\n")
        #expect(rows.contains { $0.contains("⚡ fault") && $0.contains("fault injected") }, "\(rows)")
        #expect(rows.contains { $0.contains("simulator") && $0.contains("faults on") && !$0.contains("⚡") }, "\(rows)")
        driver.press(.character("v"))
        let lanes = driver.app.render().text
        // Each mark says what: the fault that struck, and which were on ("fault injected FAULT ⚡" said fault twice).
        let bolt = try #require(lanes.split(separator: "\n").first { $0.contains("⚡") && $0.contains("network unavailable: the request") },
                                "\(lanes)")
        #expect(lanes.contains("● faults on: network unavailable"), "\(lanes)")
        #expect(!lanes.contains("faults on FAULT") && !lanes.contains("fault injected"), "a notice, not a fault that bit: \(lanes)")
        // The ⚡ is on the lane of the call it hit, the IdpSdk's, not on the App's (the first lane, beside the frame's
        // border).
        let names = try #require(lanes.split(separator: "\n").first { $0.contains("App") && $0.contains("IdpSdk") })
        let idpSdk = try #require(Array(names).firstIndex(of: "I"))
        let mark = try #require(Array(bolt).firstIndex(of: "⚡"))
        #expect(abs(mark - idpSdk - 3) <= 3, "\(lanes)")
    }

    /// A 3-D Secure server's switch has values: the notice names the one it is set to, back to "answers normally"
    /// ("switched off: 3DS: ACS answers normally" said it twice).
    @Test func aServerSwitchsNoticeNamesItsValue() throws {
        let driver = AppDriver()
        driver.press(.character("f"))
        for _ in 0..<(driver.faultRow("threeDS.acs") ?? 0) { driver.press(.down) }
        driver.press(.character(" "))
        let first = try #require(driver.app.state.notice)
        #expect(first.hasPrefix("now 3DS: ACS ") && !first.contains("normally"), "\(first)")
        var notices = [first]
        for _ in 0..<12 where !(notices.last ?? "").contains("normally") {
            driver.press(.character(" "))
            notices.append(driver.app.state.notice ?? "")
        }
        #expect(notices.last == "now 3DS: ACS answers normally", "\(notices)")
        #expect(!notices.contains { $0.hasPrefix("switched") })
    }

    @Test func faultsSwitchedDuringAPromptBiteAtTheNextStep() throws {
        let driver = AppDriver()
        driver.openActivation()
        driver.fill()
        driver.press(.f2)
        for _ in 0..<3 { driver.press(.down) }  // server error
        driver.press(.character(" "), .escape)
        #expect(driver.service.environment.world.identityFaults.serverError)
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.status == "FAILED")
        #expect(driver.result?.error?.code == 5000)
    }

    @Test func homeAndEndReachTheFirstAndLastSwitch() {
        let driver = AppDriver()
        driver.press(.f2, .end)
        #expect(driver.app.state.faultsPanel?.focus == driver.service.faultSwitches.count - 1)
        driver.press(.home)
        #expect(driver.app.state.faultsPanel?.focus == 0)
        // j and k move as in the menu and the other lists (they did nothing here).
        driver.press(.character("j"), .character("j"))
        #expect(driver.app.state.faultsPanel?.focus == 2)
        driver.press(.character("k"))
        #expect(driver.app.state.faultsPanel?.focus == 1)
    }

    @Test func theBridgeFaultsAreOnThePanelToo() {
        let driver = AppDriver()
        driver.press(.f2)
        for _ in 0..<10 { driver.press(.down) }  // every ack lost
        driver.press(.character(" "))
        #expect(driver.service.environment.world.bridgeFaults.loseEveryAck)
        #expect(driver.app.render().text.contains("[x] bridge: every ack is lost"))
    }

    /// More flows than rows: the header says how many are below, and above once the selection has moved down.
    @Test func theHistorySaysHowManyFlowsAreOutOfView() {
        let driver = AppDriver(width: 60, height: 18)
        for _ in 0..<10 {
            driver.activate(password: "wrong")
            driver.press(.enter)
        }
        driver.press(.character("h"))
        var text = driver.app.render().text
        let shown = text.split(separator: "\n").filter { $0.contains("activate  alice") }.count
        #expect(shown < 10)
        #expect(text.contains("↓ \(10 - shown) more"), "\(text)")
        // In the middle, flows both ways: both counts, shorter where the long form has no room (it showed neither).
        for _ in 0..<shown { driver.press(.down) }
        text = driver.app.render().text
        let header = text.split(separator: "\n").first { $0.contains("ID") && $0.contains("STATUS") }.map(String.init) ?? ""
        #expect(header.contains("↑") && header.contains("↓"), "\(text)")
        for _ in shown..<9 { driver.press(.down) }
        text = driver.app.render().text
        #expect(text.contains("↑ \(10 - shown) above"), "\(text)")
    }

    @Test func at60ColumnsTheHistoryKeepsOutcomeAndStatusWhole() {
        let driver = AppDriver(width: 60, height: 18)
        driver.activate(password: "wrong")
        driver.press(.enter, .character("h"))
        let text = driver.app.render().text
        #expect(text.contains("ID  FLOW      USER   OUTCOME  STATUS"), "\(text)")
        // The user who tried, though the activation failed.
        #expect(text.contains("activate  alice  failure  WRONG_CREDENTIALS"), "\(text)")
    }

    @Test func aPastFlowsDiagramScrollsBackAtOnceFromItsEnd() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter, .character("h"), .enter, .character("v"))
        for _ in 0..<5 { driver.press(.pageDown) }
        let atEnd = driver.app.render().text
        #expect(!atEnd.contains("newer below"), "the last arrow is shown")
        driver.press(.up)
        #expect(driver.app.render().text.contains("1 newer below"), "one ↑ moves it")
    }

    /// A past payment's transcript is titled with its SDK family (it sat under "IdpSdk on MC-SDK").
    @Test func aPastPaymentsTranscriptNamesItsFamily() {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.enter, .character("h"), .enter)
        let text = driver.app.render().text
        #expect(text.hasPrefix(" idp-tui · Safepay Drops · EMV 3-D Secure 2.2"), "\(text)")
    }

    /// Esc from a past flow's diagram goes back to its transcript, where `v` opened it (it went to the list).
    @Test func escFromAPastFlowsDiagramGoesBackToItsTranscript() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter, .character("h"), .enter, .character("v"))
        #expect(driver.app.render().text.contains("Sequence — flow 1: Activate device"))
        driver.press(.escape)
        let text = driver.app.render().text
        #expect(!text.contains("Sequence — flow 1") && text.contains("│ → MC-SDK  Start"), "\(text)")
        driver.press(.escape)
        #expect(driver.app.render().text.contains("History — 1 flow"), "\(driver.app.render().text)")
    }

    /// At 80 columns, with a state file named at some length, the transcript says the export command on a line of
    /// its own, under the result's lines: the title was "Flow 1" alone.
    @Test func theExportCommandIsALineWhereTheTitleCannotHoldIt() throws {
        let driver = AppDriver()
        driver.activate()
        driver.app.state.stateOption = " --state=/tmp/t48/pay/state.sqlite"
        driver.press(.enter, .character("h"), .enter)
        let text = driver.app.render().text
        #expect(text.contains("─ Flow 1 ─"), "\(text)")
        // The command whole on its row, under its label: wrapped, a copy of its first row lost the --state.
        #expect(text.contains("│ export:"), "\(text)")
        #expect(text.contains("│ idp-tui history export 1 --format mermaid --state=/tmp/t48/pay/state.sqlite"), "whole: \(text)")
    }

    @Test func theHistoryListsFlowsAndShowsTheirTranscripts() throws {
        let driver = AppDriver()
        driver.press(.character("h"))
        #expect(driver.app.render().text.contains("No flows yet"))
        driver.press(.escape)
        driver.activate(password: "wrong")
        driver.press(.enter)
        driver.activate()
        driver.press(.enter, .character("h"))
        var screen = driver.app.render()
        #expect(screen.text.contains("History — 2 flows"))
        #expect(screen.text.contains("activate  alice  failure  WRONG_CREDENTIALS"))
        #expect(screen.text.contains("activate  alice  success  OK"))
        Snapshot.check(screen, "history-80x24")
        driver.press(.down, .enter)
        screen = driver.app.render()
        // Titled with the shell command that exports it, where it fits.
        #expect(screen.text.contains("─ Flow 1 ─"), "the driver's history is in memory: no command reaches it: \(screen.text)")
        #expect(AppView.transcriptTitle(12, width: 60, stateOption: "") == "Flow 12 · idp-tui history export 12 --format mermaid")
        #expect(AppView.transcriptTitle(12, width: 30, stateOption: "") == "Flow 12")
        // The state file a command must name, and none in memory, where no command reaches the flow.
        #expect(AppView.transcriptTitle(12, width: 120, stateOption: " --state=/tmp/s.db")
            == "Flow 12 · export: idp-tui history export 12 --format mermaid --state=/tmp/s.db")
        #expect(AppView.transcriptTitle(12, width: 120, stateOption: nil) == "Flow 12")
        // Where the title cannot hold it (a --state of some length at 80 columns), the command is a line of its own,
        // whole (it showed only at 120 columns).
        let long = " --state=/tmp/t48/pay/state.sqlite"
        var onFile = TranscriptState(record: try #require(try driver.service.history?.record(id: 1)))
        onFile.stateOption = long
        #expect(AppView.exportLine(onFile, width: 76) == ["export:", "idp-tui history export 1 --format mermaid" + long])
        #expect(AppView.exportLine(onFile, width: 116).isEmpty, "the title holds it at 120 columns")
        onFile.stateOption = nil
        #expect(AppView.exportLine(onFile, width: 76).isEmpty, "in memory no command reaches it")
        // The transcript's lines are the log's, under its columns' header (the transcript is inset: "│ ", the log "│").
        #expect(screen.text.contains("│ who       step"), "\(screen.text)")
        #expect(screen.text.contains("│ → MC-SDK  Start") && screen.text.contains("idp-tui.flow StartEvent"), "\(screen.text)")
        #expect(!screen.text.contains("wonderland"))
        // Enter shows the selected event whole; Esc closes it.
        driver.press(.down, .enter)
        screen = driver.app.render()
        #expect(screen.text.contains("Event — esc closes"))
        #expect(screen.text.contains("from → to MC-SDK → App"))
        // KSMStartResultEvent's own field names (the users were `users=`).
        #expect(screen.text.contains("sdkState=ACTIVATION_REQUIRED, userList=[]"), "\(screen.text)")
        driver.press(.escape)
        #expect(!driver.app.render().text.contains("Event — esc closes"))
        // The past flow as a sequence diagram, and back.
        driver.press(.character("v"))
        screen = driver.app.render()
        #expect(screen.text.contains("Sequence — flow 1: Activate device"))
        #expect(screen.text.contains("IdpSdk") && screen.text.contains("MC-SDK") && screen.text.contains("▶"))
        // Drawn over the transcript, not mixed with it, and with its own keys in the help bar.
        #expect(!screen.text.contains("│ → MC-SDK  Start") && !screen.text.contains("WRONG_CREDENTIALS ·"))
        #expect(screen.text.contains("v the list"))
        // In the log's colours, as the live diagram: the refused password's arrow is an error.
        let refused = try #require((0..<screen.height).first { screen.text(row: $0).contains("getAuthorizationCode 513/4011") })
        let column = try #require(Array(screen.text(row: refused)).firstIndex(of: "5"))
        #expect(screen[refused, column].role == .logError)
        driver.press(.up, .pageDown, .pageDown)
        #expect(!driver.app.render().text.contains("│ → MC-SDK  Start"))
        driver.press(.character("v"))
        #expect(!driver.app.render().text.contains("Sequence — flow 1"))
        driver.press(.escape)
        #expect(driver.app.render().text.contains("History — 2 flows"))
        driver.press(.escape)
        #expect(driver.app.render().text.contains("What would you like to do?"))
    }
}
