import FlowCatalog
import FlowEngine
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

    /// Plain mode says the time left at 30 s and at 10 s, once each (it said nothing until the timeout); only the
    /// points under the prompt's whole time.
    @Test func plainModeWarnsAt30And10SecondsLeft() throws {
        let driver = AppDriver(configuration: FlowConfiguration(promptTimeout: .seconds(45)))
        driver.app.plain = true
        driver.openActivation()
        let deadline = try #require(driver.app.state.promptDeadline)
        #expect(driver.app.plainNextWarning(at: deadline - .seconds(45)) == .seconds(15))
        #expect(driver.app.plainTimeWarning(at: deadline - .seconds(31)) == nil)
        #expect(driver.app.plainTimeWarning(at: deadline - .milliseconds(29_500)) == "! 30 s left to answer, then the prompt times out")
        #expect(driver.app.plainTimeWarning(at: deadline - .seconds(29)) == nil, "once")
        #expect(driver.app.plainNextWarning(at: deadline - .seconds(29)) == .seconds(19))
        // Late (the session was busy): the 10 s point is said with the time really left.
        #expect(driver.app.plainTimeWarning(at: deadline - .seconds(7)) == "! 7 s left to answer, then the prompt times out")
        #expect(driver.app.plainNextWarning(at: deadline - .seconds(7)) == nil)
        #expect(driver.app.plainTimeWarning(at: deadline - .seconds(1)) == nil)
        // A 20 s timeout warns at 10 s only.
        let short = AppDriver(configuration: FlowConfiguration(promptTimeout: .seconds(20)))
        short.openActivation()
        let end = try #require(short.app.state.promptDeadline)
        #expect(short.app.plainTimeWarning(at: end - .seconds(20)) == nil)
        #expect(short.app.plainNextWarning(at: end - .seconds(20)) == .seconds(10))
        #expect(short.app.plainTimeWarning(at: end - .seconds(10)) == "! 10 s left to answer, then the prompt times out")
    }

    @Test func aPromptWithoutATimeoutNeverTicks() {
        let driver = AppDriver(configuration: FlowConfiguration(promptTimeout: nil))
        driver.openActivation()
        #expect(driver.app.state.promptDeadline == nil)
        #expect(driver.app.tickInterval == nil)
        #expect(driver.app.plainNextWarning(at: .now) == nil)
    }
}
