import FlowRecords
import PaymentFlows
import Scenario
import TerminalUI
import Testing
import ThreeDSecure

@Suite struct CardFormTypingTests {
    /// A card number pasted with dashes is grouped as one typed is (the dashes stayed).
    @Test func aCardNumberPastedWithDashesIsGrouped() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.app.handlePaste("4000-0000-0000-2503")
        #expect(driver.app.render().text.contains("[4000 0000 0000 2503     ] Visa · Luhn ✓"), "\(driver.app.render().text)")
    }

    /// A card number and expiry pasted as one (a tab or a line break between) fill the two fields, formatted.
    @Test func aCardAndExpiryPastedTogetherFillBothFields() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.control("u"))
        driver.app.handlePaste("4000000000002503\t1230")
        guard case .payment(let form) = driver.screen else { Issue.record("not the card form"); return }
        #expect(form.inputs[0].text == "4000 0000 0000 2503" && form.inputs[1].text == "12/30", "\(form.inputs.map(\.text))")
        // The card, no longer focused, shows its last four.
        #expect(driver.app.render().text.contains("[•••• 2503"))
        #expect(form.focus == 1)
        // A note's third line (the card's security code) is typed nowhere: the amount stays the merchant's.
        driver.press(.backTab, .control("u"))
        driver.app.handlePaste("4000000000002503\n12/30\n123")
        guard case .payment(let noted) = driver.screen else { return }
        #expect(noted.inputs[1].text == "12/30" && noted.inputs[2].text == "49.99", "\(noted.inputs.map(\.text))")
        #expect(driver.app.state.notice == "paste: 1 more part left out (no field for it)")
        // CR LF as a terminal's paste may send it (CR CR): no empty part between the two values.
        driver.press(.backTab, .control("u"))
        driver.app.handlePaste("4000000000002701\r\r12/29")
        guard case .payment(let doubled) = driver.screen else { return }
        #expect(doubled.inputs[0].text == "4000 0000 0000 2701" && doubled.inputs[1].text == "12/29", "\(doubled.inputs.map(\.text))")
        // On the amount, two parts are not run together ("12.50USD").
        driver.press(.tab, .control("u"))
        driver.app.handlePaste("12.50\tUSD")
        guard case .payment(let amount) = driver.screen else { return }
        #expect(amount.focus == 2 && amount.inputs[2].text.isEmpty, "\(amount.inputs.map(\.text))")
        #expect(driver.app.state.notice == "paste not typed: 2 parts, 1 field")
    }

    @Test func theCardNumberIsGroupedAndTheExpiryFormattedAsTyped() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.type("4000000000002503")
        #expect(driver.app.render().text.contains("4000 0000 0000 2503"))
        driver.press(.tab)
        driver.type("1230")
        #expect(driver.app.render().text.contains("12/30"))
        driver.press(.backTab, .left, .left, .left, .left, .left, .backspace)
        // The cursor stays among the same digits: the group's last digit before "2503" went.
        #expect(driver.app.render().text.contains("4000 0000 0002 503"))
    }

    /// The expiry as card forms write it while it is typed: a first digit from 2 to 9 is a month's second (9 becomes
    /// 09, and the year follows it: 0930 is 09/30; it stayed 9, and 930 was 93/0), and a month past 12 is said
    /// beside it at once (13 was taken until Pay).
    @Test func theExpiryIsWrittenAsTypedAndABadMonthSaidAtOnce() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.type("4000000000002503")
        driver.press(.tab, .control("u"))
        func row() -> String {
            driver.app.render().text.split(separator: "\n").first { $0.contains("Expiry") }.map(String.init) ?? ""
        }
        driver.type("9")
        #expect(row().contains("09"), "\(row())")
        driver.type("30")
        #expect(row().contains("09/30"), "\(row())")
        driver.press(.control("u"))
        driver.type("1")
        #expect(row().contains("1") && !row().contains("01"), "a 1 may begin 10 to 12: \(row())")
        driver.type("3")
        #expect(row().contains("the month must be 01 to 12"), "\(row())")
        driver.press(.backspace)
        driver.type("2")
        #expect(!row().contains("the month must be"), "\(row())")
        // Pay on a month past 12 says the month, as the form did while it was typed (it said "write it as MM/YY").
        driver.press(.backspace)
        driver.type("3")
        driver.press(.tab, .tab, .tab, .tab, .character(" "))  // Pay
        let screen = driver.app.render().text
        #expect(screen.contains("the month must be 01 to 12") && !screen.contains("write it as MM/YY"), "\(screen)")
    }

    /// A letter in the expiry is said beside it as it is typed (it was taken silently and refused only at Pay),
    /// and the complaint goes once the letter does; a pasted one too, and a digit in the currency.
    @Test func aLetterInTheExpiryIsSaidAsItIsTyped() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.type("4000000000002503")
        driver.press(.tab)
        driver.type("12a")
        func row(_ label: String) -> String {
            driver.app.render().text.split(separator: "\n").first { $0.contains(label) }.map(String.init) ?? ""
        }
        #expect(row("Expiry").contains("digits only, e.g. 12/30"), "\(row("Expiry"))")
        driver.press(.tab)  // the complaint stays while the letter does
        #expect(row("Expiry").contains("digits only"), "\(row("Expiry"))")
        driver.press(.backTab, .backspace)
        #expect(!driver.app.render().text.contains("digits only"))
        driver.type("30")
        #expect(row("Expiry").contains("12/30"))
        driver.press(.tab, .tab, .control("u"))  // the currency, emptied
        driver.app.handlePaste("1")
        #expect(row("Currency").contains("letters only, e.g. EUR") || driver.app.render().text.contains("Currency: letters only"),
                "\(driver.app.render().text)")
        // A test card picked fills the card and the expiry; the digit in the currency is still said.
        driver.press(.f4, .enter)
        #expect(driver.app.state.cardPicker == nil)
        #expect(row("Currency").contains("letters only"), "\(driver.app.render().text)")
    }

    @Test func anAmexNumberIsGroupedFourSixFive() {
        let driver = AppDriver()
        driver.openPayment()
        driver.type("340000000002708")
        #expect(driver.app.render().text.contains("3400 000000 02708"))
    }

    @Test func anErrorStaysBesideItsFieldWhenTheFocusMovesOn() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.type("4000000000002503")
        driver.press(.tab)
        driver.type("1230")
        driver.press(.tab)
        for _ in 0..<16 { driver.press(.backspace) }  // the amount emptied
        driver.press(.tab, .tab, .tab, .character(" "))  // Pay
        func lines() -> [Substring] { driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false) }
        let amountRow = try #require(lines().firstIndex { $0.contains("Amount") })
        #expect(lines()[amountRow].contains("Amount:") == false && lines()[amountRow].contains("write it"), "\(lines()[amountRow])")
        driver.press(.tab)  // on to Currency
        let after = lines()
        #expect(after[amountRow].contains("write it"), "still beside Amount: \(after[amountRow])")
        #expect(!after[amountRow + 1].contains("write it") || !after[amountRow + 1].contains("Currency"))
        let merchant = try #require(after.first { $0.contains("Merchant") })
        #expect(merchant.contains("[Demo Shop"), "the Merchant box is whole: \(merchant)")
    }

    @Test func at60ColumnsTheCardFormsErrorAndHintsAreWhole() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.openPayment()
        driver.type("4000000000002503")
        var text = driver.app.render().text
        #expect(text.contains("Visa ✓"), "the marker whole, in its short form: \(text)")
        driver.press(.tab)
        driver.type("1230")
        driver.press(.tab)
        for _ in 0..<16 { driver.press(.backspace) }
        driver.press(.tab, .tab, .tab, .character(" "))
        text = driver.app.render().text
        // Under the buttons at the panel's width, ended with … where it is cut.
        #expect(text.contains("Amount: write it as a number with at most two decimals,"), "\(text)")
    }

    @Test func at60ColumnsTheChallengeSaysTheCodeAndTheError() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.pay(card: "4000000000002503")
        var text = driver.app.render().text
        #expect(text.contains("the simulated issuer's code") && text.contains("is 1234"), "\(text)")
        driver.type("9876")
        driver.press(.enter)
        driver.pump { _ in driver.challenge?.screen.message != nil }
        text = driver.app.render().text
        #expect(text.contains("wrong code; 2 attempts left"), "\(text)")
        // The result's rows do not all fit at 60×18: Back says how many are below, and ↓ shows them.
        driver.type("1234")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        text = driver.app.render().text
        #expect(text.contains("more line"), "\(text)")
        #expect(!text.contains("•••• 2503 · Visa"))
        // Down to the last rows, the ids an authorisation carries and the card: Back then says how many are above.
        for _ in 0..<10 { driver.press(.down) }
        text = driver.app.render().text
        #expect(text.contains("•••• 2503 · Visa") && text.contains("above (↑↓)"), "\(text)")
    }

    @Test func spacePressesTheFocusedButton() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.tab, .tab, .tab, .tab, .tab, .tab)  // past the five fields and Pay, onto Cancel
        driver.press(.character(" "))
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.outcome == .cancelled)
    }
}

