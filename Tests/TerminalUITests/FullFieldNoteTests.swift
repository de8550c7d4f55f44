import Testing
@testable import TerminalUI

/// "This field is full" is about the key that did not fit: the next key takes it away, and a stray character's
/// note in another field shows again. It stayed beside the form after the focus had moved on, over the amount's
/// "digits and a decimal point only", which a bad character's note must keep saying until the character is gone.
@Suite struct FullFieldNoteTests {
    @Test func theFullNoteGoesAtTheNextKeyAndTheStrayNoteComesBack() {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.tab, .tab, .end)  // Amount, 49.99
        driver.type("x")
        #expect(driver.app.render().text.contains("digits and a decimal point only"))
        driver.press(.tab, .end)  // Currency, EUR: full
        driver.type("u")
        #expect(driver.app.render().text.contains("This field is full"))
        driver.press(.backTab)
        let text = driver.app.render().text
        #expect(!text.contains("This field is full"), "\(text)")
        #expect(text.contains("digits and a decimal point only"), "\(text)")
    }

    @Test func onACredentialFormTooTheFullNoteGoesAtTheNextKey() {
        let driver = AppDriver()
        driver.press(.enter)
        #expect(driver.pump { _ in driver.isForm })
        driver.type(String(repeating: "a", count: 300))
        #expect(driver.app.render().text.contains("This field is full"))
        driver.press(.tab)
        #expect(!driver.app.render().text.contains("This field is full"))
    }

    /// The merchant's field takes its 40 characters and no more, typed or pasted: its room was 160 bytes, so a
    /// paste of 160 letters was kept and only Pay refused it ("at most 40 characters").
    @Test func theMerchantsFieldTakesFortyCharacters() {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.tab, .tab, .tab, .tab)  // Merchant
        driver.press(.control("u"))
        driver.app.handlePaste(String(repeating: "m", count: 160))
        guard case .payment(let form) = driver.screen else { Issue.record("no card form"); return }
        #expect(form.text(.merchant) == String(repeating: "m", count: 40))
        #expect(driver.app.state.notice == "paste cut at 40 characters (the field's limit)", "\(driver.app.state.notice ?? "")")
        driver.type("n")
        #expect(driver.app.render().text.contains("This field is full"))
    }
}
