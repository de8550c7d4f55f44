import FlowRecords
import FlowCatalog
import TerminalUI
import Testing

/// Plain mode's answers refused before they reach a simulator (a QA tester's report).
@Suite struct PlainAnswerTests {
    func plainPayment() -> AppDriver {
        let driver = AppDriver()
        driver.app.plain = true
        driver.openPayment()
        #expect(driver.pump { _ in if case .payment = driver.screen { return true } else { return false } })
        return driver
    }

    /// A refused amount keeps the merchant's default offered: "Amount [49.99]:" came back as "Amount:", and Enter
    /// alone was then refused too.
    @Test func aRefusedAmountOffersTheDefaultAgain() throws {
        let driver = plainPayment()
        driver.app.answerPlain("4000 0000 0000 1000")
        driver.app.answerPlain("12/30")
        let asked = try #require(driver.app.plainQuestion?.text)
        #expect(asked.hasPrefix("Amount ["), "\(asked)")
        #expect(driver.app.answerPlain("12/30"), "refused, asked again")
        #expect(driver.app.plainQuestion?.text == asked)
        // Enter takes the default, and the form goes on to the currency.
        driver.app.answerPlain("")
        #expect(driver.app.plainQuestion?.text.hasPrefix("Currency") == true, "\(driver.app.plainQuestion?.text ?? "")")
    }

    /// Each field is checked as it is answered (at a terminal: piped, the first refusal ends the session), and a
    /// refused value is not offered back as a default: the field offers what it started with.
    @Test func eachPaymentFieldIsCheckedAsItIsAnswered() throws {
        let driver = plainPayment()
        #expect(driver.app.answerPlain(""), "refused")
        #expect(driver.app.plainError == "Card number: type the card number.")
        driver.app.answerPlain("4000000000002701")
        #expect(!driver.app.answerPlain("1230"), "formatted as 12/30")
        let amount = try #require(driver.app.plainQuestion?.text)
        #expect(amount == "Amount [49.99]: ")
        for refused in ["abc", "abc", String(repeating: "9", count: 20)] {
            #expect(driver.app.answerPlain(refused), "\(refused) refused")
            #expect(driver.app.plainQuestion?.text == amount, "the merchant's amount offered again, not \(refused)")
        }
        #expect(driver.app.plainError == "Amount: too long (at most 13 characters).")
        driver.app.answerPlain("12.50")
        #expect(driver.app.answerPlain("EURO"))
        #expect(driver.app.plainError == "Currency: too long (at most 3 characters).")
        driver.app.answerPlain("EUR")
        // The merchant's limit is its 40 characters (it said 160, its room in bytes).
        #expect(driver.app.answerPlain(String(repeating: "m", count: 41)))
        #expect(driver.app.plainError == "Merchant: too long (at most 40 characters).")
        driver.app.answerPlain("")
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.outcome == .success, "\(String(describing: driver.result))")
    }

    /// An empty user name is refused before the password is asked; at Log in, a name refused as too long leaves the
    /// device's user name offered, and Enter alone keeps it.
    @Test func aRefusedUserNameIsAskedAgainWithWhatItHeld() throws {
        let driver = AppDriver()
        driver.app.plain = true
        driver.openActivation()
        #expect(driver.app.answerPlain(""))
        #expect(driver.app.plainError == "Fill in Username.")
        #expect(driver.app.plainQuestion?.text.hasPrefix("Username") == true, "\(driver.app.plainQuestion?.text ?? "")")
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        driver.press(.enter)
        driver.activate()
        driver.press(.enter)
        driver.app.answerPlain("2")
        #expect(driver.pump { _ in driver.isForm })
        #expect(driver.app.answerPlain(String(repeating: "x", count: 300)))
        #expect(driver.app.plainError == "Username: at most 256 bytes, and no control characters.")
        #expect(driver.app.plainQuestion?.text == "Username (? lists demo users) [alice]: ", "\(driver.app.plainQuestion?.text ?? "")")
        #expect(!driver.app.answerPlain(""))
        #expect(driver.app.plainQuestion?.text.hasPrefix("Password") == true, "\(driver.app.plainQuestion?.text ?? "")")
    }

    /// A one-time code longer than the field is refused, not sent cut (it cost an attempt); a trailing space, as a
    /// pasted line has, is not part of the code.
    @Test func aOneTimeCodeTooLongIsRefusedAndSpacesAreTrimmed() throws {
        let driver = AppDriver()
        driver.app.plain = true
        driver.pay(card: "4000000000002503")
        let challenge = try #require(driver.challenge)
        let attempts = challenge.screen.attemptsLeft
        #expect(driver.app.answerPlain("12345678901234567"), "refused, asked again")
        #expect(driver.challenge?.error?.contains("at most 16 characters") == true, "\(driver.challenge?.error ?? "")")
        #expect(driver.challenge?.screen.attemptsLeft == attempts, "no CReq was sent")
        driver.app.answerPlain("1234 ")
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.outcome == .success, "\(String(describing: driver.result))")
    }
}

