import Testing

/// A cancelled flow's transcript labels its text as a cancel, as `history show` does: it was `error:`, though
/// nothing failed ("error: cancelled while getAuthorizationCode was in flight …").
@Suite struct CancelTranscriptTests {
    @Test func aCancelsTextIsLabelledCancel() {
        let driver = AppDriver()
        driver.openQ2()
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        driver.press(.enter, .character("h"), .enter)
        let text = driver.app.render().text
        #expect(text.contains("│ cancel: cancelled at the sign-in screen; no credential was sent"), "\(text)")
        #expect(!text.contains("error: cancelled"), "\(text)")
    }
}
