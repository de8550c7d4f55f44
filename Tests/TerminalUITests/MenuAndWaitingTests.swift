import DropsWeb
import FlowEngine
import FlowRecords
import Foundation
import LegacyFlows
import Scenario
import Secrets
@testable import TerminalUI
import Testing

@Suite struct MenuAndHelpKeyTests {
    /// Every screen's bar says how to get help, and `?` opens it there: the history, a transcript (list and
    /// sequence) and the out-of-band challenge had no help entry though `?` worked.
    @Test func theHistoryAndTranscriptBarsSayHowToGetHelp() {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.press(.escape, .character("h"))
        for (step, key) in [("history", nil), ("transcript", Key.enter), ("sequence", Key.character("v"))] as [(String, Key?)] {
            if let key { driver.press(key) }
            let bar = driver.app.render().text.split(separator: "\n").last.map(String.init) ?? ""
            #expect(bar.contains("? F1 help"), "\(step): \(bar)")
            driver.press(.character("?"))
            #expect(driver.app.state.showHelp, "\(step)")
            driver.press(.character("?"))
        }
    }

    @Test func theMenuTakesDigitsJKHomeAndEnd() {
        let driver = AppDriver()
        let count = MenuItem.all.count
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
        driver.press(.character("0"))
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
    @Test func helpPagesOnePageAtATime() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.press(.f1)
        /// The title's "(first–last of count".
        func page() throws -> [Int] {
            let text = driver.app.render().text
            let match = try #require(text.firstMatch(of: /\(([0-9]+)–([0-9]+) of ([0-9]+)/), "\(text)")
            return [Int(match.output.1)!, Int(match.output.2)!, Int(match.output.3)!]
        }
        // Down: each page starts on the line after the last one's end (the last page, a whole page, may start
        // sooner, as less's does), and the last ends on the last line.
        var pages = [try page()]
        #expect(pages[0][0] == 1)
        while pages.last![1] < pages.last![2], pages.count < 10 {
            driver.press(.pageDown)
            let next = try page()
            #expect(next[0] == pages.last![1] + 1 || (next[1] == next[2] && next[0] <= pages.last![1] + 1), "\(pages) then \(next)")
            pages.append(next)
        }
        #expect(pages.count >= 3 && pages.last![1] == pages.last![2], "\(pages)")
        // Up: a page at a time, skipping nothing, back to the first.
        var previous = pages.last!
        for _ in 0..<10 where previous[0] > 1 {
            driver.press(.pageUp)
            let next = try page()
            #expect(next[0] < previous[0] && next[1] + 1 >= previous[0], "\(next) before \(previous)")
            previous = next
        }
        #expect(previous[0] == 1)
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
            #expect(bar.contains("F1 help"), "\(width): \(bar)")
            #expect(bar.contains("F4 demo user"), "test data is found at every width: \(width): \(bar)")
        }
    }
}

@Suite struct WaitingTests {
    /// Esc while a flow works, its first prompt already posted but not yet shown (the messages are handed over in
    /// that order here): the flow ends cancelled and its form never shows; it did, and a piped script's next lines
    /// became its hidden password.
    @Test func aPromptOfAFlowCancelledWhileItWorkedIsNotShown() {
        let driver = AppDriver()
        driver.press(.enter)
        var cancelled = false, sawForm = false
        let deadline = ContinuousClock.now + .seconds(10)
        while !driver.isResult, ContinuousClock.now < deadline {
            guard driver.service.mailbox.waitForMessages(timeout: .milliseconds(50)) else { continue }
            for message in driver.service.mailbox.drain() {
                switch message {
                case .event(let event): driver.app.flowService(driver.service, didEmit: event)
                case .prompt(let prompt):
                    if !cancelled {
                        driver.press(.escape)
                        cancelled = true
                    }
                    driver.app.flowService(driver.service, needsAnswerTo: prompt)
                case .finished(let result): driver.app.flowService(driver.service, didFinish: result)
                case .report(let report): driver.app.flowService(driver.service, didReport: report)
                }
                if driver.isForm { sawForm = true }
            }
        }
        #expect(cancelled)
        #expect(!sawForm)
        #expect(driver.result?.outcome == .cancelled)
    }

    @Test func waitingShowsTheCallInFlightAndItsElapsedTime() throws {
        // Every round trip to the IdP takes 5 s on the manual clock, which the test never moves: the activation
        // waits on its first IdP call.
        let driver = AppDriver(latency: .seconds(5))
        driver.press(.enter)  // Activate device
        // The request to the IdP is in flight as soon as it leaves: the screen names it, and who sent it.
        let shown = driver.pump { _ in driver.app.state.inFlight != nil && driver.app.render().text.contains("waiting for IdP") }
        #expect(shown)
        let call = try #require(driver.app.state.inFlight)
        #expect(driver.app.tickInterval == .milliseconds(250), "the elapsed time ticks while a call is in flight")
        driver.app.tick(now: call.since + .milliseconds(3_250))
        let text = driver.app.render().text
        #expect(text.contains("waiting for IdP: GET /authorize (from IdpSdk) · 3.2 s"), "\(text)")
        #expect(!text.contains("fault injected"))
        driver.press(.escape)
        let ended = driver.pump { _ in driver.isResult }
        #expect(ended)
        #expect(driver.app.tickInterval == nil, "nothing ticks once the flow has ended")
    }
}