/// A scenario's challenge whose prompt or options are longer than the screen ends them in "…": they were cut with
/// nothing to say so (a scenario author's pass).
@Suite struct LongChallengeTextTests {
    @Test func aLongPromptAndOptionEndInAnEllipsis() throws {
        // The longest the check takes: 200 characters of prompt, 60 of an option.
        let prompt = String(String(repeating: "Which of these did you buy last week? ", count: 6).prefix(200))
        let long = String(String(repeating: "a very long option ", count: 4).prefix(60))
        let text = """
            {"scenario": 1, "identityProvider": {"tenants": [{"id": "demo", "users": [{"username": "alice", "password": "pw"}]}]},
             "payments": {"cards": [{"number": "4111111111111111", "title": "long", "challenge": "single-select", "final": "Y",
               "prompt": "\(prompt)", "options": ["\(long)", "short"], "correct": [2]}]}}
            """
        let scenario = try ScenarioFile.read(Array(text.utf8)).get()
        let driver = AppDriver(width: 60, scenario: scenario)
        driver.pay(card: "4111111111111111")
        #expect(driver.pump { _ in driver.challenge != nil })
        let screen = driver.app.render().text
        let lines = screen.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("Which of these") && $0.contains("…") } || lines.filter { $0.contains("did you buy") }.last?.contains("…") == true,
                "\(screen)")
        #expect(lines.contains { $0.contains("a very long option") && $0.contains("…") }, "\(screen)")
    }
}

