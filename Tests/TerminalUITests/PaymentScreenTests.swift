import DropsWeb
import FlowCatalog
import FlowEngine
import FlowRecords
import PaymentFlows
import Scenario
import TerminalUI
import Testing
import ThreeDSecure

extension AppDriver {
    var isPaymentForm: Bool {
        if case .payment = app.state.screen { return true }
        return false
    }

    var challenge: ChallengeState? {
        if case .challenge(let challenge) = app.state.screen { return challenge }
        return nil
    }

    /// Home → Pay with card → the card form.
    func openPayment() {
        press(.down, .down, .down, .enter)
        pump { _ in self.isPaymentForm }
    }

    /// Home (the menu on any item) → Pay with card → the card form.
    func openPaymentAgain() {
        press(.character("4"), .enter)
        pump { _ in self.isPaymentForm }
    }

    /// Fills in the card form (amount, currency and merchant keep their defaults) and pays.
    func pay(card: String, expiry: String = "12/30") {
        openPayment()
        type(card)
        press(.tab)
        type(expiry)
        press(.enter, .enter, .enter, .enter)
        pump { _ in self.challenge != nil || self.isResult }
    }

    /// Waits for the next challenge screen (one with fewer attempts or resends than `after`, or a result).
    func nextScreen(after previous: ChallengeState?) {
        pump { _ in
            self.isResult || (self.challenge.map { $0.prompt.id != previous?.prompt.id } ?? false)
        }
    }
}

