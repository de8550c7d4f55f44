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
}