/// A character typed while a form's button has the focus is said under the buttons, not dropped unseen; the next
/// key takes the note away.
@Suite struct TypedOnAButtonTests {
    @Test func aCredentialFormSaysSoAndTypesNothing() {
        let driver = AppDriver()
        driver.openActivation()
        driver.fill()
        driver.press(.tab)  // Submit
        driver.type("pw")
        var text = driver.app.render().text
        #expect(text.contains("Not typed on a button: Shift-Tab goes to the fields."), "\(text)")
        #expect(!text.contains("pw"), "nothing typed")
        #expect(driver.isForm && driver.formPage == 1, "nothing submitted")
        driver.press(.backTab)
        text = driver.app.render().text
        #expect(!text.contains("Not typed"), "the next key takes the note away: \(text)")
    }

    /// At 60×18 a KSSIDP form has one row under its buttons, which start 20 columns in: the note starts at the
    /// panel's edge, whole (it was cut before "Shift-Tab").
    @Test func theNoteIsWholeOnAKSSIDPFormAt60x18() {
        let driver = AppDriver(width: 60, height: 18)
        driver.press(.character("6"), .enter)
        #expect(driver.pump { _ in driver.isForm })
        for _ in 0..<3 { driver.press(.tab) }
        driver.type("q")
        let text = driver.app.render().text
        #expect(text.contains("Not typed on a button: Shift-Tab goes to the fields."), "\(text)")
    }

    @Test func theCardFormSaysSoToo() {
        let driver = AppDriver()
        driver.openPayment()
        for _ in 0..<6 { driver.press(.tab) }
        driver.type("x")
        let text = driver.app.render().text
        #expect(text.contains("Not typed on a button"), "\(text)")
    }

    /// A paste on a button is said there too (it was on the status line, away from the form), never echoed; on the
    /// card form, under the buttons even after a field's validation error (the note went beside that field).
    @Test func aPasteOnAButtonIsSaidUnderTheButtons() throws {
        let driver = AppDriver()
        driver.openActivation()
        driver.fill()
        driver.press(.tab)
        driver.app.handlePaste("Zq7pasted")
        var text = driver.app.render().text
        #expect(text.contains("Not pasted on a button: Shift-Tab goes to the fields."), "\(text)")
        #expect(!text.contains("Zq7") && !text.contains("paste ignored"), "\(text)")
        #expect(driver.isForm && driver.formPage == 1, "nothing submitted")
        driver.press(.backTab)
        #expect(!driver.app.render().text.contains("Not pasted"), "the next key takes the note away")

        let card = AppDriver()
        card.openPayment()
        card.type("4111")
        card.press(.enter, .enter, .enter, .enter, .enter)  // to Pay, then pressed: the number is too short
        guard case .payment(let refused) = card.screen, let field = refused.refused.keys.first else {
            Issue.record("no validation error: \(card.app.render().text)")
            return
        }
        while case .payment(let form) = card.screen, form.focus < 6 { card.press(.tab) }  // six fields, then Pay
        card.app.handlePaste("Yx4")
        guard case .payment(let form) = card.screen else { Issue.record("no card form"); return }
        #expect(form.error == "Not pasted on a button: Shift-Tab goes to the fields." && form.errorField == nil,
                "beside \(field) before; now \(String(describing: form.errorField))")
        text = card.app.render().text
        let line = try #require(text.split(separator: "\n").first { $0.contains("Not pasted on a button") })
        #expect(!line.contains("Card number") && !text.contains("Yx4"), "\(text)")
    }
}
