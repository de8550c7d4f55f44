import PaymentFlows
import Testing

/// An out-of-band challenge's other device.
@Suite struct OutOfBandDecisionTests {
    /// The other device's answer reaches the ACS, and the log, when it is given, not at Continue: an approval and then
    /// Cancel was lost from the log and the history. Given once, as in a banking app.
    @Test func outOfBandApprovalIsLoggedWhenGivenAndOnce() throws {
        let driver = AppDriver()
        driver.pay(card: "4000009900000038")
        let approvals = { driver.app.state.log.filter { $0.step.rawValue == "out-of-band" } }
        #expect(approvals().isEmpty)
        driver.press(.character("a"))
        #expect(driver.pump { _ in !approvals().isEmpty }, "logged at once, the screen still open")
        #expect(approvals().first?.detail == "approved" && approvals().first?.from == .otherDevice)
        #expect(driver.challenge != nil)
        // The bar no longer offers a and r, which are refused from now on: Enter continues.
        let bar = driver.app.render().text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(bar.hasPrefix(" enter continue · esc cancel") && !bar.contains("approve"), "\(bar)")
        driver.press(.character("r"))
        #expect(driver.app.render().text.contains("already approved on the other device: press enter to continue"))
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.outcome == .cancelled)
        // The result says the phone had approved: the ACS's reason (26, not performed by the cardholder) alone read
        // as though it had not been used.
        #expect(driver.result?.error?.message == "cancelled on the challenge screen after approving on the other device: the ACS ended it with challengeCancel 01")
        #expect(approvals().count == 1, "\(approvals().map(\.detail))")
    }
}
