import Testing
@testable import TerminalUI

/// Every field's note on the card form stays while its problem stays, and where two cannot both be whole the
/// focused field's wins: the currency's "letters only" hid the amount's "digits … only" with the cursor on the
/// amount, and the card's three-row Luhn note hid the expiry's month.
@Suite struct CardFormNotesTests {
    /// The screen's rows.
    private func rows(_ driver: AppDriver) -> [String] { driver.app.render().text.split(separator: "\n").map(String.init) }

    /// The row of the field labelled `label`.
    private func row(_ driver: AppDriver, _ label: String) -> String {
        rows(driver).first { $0.hasPrefix("│ \(label) ") } ?? ""
    }

    /// The rows between the buttons and the panel's bottom border.
    private func underTheButtons(_ driver: AppDriver) -> [String] {
        let all = rows(driver)
        guard let buttons = all.firstIndex(where: { $0.contains("[ Pay ]") }) else { return [] }
        return Array(all[(buttons + 1)...].prefix { $0.hasPrefix("│") })
    }

    /// Amount `4x.5`, currency `E1R`, the focus back on the amount.
    private func strayAmountAndCurrency(width: Int, height: Int) -> AppDriver {
        let driver = AppDriver(width: width, height: height)
        driver.openPayment()
        driver.press(.tab, .tab, .control("u"))
        driver.type("4x.5")
        driver.press(.tab, .control("u"))
        driver.type("E1R")
        return driver
    }

    /// Card `4000000000002504` (fails Luhn), expiry `13/20`, Pay pressed.
    private func luhnAndMonth(width: Int, height: Int) -> AppDriver {
        let driver = AppDriver(width: width, height: height)
        driver.openPayment()
        driver.type("4000000000002504")
        driver.press(.tab)
        driver.type("1320")
        driver.press(.tab, .tab, .tab, .tab, .enter)  // Pay
        return driver
    }

    @Test func theAmountsNoteStaysBesideTheCurrencysAt80x24() {
        let driver = strayAmountAndCurrency(width: 80, height: 24)
        // On the currency: both said, the amount's on its one row.
        #expect(row(driver, "Amount").hasSuffix("[4x.5      ]               digits and a decimal point only. │"), "\(rows(driver))")
        #expect(row(driver, "Currency").hasSuffix("›[E1R       ]               letters only, e.g. EUR.          │"), "\(rows(driver))")
        driver.press(.backTab)
        // Back on the amount: its note is there, and the currency's too (it was gone).
        #expect(row(driver, "Amount").contains("›[4x.5      ]               digits and a decimal point only."), "\(rows(driver))")
        #expect(row(driver, "Currency").contains("[E1R       ]               letters only, e.g. EUR."), "\(rows(driver))")
        // The currency fixed: the amount's note has the room for its example again.
        driver.press(.tab, .control("u"))
        driver.type("EUR")
        driver.press(.backTab)
        #expect(row(driver, "Amount").contains("digits and a decimal point only,"), "\(rows(driver))")
        #expect(row(driver, "Currency").contains("e.g. 49.99."), "\(rows(driver))")
    }

