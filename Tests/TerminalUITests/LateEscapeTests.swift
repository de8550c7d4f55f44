import Testing

@testable import TerminalUI

/// A cancel that waited (its time counted, a second Esc offered) whose result comes just before that second Esc: the
/// Esc does not dismiss the result unseen (a tester's Esc 4.5 s into a 5 s slow ACS landed on the home screen).
@Suite struct LateEscapeTests {
    @Test func aSecondEscJustAfterAWaitedCancelsResultKeepsIt() throws {
        let driver = AppDriver()
        try driver.challengeFromASlowACS()
        driver.press(.escape)
        #expect(driver.pump { _ in driver.clock.pendingTimerCount > 0 }, "the cancel's CReq waits for the slow ACS")
        // The cancel has been waiting 2 s (real time, which the working screen counts) when the ACS answers.
        driver.app.state.cancellingSince = .now - .seconds(2)
        // The ACS answers 5 s late on the manual clock: moved on until the result is shown (a later wait, under load,
        // may need the clock too).
        #expect(driver.pump { _ in
            if driver.clock.pendingTimerCount > 0 { driver.clock.advance(by: .seconds(5)) }
            return driver.isResult
        })
        driver.press(.escape)
        #expect(driver.isResult, "the late second Esc leaves the result in view")
        #expect(driver.app.render().text.contains("the flow had ended: here is its result (esc goes back)"))
        driver.press(.escape)
        #expect(!driver.isResult, "the next Esc goes back")
    }

    /// A cancel that ended at once (Esc at a prompt, answered within its first second): Esc on its result goes back.
    @Test func anEscAfterAQuickCancelsResultGoesBack() {
        let driver = AppDriver()
        driver.press(.enter)
        #expect(driver.pump { _ in driver.isForm })
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
        driver.press(.escape)
        #expect(!driver.isResult)
    }
}