@Suite struct PaymentScreenTests {
    /// A scenario's own select challenge keeps its answer secret, as its one-time code is (bank-qa's "Where were
    /// you born?" screen said "the simulated issuer takes Oslo"); idp-tui's published cards still show theirs.
    @Test func aScenariosOwnSelectAnswerIsNotShown() throws {
        let json = #"{"scenario": 1, "identityProvider": {"tenants": [{"id": "demo", "users": [{"username": "alice", "password": "wonderland"}]}]}, "payments": {"cards": [{"number": "4111111111111111", "title": "city", "challenge": "single-select", "prompt": "Where were you born?", "options": ["Porto", "Oslo", "Quito"], "correct": [2]}]}}"#
        guard case .success(let scenario) = ScenarioFile.read(Array(json.utf8)) else { Issue.record("the scenario"); return }
        let driver = AppDriver(width: 60, scenario: scenario)
        driver.pay(card: "4111111111111111")
        var text = driver.app.render().text
        #expect(text.contains("Where were you born?") && !text.contains("takes Oslo"), "\(text)")
        #expect(text.contains("the scenario's own answer (its card's correct)"), "\(text)")
        // Nor do the log and the CReq say which option was chosen: with transStatus Y that gives the answer away.
        driver.press(.down, .character(" "), .enter)
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.outcome == .success)
        let logged = driver.app.state.log.map { "\($0.detail) \($0.message ?? "")" }.joined(separator: "\n")
        #expect(logged.contains("options chosen (a scenario's own answer is not shown)") && logged.contains("\"challengeDataEntry\":\"••\""),
                "\(logged)")
        #expect(!logged.contains("option 2 chosen") && !logged.contains("options 2 chosen") && !logged.contains("\"challengeDataEntry\":\"2\""), "\(logged)")
        let published = AppDriver(scenario: scenario)
        published.pay(card: "4000009900000012")
        text = published.app.render().text
        #expect(text.contains("the simulated issuer takes Lisbon"), "\(text)")
    }

    @Test func homeOffersThePayment() {
        let screen = AppDriver().app.render()
        #expect(screen.text.contains("Pay with card (3-D Secure)"))
        #expect(!screen.text.contains("Pay with card (3-D Secure) — coming later"))
    }

    @Test func theCardFormDetectsTheBrandAndChecksLuhn() {
        let driver = AppDriver()
        driver.openPayment()
        driver.type("4000 0000 0000 2503")
        var screen = driver.app.render()
        #expect(screen.text.contains("Visa · Luhn ✓"))
        Snapshot.check(screen, "payment-form-80x24")
        driver.press(.backspace)
        driver.type("2")
        screen = driver.app.render()
        #expect(screen.text.contains("Visa · fails Luhn"))
        driver.press(.tab)
        driver.type("12/30")
        driver.press(.enter, .enter, .enter, .enter)
        #expect(driver.isPaymentForm)
        // The message beside the card number, where the focus went back, on two rows ("the card number" left out).
        let text = driver.app.render().text
        #expect(text.contains("›[4000 0000 0000 2502     ] fails the Luhn check; check for"), "\(text)")
        #expect(text.contains("]               a mistyped digit."), "\(text)")
        guard case .payment(let form) = driver.app.state.screen else { Issue.record("no card form"); return }
        #expect(form.focus == 0)
    }

    @Test func aOneTimeCodeChallengeMasksTheCodeAndCountsAttempts() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002503")
        let first = try #require(driver.challenge)
        driver.type("9876")
        var screen = driver.app.render()
        #expect(!screen.text.contains("9876"))
        #expect(screen.text.contains("••••"))
        #expect(screen.text.contains("3 attempts left · 3 resends left"))
        #expect(screen.text.contains("EUR 49.99 at Demo Shop · card •••• 2503"))
        Snapshot.check(screen, "challenge-code-80x24")
        driver.press(.enter)
        driver.nextScreen(after: first)
        screen = driver.app.render()
        #expect(screen.text.contains("2 attempts left"))
        #expect(screen.text.contains("wrong code; 2 attempts left"))
        driver.type("1234")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        let result = try #require(driver.result)
        #expect(result.status == PaymentStatus.authenticated)
        screen = driver.app.render()
        #expect(screen.text.contains("onPayerAuthenticationSuccess"))
        #expect(screen.text.contains("Y · ECI 05 — authentication successful"))
        #expect(!screen.text.contains("9876"))
        Snapshot.check(screen, "result-payment-success-80x24")
    }

    @Test func resendIsAButton() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002503")
        let first = try #require(driver.challenge)
        driver.press(.tab, .tab, .enter)  // code → Submit → Resend code
        driver.nextScreen(after: first)
        #expect(driver.challenge?.screen.resendsLeft == 2)
        #expect(driver.app.render().text.contains("a new code was sent"))
    }

    /// A wrong code's line keeps the resends left in view (it said only "wrong code; 2 attempts left").
    @Test func aWrongCodeKeepsTheResendsLeftInView() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002503")
        let first = try #require(driver.challenge)
        driver.type("9999")
        driver.press(.enter)
        driver.nextScreen(after: first)
        let text = driver.app.render().text
        #expect(text.contains("wrong code; 2 attempts left · 3 resends left"), "\(text)")
    }

    /// With no resends left the Resend button goes, as the ACS leaves its label out: pressed, it was refused, and
    /// the refusals ended the challenge with every attempt left. The attempts stay in view.
    @Test func theResendButtonGoesWithTheLastCode() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002503")
        var previous = try #require(driver.challenge)
        for _ in 0..<previous.screen.resendsLeft {
            driver.press(.tab, .tab, .enter)  // code → Submit → Resend code
            driver.nextScreen(after: previous)
            previous = try #require(driver.challenge)
            if previous.focus != 0 { driver.press(.backTab, .backTab) }
        }
        #expect(previous.screen.resendsLeft == 0)
        let text = driver.app.render().text
        #expect(!text.contains("Resend"), "\(text)")
        #expect(text.contains("3 attempts left · no resends left") || text.contains("3 attempts left · 0 resends left"), "\(text)")
        driver.press(.tab, .enter)  // Submit with no code: the hint names no Resend
        #expect(driver.app.render().text.contains("Type the one-time code.") && !driver.app.render().text.contains("choose Resend"))
        driver.press(.tab, .tab, .enter)  // code → Submit → Cancel: no Resend between them
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.outcome == .cancelled)
    }

    /// Refusals (Continue on an out-of-band screen before the other device has answered) say from the first how
    /// many more end the challenge, and the message is whole (at 80 columns "… (2 more such answer…" was cut).
    @Test(arguments: [(80, 24), (60, 18)])
    func refusalsSayHowManyMoreEndTheChallengeWhole(width: Int, height: Int) throws {
        let driver = AppDriver(width: width, height: height)
        driver.pay(card: "4000009900000038")
        var previous = try #require(driver.challenge)
        for left in [4, 3, 2, 1] {
            driver.press(.enter)  // Continue, before approving
            driver.nextScreen(after: previous)
            previous = try #require(driver.challenge)
            let end = left == 1 ? "(1 more such answer ends the challenge)" : "(\(left) more such answers end the challenge)"
            #expect(previous.screen.message?.hasSuffix(end) == true, "\(previous.screen.message ?? "")")
            #expect(driver.app.render().text.contains("the challenge)"), "\(driver.app.render().text)")
        }
    }

    /// A Safepay error says what happened first, under the headline, as every other failure does (it came after
    /// the next step and the callback).
    @Test func aSafepayErrorSaysWhatHappenedFirst() {
        let driver = AppDriver(configuration: FlowConfiguration(bridgeFaults: BridgeFaults(readyNeverComes: true)))
        driver.press(.down, .down, .down, .enter)
        #expect(driver.clock.waitForPendingTimers(atLeast: 1))
        driver.clock.advance(by: .seconds(11))
        #expect(driver.pump { _ in driver.isResult })
        let lines = driver.app.render().text.split(separator: "\n").map(String.init)
        let happened = lines.firstIndex { $0.contains("what happened") }
        let next = lines.firstIndex { $0.contains("next step") }
        #expect(happened != nil && next != nil && happened! < next!, "\(lines.joined(separator: "\n"))")
    }

    @Test func escOnTheChallengeIsReportedAsCancelled() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002503")
        #expect(driver.challenge != nil)
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.outcome == .cancelled)
        let screen = driver.app.render()
        #expect(screen.text.contains("⊘ Pay with card (3-D Secure) cancelled"))
        #expect(screen.text.contains("01 the cardholder selected Cancel"))
        // The cancel ends in N: no advice to authorise without liability shift under "the transaction is denied".
        #expect(screen.text.contains("Run 3-D Secure again, or ask for another payment method."))
        Snapshot.check(screen, "result-payment-cancelled-80x24")
    }

    /// Typing into a full field says so beside it (the pre-filled currency took "usd" without a sign).
    @Test func typingIntoAFullFieldSaysItIsFull() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.tab, .tab, .tab, .end)  // Currency, EUR
        driver.type("u")
        let text = driver.app.render().text
        #expect(text.contains("[EUR       ]"))
        #expect(text.contains("This field is full"), "\(text)")
        driver.press(.backspace)
        #expect(!driver.app.render().text.contains("This field is full"))
    }

    @Test func escOnTheCardFormCancelsBeforeAnyChallenge() {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.outcome == .cancelled)
        #expect(!driver.app.state.log.contains { $0.step.rawValue == "AReq" })
    }

    /// A payment that a network fault failed says to turn the fault off on its screen, as its result line and its
    /// history do: the screen's next step was "Run 3-D Secure again", into the same fault.
    @Test func aPaymentANetworkFaultFailedSaysSoOnItsScreen() throws {
        let driver = AppDriver()
        driver.press(.character("f"), .character(" "), .escape)  // network unavailable
        driver.press(.down, .down, .down, .enter)  // Pay with card: the Drops page cannot load
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.status == "SAFEPAY_ERROR")
        let text = driver.app.render().text
        let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "│" }).joined(separator: " ")
        #expect(words.contains("next step Bring the network back (the network-unavailable fault)"), "\(text)")
    }

    /// ↑↓ move a single-select's choice with the cursor, so that Enter sends the option shown chosen: after Space
    /// on Amsterdam and ↓↓, Enter sent Lisbon with Amsterdam's (•) still on screen.
    @Test func singleSelectChoosesWithEnter() throws {
        let driver = AppDriver()
        driver.pay(card: "4000009900000012")
        driver.press(.character(" "))
        #expect(driver.app.render().text.contains("(•) Amsterdam"))
        driver.press(.down, .down)
        let text = driver.app.render().text
        #expect(text.contains("( ) Amsterdam") && text.contains("› (•) Lisbon"), "\(text)")
        Snapshot.check(driver.app.render(), "challenge-single-select-80x24")
        // Back from the buttons (↓ Submit, ↓ Cancel, ↓ round to Amsterdam) chooses nothing, and Enter there sends
        // the option shown chosen.
        driver.press(.down, .down, .down)
        let back = driver.app.render().text
        #expect(back.contains("› ( ) Amsterdam") && back.contains("(•) Lisbon"), "\(back)")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.payment?.transStatus == "Y")
    }

    @Test func multiSelectTogglesWithSpace() throws {
        let driver = AppDriver()
        driver.pay(card: "4000009900000020")
        // Test data at hand: the four options fill the panel at 80×24, so the answer is beside them.
        #expect(driver.app.render().text.contains("the simulated issuer takes Bookshop and Bakery"))
        driver.press(.enter)
        #expect(driver.app.render().text.contains("Choose at least one option with space."))
        driver.press(.character(" "), .down, .down, .character(" "))
        let screen = driver.app.render()
        #expect(screen.text.contains("[x] Bookshop"))
        #expect(screen.text.contains("[x] Bakery"))
        Snapshot.check(screen, "challenge-multi-select-80x24")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.payment?.transStatus == "Y")
    }

    @Test func outOfBandApprovesOnTheOtherDeviceThenContinues() throws {
        let driver = AppDriver()
        driver.pay(card: "4000009900000038")
        let first = try #require(driver.challenge)
        driver.press(.enter)  // Continue, where the focus starts, before approving (the help bar: "enter continue")
        driver.nextScreen(after: first)
        #expect(driver.app.render().text.contains("the payment is not approved on the other device yet"))
        // The other device's answer ends it: no attempt is spent, and none is counted.
        #expect(!driver.app.render().text.contains("attempts left"))
        driver.press(.character("a"))
        // The ACS's "not approved yet" is gone once the other device has answered.
        #expect(!driver.app.render().text.contains("not approved on the other device yet"))
        Snapshot.check(driver.app.render(), "challenge-out-of-band-80x24")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.payment?.transStatus == "Y")
    }

    /// At 60×18 an out-of-band screen's four buttons fit inside its border (short titles), its instruction wraps
    /// whole, and a wrong answer's line says the attempts left once.
    @Test func anOutOfBandScreenFitsSixtyColumns() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.pay(card: "4000009900000038")
        let first = try #require(driver.challenge)
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        let buttons = try #require(lines.first { $0.contains("[ Approve ]") }, "\(lines.joined(separator: "\n"))")
        #expect(buttons.contains("[ Cancel ]") && buttons.hasSuffix("│"), "\(buttons)")
        #expect(driver.app.render().text.contains("then continue"))
        _ = first
    }

    /// A wrong choice's line says the attempts left once (it read "2 attempts left   that is not the right
    /// choice; 2 attempts left"); the simulated issuer's answer is shown under the options.
    @Test func aWrongChoiceSaysTheAttemptsLeftOnce() throws {
        let driver = AppDriver()
        driver.pay(card: "4000009900000012")
        let first = try #require(driver.challenge)
        #expect(driver.app.render().text.contains("the simulated issuer takes Lisbon"))
        driver.press(.enter)  // Amsterdam
        driver.nextScreen(after: first)
        let text = driver.app.render().text
        #expect(text.contains("that is not the right choice; 2 attempts left"), "\(text)")
        #expect(text.components(separatedBy: "attempts left").count == 2, "\(text)")
    }

    /// At 60×18 both lines were cut ("…which a terminal cannot", "…challengeCance"): what Continue does was lost.
    @Test func theHtmlNoticeWrapsAtSixtyColumns() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.pay(card: "4000009900000046")
        let text = driver.app.render().text
        let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "│" }).joined(separator: " ")
        #expect(words.contains("This challenge is an HTML page, which a terminal cannot show. Continue tells the ACS so "
                               + "(transStatus U, challengeCancel 06)."), "\(text)")
    }

    @Test func htmlIsShownAsNotSupportedInATerminal() throws {
        let driver = AppDriver()
        driver.pay(card: "4000009900000046")
        let screen = driver.app.render()
        #expect(screen.text.contains("This challenge is an HTML page, which a terminal cannot show."))
        // Continue ends it: there is no answer to get wrong, so no attempts to count (it said "3 attempts left").
        #expect(!screen.text.contains("attempts left"))
        Snapshot.check(screen, "challenge-html-80x24")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.payment?.transStatus == "U")
        #expect(driver.result?.payment?.challengeCancel == "06")
    }

    @Test func aFailureBeforeAnyChallengeShowsTheReasonAndWhatToTry() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002537")
        let screen = driver.app.render()
        #expect(screen.text.contains("AUTHENTICATION_FAILED"))
        #expect(screen.text.contains("next step     Do not authorise; ask for another payment method."))
        #expect(screen.text.contains("onPayerAuthenticationUnavailable"))
        #expect(screen.text.contains("11 suspected fraud"))
        Snapshot.check(screen, "result-payment-unavailable-80x24")
    }

    /// A code pasted with its line break goes into the code field; several lines are not typed (a note's lines were
    /// joined into one code and sent to the ACS), as on a one-field login page.
    @Test func pasteGoesIntoTheCodeField() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002503")
        driver.app.handlePaste("98\n76")
        #expect(driver.challenge?.code.text == "")
        #expect(driver.app.render().text.contains("paste not typed: 2 parts for this page's 1 field"), "\(driver.app.render().text)")
        driver.app.handlePaste("98\u{85}76")
        #expect(driver.challenge?.code.text == "", "a NEL is a line break too")
        driver.app.handlePaste("\t9876\r\n")
        #expect(driver.challenge?.code.text == "9876")
        #expect(!driver.app.render().text.contains("9876"))
        #expect(!driver.app.render().text.contains("paste"), "a separator at either end is dropped, and said nowhere")
    }
}
