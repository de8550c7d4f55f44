import FlowEngine
import FlowRecords
@testable import TerminalUI
import Testing

/// The sequence diagram's lanes, labels and title at 80×24.
@Suite struct SequenceLayoutTests {
    func lines(_ driver: AppDriver) -> [String] {
        driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A lane's name moves aside into room a neighbour leaves (it was cut to "SecurityMo…" beside 37 empty columns).
    @Test func aLanesNameUsesTheRoomItsNeighboursLeave() throws {
        let driver = AppDriver()
        driver.signInQ2()
        driver.press(.character("v"))
        let names = try #require(lines(driver).first { $0.contains("Q2 SDK") && $0.contains("Q2 Core") })
        #expect(names.contains("SecurityModule"), "\(names)")
    }

    /// Before any flow the diagram's box says what will appear in it (it was empty).
    @Test func beforeAnyFlowTheDiagramSaysWhatItWillShow() {
        let driver = AppDriver()
        driver.press(.character("v"))
        let text = driver.app.render().text
        #expect(text.contains("sequence (v: the list)"), "\(text)")
        #expect(text.contains("No flow yet: run one, and its calls are drawn here."), "\(text)")
    }

    /// The lanes spread over the whole width, so labels use it: "getAuthorizationCode" is whole (it was cut to
    /// "◀getAuthorizatio…" with 11 columns empty right of the last lane).
    @Test func theLanesSpreadOverTheWholeWidth() throws {
        let driver = AppDriver()
        driver.activate()
        driver.press(.character("v"))
        var seen = ""
        for _ in 0..<6 {
            seen += driver.app.render().text
            driver.press(.pageUp)
        }
        #expect(seen.contains("getAuthorizationCode"), "\(seen)")
        let names = try #require(lines(driver).first { $0.contains("App") && $0.contains("IdpSdk") && $0.contains("IdP") })
        #expect(names.hasSuffix("IdP │"), "the last lane near the right border: \(names)")
    }

    /// Each gap is as wide as its labels want: a cancelled prompt's arrow between App and IdpSdk is whole at 80
    /// columns (evenly spaced lanes cut it to "provideCredentials U…" with 30 columns empty right of it).
    @Test func aGapIsAsWideAsItsLabels() {
        let driver = AppDriver()
        driver.openActivation()
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        driver.press(.character("v"))
        let text = driver.app.render().text
        #expect(text.contains("│─provideCredentials USER_CANCEL─"), "\(text)")
        #expect(text.contains("getAuthorizationCode 1000/1─"), "\(text)")
        #expect(!text.contains("…▶") && !text.contains("…│"), "no label cut: \(text)")
        #expect(!text.contains("a label is cut"))
    }

    /// A label that cannot be whole says which key lists the events whole, and Tab does: the list, on the newest
    /// arrow shown, with its step whole.
    @Test func aCutLabelSaysWhereItIsWhole() {
        let driver = AppDriver()
        driver.payWithAChallenge()
        driver.press(.character("v"))
        let text = driver.app.render().text
        #expect(text.contains("◀─onPayerAuthenticationS…│"), "\(text)")
        #expect(text.contains("a label is cut: tab, then enter, shows one whole ─┘"), "\(text)")
        driver.press(.tab)
        #expect(driver.app.render().text.contains("onPayerAuthenticationSuccess"))
    }

    /// The title's key hint is shortened, not cut mid-word ("v: the l… · 16 newer below").
    @Test func theTitleShortensItsHint() {
        let driver = AppDriver()
        driver.payWithAChallenge()
        driver.press(.character("v"), .pageUp, .pageUp, .pageUp, .pageUp)
        let text = driver.app.render().text
        #expect(text.contains("Sequence — flow 1: Pay with card (3-D Secure) · v: list · 16 newer below"), "\(text)")
    }

    /// A past payment's diagram scrolls to its last arrow, the count in its title right on the way (the tester
    /// saw it stop at the first CReq; not seen on this build, kept as a guard).
    @Test func aPastPaymentsDiagramScrollsToItsLastArrow() throws {
        let driver = AppDriver()
        driver.payWithAChallenge()
        driver.press(.escape, .character("h"), .enter, .character("v"))
        #expect(driver.app.render().text.contains("· 5 newer below"))
        for _ in 0..<30 { driver.press(.down) }
        let screen = lines(driver)
        #expect(!screen.joined().contains("newer below"))
        #expect(screen[20].contains("◀─onPayer"), "\(screen.joined(separator: "\n"))")
        #expect(screen[19].contains("◀─safepay-inf"))
    }

    /// A flow's lanes stay put while it runs: they are spaced for the labels its kind's earlier flows drew too (an
    /// activation's IdpSdk lane moved six columns when its prompt was answered, and the arrows under it with it).
    @Test func theLanesStayPutWhileAFlowRuns() throws {
        let driver = AppDriver()
        driver.activate(password: "wrong-password")
        driver.press(.escape, .character("v"))
        driver.openActivation()
        func names() throws -> String { try #require(lines(driver).first { $0.contains("App") && $0.contains("IdpSdk") && $0.contains("MC-SDK") }) }
        let asked = try names()
        driver.fill(password: "wrong-password")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(try names() == asked)
        #expect(lines(driver).contains { $0.contains("getAuthorizationCode 513/4011") })
    }

    /// Short of room, a diagram's title keeps the flow's number and history ID, and what the flow is gives way (at
    /// 60 columns, scrolled, it read "Sequence — flow 3 · hist…").
    @Test func aShortTitleKeepsTheFlowsNumber() {
        let title = SequencePane.Title(names: ["flow 3 · history 17", "flow 3"], what: "Pay with card (3-D Secure)")
        #expect(title.fitting(80) == "Sequence — flow 3 · history 17: Pay with card (3-D Secure)")
        #expect(title.fitting(41) == "Sequence — flow 3 · history 17: Pay with…")
        #expect(title.fitting(36) == "Sequence — flow 3 · history 17")
        #expect(title.fitting(25) == "flow 3 · history 17")
        #expect(title.fitting(18) == "Sequence — flow 3")
        #expect(title.fitting(8) == "flow 3")
        #expect(title.fitting(4) == "flo…")
    }

    /// At 60×18, scrolled, the live diagram's title still names the flow.
    @Test func atSixtyColumnsTheTitleNamesTheFlow() {
        let driver = AppDriver(width: 60, height: 18)
        driver.payWithAChallenge()
        driver.press(.character("v"), .pageUp, .pageUp)
        let title = lines(driver).first { $0.contains("newer below") } ?? ""
        #expect(title.contains("flow 1"), "\(title)")
    }

    /// Over a form the title names F6 for the list, not v, which the form types (a tester pressed v for the list,
    /// typed it into the password, and spent a login attempt).
    @Test func overAFormTheTitleNamesTheKeyThatShowsTheList() throws {
        let driver = AppDriver()
        driver.press(.character("v"))
        driver.openActivation()
        let title = try #require(lines(driver).first { $0.contains("Sequence — flow 1") })
        #expect(title.contains("F6: the list") && !title.contains("v: the list"), "\(title)")
        driver.press(.f6)
        #expect(driver.app.state.logFocus != nil && !driver.app.state.logAsSequence, "F6 shows the list")
        // Esc gives the form its keys back and the log its diagram (it stayed the list, and on a form no key brought
        // the diagram back).
        driver.press(.escape)
        #expect(driver.app.state.logFocus == nil && driver.isForm)
        #expect(lines(driver).contains { $0.contains("Sequence — flow 1") && $0.contains("F6: the list") })
    }

    /// A session's first flow of a kind is spaced for the labels the history's past flows of it drew: its lanes
    /// stay put when its prompt is cancelled (the cancel's longer label moved them, a tester saw, at every first run).
    @Test func aSessionsFirstFlowIsSpacedForTheHistorysLabels() throws {
        let driver = AppDriver()
        driver.openActivation()
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        driver.press(.escape)
        // A new session on the same history: its log holds none of the flows before.
        driver.app.state.log = []
        driver.app.state.laneHints = [:]
        driver.app.state.laneHintsRead = []
        driver.press(.character("v"))
        driver.openActivation()
        func names() throws -> String { try #require(lines(driver).first { $0.contains("App") && $0.contains("IdpSdk") && $0.contains("MC-SDK") }) }
        let asked = try names()
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        #expect(lines(driver).contains { $0.contains("provideCredentials USER_CANCEL") })
        #expect(try names() == asked)
    }

    /// A history record not saved is the simulator's notice, not a fault that bit: a plain mark, named.
    @Test func aRecordNotSavedIsANoticeNotAFault() {
        let recorded = RecordedEvent(sequence: 9, step: FlowStep.historyNotSaved.rawValue, from: "simulator", to: "App", thread: "main",
                                     time: "2030-01-01T00:00:00.000Z", duration: nil, status: "NOT_SAVED",
                                     detail: HistoryNotSavedDetail(reason: "the disk is full").message)
        let arrow = SequencePane.Arrow(FlowEvent(recorded: recorded, flowID: 1, flow: .logout))
        #expect(arrow.isFault && arrow.isNotice)
        #expect(arrow.label == "this flow was not saved to the history: the disk is full")
    }

    /// A payment's five lanes do not fit every label at 80 columns: they stay where its kind's past labels put them
    /// all the same (they moved from the card form to the challenge, back to the flow's own spacing, which kept a
    /// bridge message whole until the challenge's messages came).
    @Test func aPaymentsLanesStayPutAtEightyColumns() throws {
        let driver = AppDriver()
        driver.payWithAChallenge()
        driver.press(.escape, .character("v"))
        driver.openPaymentAgain()
        func names() throws -> String { try #require(lines(driver).first { $0.contains("SafepayDrops") && $0.contains("ACS") }) }
        let form = try names()
        driver.press(.enter, .enter, .enter, .enter, .enter)
        driver.pump { _ in driver.challenge != nil || driver.isResult }
        #expect(try names() == form, "at the challenge")
        driver.type("1234")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(try names() == form, "at the result")
    }

    /// Tab from a scrolled diagram lists the events from its newest arrow shown; Esc gives the diagram back where it
    /// was (it went back to the newest arrow).
    @Test func tabFromTheDiagramAndBackKeepsItsPlace() throws {
        let driver = AppDriver()
        driver.payWithAChallenge()
        driver.press(.character("v"), .pageUp)
        let scrolled = driver.app.state.logScroll
        #expect(scrolled > 0)
        driver.press(.tab)
        #expect(driver.app.state.logFocus != nil && !driver.app.state.logAsSequence)
        driver.press(.escape)
        #expect(driver.app.state.logAsSequence && driver.app.state.logScroll == scrolled)
        #expect(driver.app.render().text.contains("\(scrolled) newer below"))
    }

    /// A form that comes while the focus, taken from the diagram, lists the events: the form takes the keys, and the
    /// log is the diagram again.
    @Test func aFormThatComesGivesTheDiagramBack() throws {
        let driver = AppDriver(latency: .seconds(5))
        driver.press(.character("v"), .enter)
        #expect(driver.clock.waitForPendingTimers(atLeast: 1))
        driver.pump { app in app.state.log.contains { $0.step == .getAuthorizationCode } }
        driver.press(.tab)
        #expect(driver.app.state.logFocus != nil && !driver.app.state.logAsSequence)
        driver.clock.advance(by: .seconds(60))
        #expect(driver.pump { _ in driver.isForm })
        #expect(driver.app.state.logFocus == nil && driver.app.state.logAsSequence)
        #expect(driver.app.render().text.contains("Sequence — flow 1: Activate device"))
    }
}
