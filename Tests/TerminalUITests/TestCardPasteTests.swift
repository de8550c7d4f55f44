import FlowRecords
import PaymentFlows
import TerminalUI
import Testing
import ThreeDSecure

/// A paste while the test cards are open goes into their filter.
@Suite struct TestCardPasteTests {
    /// A paste while the picker is open goes into its filter, not into the card field behind it.
    @Test func aPasteFiltersTheTestCards() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.f4)
        driver.app.handlePaste("jk 2503\u{1b}[31m")
        let picker = try #require(driver.app.state.cardPicker)
        #expect(picker.filter == "jk 2503[31m", "control characters are dropped; j, k and space are typed")
        driver.press(.backspace, .backspace, .backspace, .backspace)
        driver.press(.backspace, .backspace, .backspace, .backspace, .backspace, .backspace, .backspace)
        driver.app.handlePaste("2503")
        #expect(driver.app.render().text.contains("matching “2503”: 1 of"))
        guard case .payment(let form) = driver.screen else { Issue.record("no card form"); return }
        #expect(form.inputs[0].isEmpty, "the card field behind the picker got nothing")
    }

    /// A paste far longer than a filter takes fills it to its limit and says it is full; the rest is not fed key
    /// by key (100 KB kept the screen busy for 90 s, Ctrl-C waiting behind it).
    @Test func aHugePasteFillsAFilterToItsLimit() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.f4)
        driver.app.handlePaste(String(repeating: "A", count: 100_000))
        #expect(driver.app.state.cardPicker?.filter == String(repeating: "A", count: 40))
        #expect(driver.app.render().text.contains("the filter takes at most 40 characters"), "\(driver.app.render().text)")
    }
}
