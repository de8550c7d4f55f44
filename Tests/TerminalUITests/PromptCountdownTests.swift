import FlowCatalog
import TerminalUI
import Testing

/// A prompt that times out (`--prompt-timeout`) counts its last 30 seconds down on the status line, and only
/// then does the screen tick; a prompt without a timeout never does.
@Suite struct PromptCountdownTests {
    @Test func aPromptsLastSecondsAreCountedDown() throws {
        let driver = AppDriver(configuration: FlowConfiguration(promptTimeout: .seconds(45)))
        driver.openActivation()
        let deadline = try #require(driver.app.state.promptDeadline)
        // 45 s to go: quiet until the countdown starts, 15 s on; then a tick every quarter second.
        #expect(driver.app.tickInterval(at: deadline - .seconds(45)) == .seconds(15))
        #expect(driver.app.tickInterval(at: deadline - .seconds(20)) == .milliseconds(250))
        #expect(driver.app.tickInterval(at: deadline) == nil, "none once the time is up")
        #expect(!driver.app.render().text.contains("answer within"))
        driver.app.tick(now: deadline - .milliseconds(11_500))
        #expect(driver.app.render().text.contains("answer within 12 s: the prompt then times out"))
        // Answered: the working screen has no countdown.
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        #expect(!driver.app.render().text.contains("answer within"))
        #expect(driver.app.tickInterval == nil)
    }

    @Test func aPromptWithoutATimeoutNeverTicks() {
        let driver = AppDriver(configuration: FlowConfiguration(promptTimeout: nil))
        driver.openActivation()
        #expect(driver.app.state.promptDeadline == nil)
        #expect(driver.app.tickInterval == nil)
    }
}