    @Test func theAmountsNoteStaysWithTheCurrencysAt60x18() {
        let driver = strayAmountAndCurrency(width: 60, height: 18)
        // Under the buttons, the focused field's first.
        #expect(underTheButtons(driver) == ["│ Currency: letters only, e.g. EUR.                        │",
                                            "│ Amount: digits and a decimal point only, e.g. 49.99.     │"], "\(rows(driver))")
        driver.press(.backTab)
        #expect(underTheButtons(driver) == ["│ Amount: digits and a decimal point only, e.g. 49.99.     │",
                                            "│ Currency: letters only, e.g. EUR.                        │"], "\(rows(driver))")
    }

    @Test func theLuhnNoteLeavesTheExpirysRowAt80x24() {
        let driver = luhnAndMonth(width: 80, height: 24)
        #expect(row(driver, "Card number").contains("›[4000 0000 0000 2504     ] fails the Luhn check.  "), "\(rows(driver))")
        #expect(row(driver, "Expiry (MM/YY)").contains("[13/20     ]               the month must be 01 to 12."), "\(rows(driver))")
        #expect(!rows(driver).joined().contains("digit."), "\(rows(driver))")
        // The month fixed and Pay again: the Luhn note whole, on two rows.
        driver.press(.tab, .control("u"))
        driver.type("1230")
        driver.press(.tab, .tab, .tab, .tab, .enter)
        #expect(row(driver, "Card number").contains("›[4000 0000 0000 2504     ] fails the Luhn check; check for"), "\(rows(driver))")
        #expect(row(driver, "Expiry (MM/YY)").contains("[12/30     ]               a mistyped digit."), "\(rows(driver))")
    }

    @Test func theLuhnNoteLeavesTheExpirysRowAt60x18() {
        let driver = luhnAndMonth(width: 60, height: 18)
        #expect(underTheButtons(driver) == ["│ Card number: fails the Luhn check.                       │",
                                            "│ Expiry (MM/YY): the month must be 01 to 12.              │"], "\(rows(driver))")
        #expect(row(driver, "Card number").hasSuffix("] Visa ✗ Luhn  │"), "\(rows(driver))")
    }

    /// Any two adjacent fields with notes (and three at once), at either size and wherever the focus is: the
    /// focused field's note shows, and every other noted field's note shows or is named.
    @Test(arguments: [(80, 24), (60, 18)]) func everyNoteIsSaidOrNamedWhereverTheFocusIs(size: (Int, Int)) {
        let driver = AppDriver(width: size.0, height: size.1)
        driver.openPayment()
        driver.press(.tab)
        driver.type("1x")  // Expiry: digits only
        driver.press(.tab, .control("u"))
        driver.type("4x")  // Amount
        driver.press(.tab, .control("u"))
        driver.type("E1")  // Currency
        let notes = [("Expiry (MM/YY)", "digits only"), ("Amount", "digits and a decimal point only"), ("Currency", "letters only")]
        for focus in 1...3 {
            while case .payment(let form) = driver.screen, form.focus != focus { driver.press(.tab) }
            let text = rows(driver).joined(separator: "\n")
            let focused = notes[focus - 1]
            if size.0 == 80 {
                #expect(row(driver, focused.0).contains(focused.1), "\(focus): \(text)")
                for note in notes { #expect(row(driver, note.0).contains(note.1), "\(focus) \(note.0): \(text)") }
            } else {
                let under = underTheButtons(driver)
                #expect(under.first?.hasPrefix("│ \(focused.0): \(focused.1)") == true, "\(focus): \(text)")
                for note in notes where note.0 != focused.0 {
                    #expect(under.contains { $0.contains("\(note.0): \(note.1)") || ($0.contains("Also a note on") && $0.contains(note.0)) },
                            "\(focus) \(note.0): \(text)")
                }
            }
        }
    }

    /// A focused note that only "…" would put on one row keeps its two rows; the note it covers comes back when
    /// the focus leaves, then on one row itself.
    @Test func aFocusedNoteWithNoShorterWordingKeepsItsRows() {
        let long = CardFormNote(field: 0, text: "an unbroken sentence that needs two rows here.", role: .error)
        let next = CardFormNote(field: 1, text: "short.", role: .error)
        let focused = AppView.besideLayout([long, next], focus: 0, rows: 3, width: 24, atMost: { _ in 2 })
        #expect(focused.map(\.row) == [0] && focused[0].lines.count == 2)
        let away = AppView.besideLayout([long, next], focus: 1, rows: 3, width: 24, atMost: { _ in 2 })
        #expect(away.map(\.row) == [0, 1])
        #expect(away[0].lines == ["an unbroken sentence th…"] && away[1].lines == ["short."])
    }

    @Test func shorterWordingsLeaveOutTheExampleThenWhatFollowsASemicolon() {
        #expect(CardFormNote.shorterWordings("digits and a decimal point only, e.g. 49.99.")
            == ["digits and a decimal point only, e.g. 49.99.", "digits and a decimal point only."])
        #expect(CardFormNote.oneLine("fails the Luhn check; check for a mistyped digit.", width: 32)
            == ("fails the Luhn check.", false))
    }
}
