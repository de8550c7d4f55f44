import PaymentFlows
import Scenario
import Testing
@testable import TerminalUI

/// A refused Pay marks every wrong field at once, the focus on the first, each note kept until its field changes;
/// a tester met them one Pay at a time (the expiry's, the currency's and the merchant's came on later Pays).
@Suite struct CardFormRefusalTests {
    private func row(_ driver: AppDriver, _ label: String) -> String {
        driver.app.render().text.split(separator: "\n").map(String.init).first { $0.hasPrefix("│ \(label) ") } ?? ""
    }

    /// Card `1234`, expiry `1`, amount `x`, currency `e`, no merchant; Pay pressed.
    private func everyFieldWrong(width: Int = 120, height: Int = 30) -> AppDriver {
        let driver = AppDriver(width: width, height: height)
        driver.openPayment()
        driver.type("1234")
        driver.press(.tab, .control("u"))
        driver.type("1")
        driver.press(.tab, .control("u"))
        driver.type("x")
        driver.press(.tab, .control("u"))
        driver.type("e")
        driver.press(.tab, .control("u"), .tab, .enter)  // Pay
        return driver
    }

    @Test func aRefusedPayMarksEveryWrongFieldAndFocusesTheFirst() throws {
        let driver = everyFieldWrong()
        guard case .payment(let form) = driver.screen else { Issue.record("no card form"); return }
        #expect(form.focus == 0, "the card, the first wrong field")
        #expect(Set(form.refused.keys) == Set(PaymentField.allCases), "\(form.refused)")
        #expect(row(driver, "Card number").contains("is not a Visa"), "\(row(driver, "Card number"))")
        #expect(row(driver, "Expiry (MM/YY)").contains("write it as MM/YY"), "\(row(driver, "Expiry (MM/YY)"))")
        #expect(row(driver, "Currency").contains("give a three-letter ISO 4217 code"), "\(row(driver, "Currency"))")
        #expect(row(driver, "Merchant").contains("give the merchant's name"), "\(row(driver, "Merchant"))")
        // Moving through the fields keeps them; fixing one takes its note away, and only its.
        driver.press(.tab, .control("u"))
        driver.type("1230")
        #expect(!row(driver, "Expiry (MM/YY)").contains("write it as"), "\(row(driver, "Expiry (MM/YY)"))")
        #expect(row(driver, "Merchant").contains("give the merchant's name"), "\(row(driver, "Merchant"))")
        #expect(row(driver, "Card number").contains("is not a Visa"), "\(row(driver, "Card number"))")
    }

    /// A test card picked with F4 goes to Pay only when nothing else is wrong: else to the first wrong field (the
    /// tester's next keys, meant for the amount, went into the card from Pay).
    @Test func aPickedCardGoesToTheFirstFieldStillWrong() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.tab, .tab, .control("u"))
        driver.type("x")
        driver.press(.f4)
        driver.press(.enter)
        guard case .payment(let form) = driver.screen else { Issue.record("no card form"); return }
        #expect(form.focus == PaymentFormState.fields.firstIndex(of: .amount), "focus \(form.focus)")
        driver.press(.control("u"))
        driver.type("12.50")
        driver.press(.f4)
        driver.press(.enter)
        guard case .payment(let fixed) = driver.screen else { Issue.record("no card form"); return }
        #expect(fixed.focus == fixed.submitIndex)
    }

    /// A scenario's 19-digit cards show whole in the picker: its column was 19 wide, and two of them read the same
    /// (`4000 0000 0000 0000`); one picked pays.
    @Test func nineteenDigitCardsShowWholeInThePicker() throws {
        let text = #"{"scenario": 1, "identityProvider": {"tenants": [{"id": "demo", "users": [{"username": "alice", "password": "pw"}]}]}, "payments": {"cards": [{"number": "4000000000000000006", "title": "six", "frictionless": "Y"}, {"number": "4000000000000000014", "title": "fourteen", "frictionless": "Y"}]}}"#
        let driver = AppDriver(width: 100, scenario: try ScenarioFile.read(Array(text.utf8)).get())
        driver.openPayment()
        driver.press(.f4)
        let picker = driver.app.render().text
        #expect(picker.contains("4000 0000 0000 0000 006") && picker.contains("4000 0000 0000 0000 014"), "\(picker)")
        driver.press(.down, .enter)  // the second card, then Pay, which has the focus
        driver.press(.enter)
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.status == "FRICTIONLESS", "\(String(describing: driver.result))")
        #expect(driver.result?.payment?.card == "•••• 0014", "\(String(describing: driver.result?.payment))")
    }

    /// A minus in the amount is said as Pay says it, not as a stray character.
    @Test func aNegativeAmountIsSaidAsPaySaysIt() {
        #expect(PaymentForm.strayCharacterProblem(.amount, "-5") == "must be above zero")
        #expect(PaymentForm.problems(card: "4000000000002701", expiry: "12/30", amount: "-5", currency: "EUR", merchant: "Shop")
            .map(\.message) == ["the amount must be above zero"])
    }
}