extension WaitingTests {
    /// A fault that struck the call waited on is said under it, with how long the SDK waits: the time counted up to
    /// 30 s under a request timeout with nothing on the working screen saying why.
    @Test func aFaultOnTheCallInFlightIsSaidUnderIt() throws {
        var scenario = Scenario.embeddedDefault
        scenario.identityFaults.requestTimeout = true
        let driver = AppDriver(width: 60, height: 18, scenario: scenario)
        driver.press(.enter)  // Activate device
        let shown = driver.pump { _ in driver.app.state.inFlight != nil && driver.app.state.log.last?.step == .fault }
        #expect(shown)
        let text = driver.app.render().text
        #expect(text.contains("waiting for IdP: GET /authorize"), "\(text)")
        #expect(text.contains("⚡ request timeout: the IdP does not answer within 30 s"), "\(text)")
        #expect(text.contains("Esc cancels the flow."), "the hint stays, under it: \(text)")
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
    }

    /// Only the newest event of the working flow, a fault, with a call in flight, is said: not one an event came
    /// after (the call it struck was answered), nor another flow's.
    @Test func onlyTheFlowsNewestFaultIsSaid() {
        let driver = AppDriver()
        func event(_ sequence: Int, step: String, flowID: Int, detail: String) -> FlowEvent {
            FlowEvent(recorded: RecordedEvent(sequence: sequence, step: step, from: step == FlowStep.fault.rawValue ? "simulator" : "IdpSdk",
                                              to: "App", thread: "IdpSdk", time: "2030-01-01T00:00:00.000Z", duration: nil, status: nil,
                                              detail: detail), flowID: flowID, flow: .activate)
        }
        driver.app.state.screen = .working(flowID: 1, flow: .activate, step: "starting…")
        driver.app.state.inFlight = ("IdP: GET /authorize (from IdpSdk)", driver.app.state.now)
        driver.app.state.log = [event(1, step: FlowStep.fault.rawValue, flowID: 1, detail: "added latency: +800 ms on this round trip")]
        #expect(driver.app.render().text.contains("⚡ added latency: +800 ms on this round trip"))
        driver.app.state.log.append(event(2, step: "GET /authorize", flowID: 1, detail: "200 login form"))
        #expect(!driver.app.render().text.contains("⚡ added latency"), "an event came after it")
        driver.app.state.log = [event(1, step: FlowStep.fault.rawValue, flowID: 2, detail: "added latency: +800 ms on this round trip")]
        #expect(!driver.app.render().text.contains("⚡ added latency"), "another flow's")
        driver.app.state.log = [event(1, step: FlowStep.fault.rawValue, flowID: 1, detail: "added latency: +800 ms on this round trip")]
        driver.app.state.inFlight = nil
        #expect(!driver.app.render().text.contains("⚡ added latency"), "no call in flight")
    }

    /// A page that posts from the wrong origin: the screen waits for its load, the fault said under it, while the
    /// messages it posts are rejected (it said "waiting for SafepayDrops: rejected (from Drops)", and no ⚡ line).
    @Test func messagesRejectedAreNotTheCallWaitedOn() throws {
        let driver = AppDriver(configuration: FlowConfiguration(bridgeFaults: BridgeFaults(wrongOrigin: true)))
        driver.press(.down, .down, .down, .enter)
        #expect(driver.pump { app in app.state.log.contains { $0.step == .rejected } })
        let text = driver.app.render().text
        #expect(text.contains("waiting for Drops: load"), "\(text)")
        #expect(!text.contains("waiting for SafepayDrops: rejected"), "\(text)")
        #expect(text.contains("⚡ the Drops page posts from"), "\(text)")
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
    }

    /// By SetAuthorisationCode the IdP has accepted, and so spent, the activation code: a cancel while it is in
    /// flight says so (the next activation failed with ACTIVATION_CODE_USED, nothing said), and how to get it back.
    @Test func cancellingSetAuthorisationCodeSaysTheCodeIsSpent() {
        reachSetAuthorisationCode { driver in driver.press(.escape) }
    }

