import FlowEngine
import IdpFlows
import Q2Flows
import TerminalUI
import Testing

/// The log draws a family's own good statuses as information, not as errors: the Q2 security module's `allow` and
/// KSSIDP's `Success` were red, as a failure is.
@Suite struct LogColourTests {
    /// The role the log draws the row that shows `text` with, at its first character.
    private func role(ofLogRowWith text: String, in driver: AppDriver) -> Role? {
        let buffer = driver.app.render()
        for (row, line) in buffer.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let found = line.range(of: text) else { continue }
            return buffer[row, line.distance(from: line.startIndex, to: found.lowerBound)].role
        }
        return nil
    }

    @Test func aQ2SignInsAllowIsInformation() {
        let driver = AppDriver(width: 160, height: 50)
        while MenuItem.all[driver.app.state.menuSelection] != .flow(.q2Login) { driver.press(.down) }
        driver.press(.enter)
        #expect(driver.pump { _ in driver.isForm })
        driver.fill()
        driver.press(.enter)
        #expect(driver.pump { _ in driver.isResult })
        #expect(role(ofLogRowWith: "allow the device passes", in: driver) == .logInfo, "\(driver.app.render().text)")
    }

    /// The KSSIDP flows run from a script or the comparison; their events in the log (here, one started as `run` starts
    /// it) are coloured as the history's transcript colours them.
    @Test func kssidpsSuccessIsInformation() {
        let driver = AppDriver(width: 160, height: 50)
        driver.activateThroughKSSIDP()
        #expect(driver.result?.outcome == .success)
        #expect(role(ofLogRowWith: "Success", in: driver) == .logInfo, "\(driver.app.render().text)")
    }

    /// A login after a logout tries OfflineLogin first and, when the MC-SDK has no offline token, goes on at the IdP:
    /// that answer is a warning, not an error (it was red, as a failed login is, above a login that succeeded). A
    /// wrong password at the IdP is still an error.
    @Test func anOfflineLoginThatFallsBackToTheIdPIsAWarning() {
        let driver = AppDriver(width: 160, height: 50)
        driver.activate()
        driver.press(.enter)
        _ = driver.service.start(.logout)
        #expect(driver.pump { _ in driver.isResult })
        driver.press(.enter)
        _ = driver.service.start(.login)
        #expect(driver.pump { _ in driver.isForm })
        #expect(role(ofLogRowWith: "NO_TOKEN_DATA_AVAILABLE", in: driver) == .logWarn, "\(driver.app.render().text)")
        driver.type("wrong")
        driver.press(.enter)
        #expect(driver.pump { _ in driver.isResult })
        #expect(role(ofLogRowWith: "400 513/4011", in: driver) == .logError, "\(driver.app.render().text)")
    }
}
