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
