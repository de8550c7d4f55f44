import FlowRecords
import PaymentFlows
import TerminalUI
import Testing
import ThreeDSecure

/// The last payment's card, which the next card form of the session starts with.
@Suite struct LastCardTests {
    /// A tester retrying a challenge card: the next card form of the session starts with the last card and expiry
    /// (the amount and currency are the merchant's again), masked, says so, and Ctrl-U clears the card.
    @Test func theCardFormStartsWithTheLastCardUsed() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.escape)  // cancelled at the form: no card was used
        driver.pump { _ in driver.isResult }
        driver.press(.escape)
        driver.openPaymentAgain()
        #expect(driver.app.render().text.contains("The Drops page asks for the card"))
        driver.type("4000000000002503")
        driver.press(.tab)
        driver.type("11/2031")
        driver.press(.tab, .control("u"))
        driver.type("5.00")
        driver.press(.enter, .enter, .enter)
        driver.pump { _ in driver.challenge != nil }
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        driver.press(.escape)
        driver.openPaymentAgain()
        let text = driver.app.render().text
        #expect(text.contains("The last card used is filled in: typing replaces it; F4 picks a test card."), "\(text)")
        #expect(text.contains("[•••• 2503") && text.contains("] Visa · Luhn ✓") && !text.contains("0000 2503"), "\(text)")
        #expect(text.contains("[11/2031   ]"), "\(text)")
        #expect(text.contains("[49.99     ]"), "the amount is the merchant's again: \(text)")
        // Cleared and typed again by hand, the number is the user's own: the hint no longer says it was filled in.
        driver.press(.control("u"))
        driver.type("4000000000002503")
        let retyped = driver.app.render().text
        #expect(!retyped.contains("The last card used is filled in"), "\(retyped)")
        #expect(retyped.contains("The Drops page asks for the card"), "\(retyped)")
        // Enter through the fields pays with it again.
        driver.press(.enter, .enter, .enter, .enter, .enter)
        driver.pump { _ in driver.challenge != nil || driver.isResult }
        let challenge = try #require(driver.challenge)
        #expect(challenge.screen.maskedCard.hasSuffix("2503") && challenge.screen.amount.contains("49.99"), "\(challenge.screen)")
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        driver.press(.escape)
        // Kept in memory as a card number, which prints as its brand and last four digits.
        let reflected = String(reflecting: driver.app.state)
        #expect(reflected.contains("2503") && !reflected.contains("0000 2503") && !reflected.contains("0002503"), "the whole number")
        // Ctrl-U clears it (the cursor is at its end), and the hint is the form's own again.
        driver.openPaymentAgain()
        driver.press(.control("u"))
        let cleared = driver.app.render().text
        #expect(cleared.contains("[                        ] Visa, Mastercard"), "\(cleared)")
        #expect(cleared.contains("The Drops page asks for the card; F4 picks a test card."), "\(cleared)")
    }

    /// The last payment's card starts the next form masked, focused or not, as plain mode shows it: it is one value,
    /// which the first key typed replaces and Backspace clears (typing went on after its digits, whole on the
    /// screen: "4000 0000 0000 2503 400", too long). A number typed by hand shows whole while its field is focused.
    @Test func theLastCardIsMaskedAndTheFirstKeyReplacesIt() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.escape)
        driver.openPaymentAgain()
        let filled = driver.app.render().text
        #expect(filled.contains("[•••• 2701") && !filled.contains("0000 2701"), "\(filled)")
        driver.press(.tab)
        let text = driver.app.render().text
        #expect(text.contains("[•••• 2701") && !text.contains("0000 2701"), "\(text)")
        driver.press(.backTab)
        driver.type("4000000000002503")
        let typed = driver.app.render().text
        #expect(typed.contains("[4000 0000 0000 2503 ") && !typed.contains("2701"), "the new number alone: \(typed)")
        #expect(!typed.contains("too long"), "\(typed)")
        // Backspace on the filled-in card clears it whole.
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        driver.press(.escape)
        driver.openPaymentAgain()
        driver.press(.backspace)
        let cleared = driver.app.render().text
        #expect(cleared.contains("[                        ] Visa, Mastercard"), "\(cleared)")
        // Every key that edits it clears it whole: Ctrl-W left "4000 0000 0000", whole on the screen.
        driver.type("4000000000002503")
        driver.press(.tab, .tab, .tab, .tab, .tab, .enter)
        driver.pump { _ in driver.challenge != nil }
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        driver.press(.escape)
        driver.openPaymentAgain()
        driver.press(.control("w"))
        let wordGone = driver.app.render().text
        #expect(wordGone.contains("[                        ] Visa, Mastercard") && !wordGone.contains("4000 0000"), "\(wordGone)")
    }

    /// The last card's expiry is filled in with it, and is one value too: typing replaces it ("1230" typed into the
    /// filled-in 12/30 read "12/3012" and "This field is full"); one typed by hand is edited as typed.
    @Test func theLastCardsExpiryIsReplacedByTyping() throws {
        let driver = AppDriver()
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.escape)
        driver.openPaymentAgain()
        driver.press(.tab)
        driver.type("0131")
        let typed = driver.app.render().text
        #expect(typed.contains("[01/31 ") && !typed.contains("This field is full"), "\(typed)")
        driver.press(.backspace)
        let edited = driver.app.render().text
        #expect(edited.contains("[01/3 "), "typed by hand, Backspace takes one digit: \(edited)")
    }

    @Test func at60ColumnsTheLastCardsHintIsWhole() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.pay(card: "4000000000002701")
        driver.pump { _ in driver.isResult }
        driver.press(.escape)
        driver.openPaymentAgain()
        let text = driver.app.render().text
        #expect(text.contains("Last card (typing replaces it); F4 picks a test card."), "\(text)")
        #expect(text.contains("[•••• 2701"), "\(text)")
    }
}