    /// Runs an activation to SetAuthorisationCode, waiting on the manual clock, does `then`, and checks that the
    /// result says the code is spent and what gives it back.
    func reachSetAuthorisationCode(then: (AppDriver) -> Void) {
        let driver = AppDriver()
        driver.openActivation()
        driver.fill()
        driver.press(.enter)
        #expect(driver.pump { _ in driver.formPage == 2 })
        // From the activation code on, each round trip waits 5 s on the manual clock, which the test moves.
        driver.environment.world.network.latency = .seconds(5)
        driver.type("123456")
        driver.press(.enter)
        // Each move of the clock answers one round trip. Before it moves, the screen must show the next call waiting
        // (a "waiting for" line other than the last one): the request's timer can be set before the screen has the
        // request's event, and moved then, under load, the clock answered POST /token before the screen showed it.
        func waiting(_ text: String) -> String? {
            text.split(separator: "\n").first { $0.contains("waiting for ") }.map { String($0.split(separator: "·").first ?? "") }
        }
        var reached = false
        var last: String?
        for _ in 0..<6 where !reached {
            driver.pump { _ in
                driver.isResult || (driver.clock.pendingTimerCount > 0 && waiting(driver.app.render().text).map { $0 != last } == true)
            }
            let text = driver.app.render().text
            // SetAuthorisationCode's request to the IdP, as it leaves: the MC-SDK waits for the IdP's answer.
            reached = text.contains("waiting for IdP: POST /token (from MC-SDK)")
            if reached || driver.isResult { break }
            last = waiting(text)
            driver.clock.advance(by: .seconds(5))
        }
        #expect(reached)
        then(driver)
        #expect(driver.pump { _ in driver.isResult })
        expectSpentCodeAdvice(driver)
    }

    func expectSpentCodeAdvice(_ driver: AppDriver) {
        #expect(driver.result?.failedStep?.rawValue == "SetAuthorisationCode")
        let text = driver.app.render().text.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }
            .joined(separator: " ")
        #expect(text.contains("The IdP spent the activation code when it accepted it, before SetAuthorisationCode"), "\(text)")
        // The app's state is in memory here: what gives the codes back is restarting idp-tui, not `idp-tui reset`.
        #expect(text.contains("activate again with another code; here, restarting idp-tui with --ephemeral gives the scenario's codes back."), "\(text)")
        #expect(!text.contains("idp-tui reset"), "\(text)")
    }

    /// Esc while a call is in flight: the screen says it is cancelling, not the call it abandons (nor, once the
    /// cancel is the app's answer, "waiting for IdpSdk (provideCredentials USER_CANCEL)"), and the call's time
    /// stops ticking: the screen is quiet for the cancel's first second (a slow one then counts its own time).
    @Test func cancellingSaysSoAndStopsTheTicking() throws {
        let driver = AppDriver(latency: .seconds(5))
        driver.press(.enter)  // Activate device: its first call waits 5 s on the manual clock
        #expect(driver.pump { _ in driver.app.state.inFlight != nil })
        driver.press(.escape)
        let text = driver.app.render().text
        #expect(text.contains("cancelling…") && !text.contains("waiting for"), "\(text)")
        let since = try #require(driver.app.state.cancellingSince)
        #expect(driver.app.tickInterval(at: since) == .seconds(1))
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.app.tickInterval == nil)
    }

    /// After the form is answered the SDK goes on with it: the working screen says the request it sent and whom it
    /// waits for, not the prompt it has just had its answer to, and its time ticks while the request waits out the
    /// added latency (it showed no time until the request was sent, and then "provideCredentials answered": the
    /// request was logged only with its answer).
    @Test func afterTheFormTheWorkingScreenSaysTheSDKHasTheAnswer() throws {
        let driver = AppDriver(latency: .seconds(5))
        driver.press(.enter)  // Activate device: its connection waits 5 s on the manual clock
        #expect(driver.pump { _ in driver.clock.pendingTimerCount > 0 })
        driver.clock.advance(by: .seconds(5))
        #expect(driver.pump { _ in driver.isForm })
        driver.fill()
        driver.press(.enter)
        #expect(driver.pump { _ in driver.app.render().text.contains("waiting for IdP: POST /authorize (from IdpSdk)") })
        #expect(!driver.app.render().text.contains("waiting for IdpSdk: provideCredentials"))
        let call = try #require(driver.app.state.inFlight, "the SDK is waited on after the answer")
        #expect(driver.app.tickInterval == .milliseconds(250))
        driver.app.tick(now: call.since + .milliseconds(1_750))
        let text = driver.app.render().text
        #expect(text.contains("waiting for IdP: POST /authorize (from IdpSdk) · 1.7 s"), "\(text)")
        // The request goes once the latency is waited out; its answer brings the next page, the app's turn.
        driver.clock.advance(by: .seconds(5))
        #expect(driver.pump { _ in driver.isForm })
        #expect(driver.app.state.inFlight == nil)
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
    }
}