/// Plain mode's history question: its echo and its answer agree on what an ID is.
@Suite struct PlainHistoryAnswerTests {
    /// A flow another process records after the list was printed is refused as its echo shows it, `(not an answer
    /// here)`, until `h` lists again (its transcript was printed under that echo); `+1` is no ID (it was shown as 1,
    /// then refused).
    @Test func theEchoAndTheAnswerAgree() throws {
        let driver = AppDriver()
        driver.app.plain = true
        driver.activate()
        driver.press(.enter)
        driver.app.answerPlain("h")
        let listed = try #require(driver.app.plainQuestion)
        #expect(listed.shown("1") == "1" && listed.shown("+1") == "(not an answer here)" && listed.shown("2") == "(not an answer here)")
        driver.app.answerPlain("+1")
        #expect(driver.app.state.notice == "type a flow's ID, h to list them, or Enter to go back")
        // Another process's flow, recorded after the list.
        let history = try #require(driver.service.history)
        let other = try history.record(HistoryRecord(
            summary: HistorySummary(id: 0, time: "2026-12-03T12:00:00.000Z", flow: "logout", user: nil, outcome: .success, status: "OK", duration: 5),
            resultJSON: "{}", events: []))
        #expect(other == 2)
        driver.app.clearNotice()
        driver.app.answerPlain("2")
        #expect(driver.app.state.notice == "no flow with that ID in the history; h lists them")
        driver.app.answerPlain("h")
        #expect(driver.app.plainQuestion?.shown("2") == "2")
        driver.app.clearPlainListing()
        driver.app.answerPlain("2")
        #expect(driver.app.state.plainListing.first?.hasPrefix("flow 2: logout") == true, "\(driver.app.state.plainListing)")
    }
}

/// Plain mode names the flow of an event that came after its result (KSSIDP's, going on after a cancel): printed
/// among the next flow's lines, it read as that flow's.
@Suite struct LateEventPlainLineTests {
    @Test func anEventAfterItsFlowsResultNamesItsFlow() throws {
        let driver = AppDriver(width: 120, height: 40, latency: .seconds(5))
        driver.cancelKSSIDPActivationInFlight()
        #expect(driver.pump { app in
            if driver.clock.pendingTimerCount > 0 { driver.clock.advance(by: .seconds(5)) }
            return app.state.log.contains { $0.from == .kssidp && $0.to == .app }
        })
        let log = driver.app.state.log
        let cancel = try #require(log.firstIndex { $0.step == .cancel })
        #expect(!driver.app.plainLine(log[cancel]).contains("ended)"), "the cancel is the flow's own: \(driver.app.plainLine(log[cancel]))")
        let answer = try #require(log.last)
        #expect(driver.app.plainLine(answer).hasPrefix("  (flow 1, ended) ← KSSIDP"), "\(driver.app.plainLine(answer))")
        #expect(log[(cancel + 1)...].allSatisfy { driver.app.plainLine($0).hasPrefix("  (flow 1, ended) ") })
    }
}
