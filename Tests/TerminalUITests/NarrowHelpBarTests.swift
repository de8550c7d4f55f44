import Testing
@testable import TerminalUI

/// At 60 columns the help bar keeps the key that does the screen's work: Enter fills the form from the test card
/// picker (the bar dropped it: "↑↓ move · type filter · esc close"), and Enter submits a select challenge (it
/// read "↑↓ move · space choose · esc cancel").
@Suite struct NarrowHelpBarTests {
    func bar(_ driver: AppDriver) -> String {
        driver.app.render().text.split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test func thePickersBarSaysEnterFills() {
        let driver = AppDriver(width: 60, height: 18)
        driver.openPayment()
        driver.press(.f4)
        #expect(bar(driver).contains("enter fill") && bar(driver).contains("esc close"), "\(bar(driver))")
    }

    @Test func aSelectChallengesBarSaysEnterSubmits() {
        let driver = AppDriver(width: 60, height: 18)
        driver.pay(card: "4000009900000012")
        driver.pump { _ in driver.challenge != nil }
        #expect(bar(driver).contains("space pick") && bar(driver).contains("enter submit") && bar(driver).contains("esc cancel"),
                "\(bar(driver))")
    }
}
