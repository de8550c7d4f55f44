import FlowEngine
import Testing

/// A fault that bit is no message to the App, which never hears of it: the log's row says `⚡ fault` (a fault on a
/// request to the IdP read "⇢ IdP" once it went to the IdP), and the event's details name the party it hit.
@Suite struct FaultNoteTests {
    @Test func aFaultsDetailsNameThePartyItHit() throws {
        let driver = AppDriver()
        driver.flipFault("serverError")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        let fault = try #require(driver.app.state.log.first { $0.step == .fault })
        #expect(fault.from.rawValue == "simulator" && fault.to.rawValue == "IdP", "the request it hit went to the IdP")
        #expect(driver.app.render().text.contains("⚡ fault  fault injected"), "\(driver.app.render().text)")
        driver.press(.tab, .character("/"))
        for character in "fault injected" { driver.press(.character(character)) }
        driver.press(.enter, .enter)
        let text = driver.app.render().text
        #expect(text.contains("Event — esc closes"), "\(text)")
        #expect(text.contains("fault on  IdP") && !text.contains("from → to"), "\(text)")
    }
}
