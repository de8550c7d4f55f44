@testable import TerminalUI
import FlowEngine
import Testing

/// The numbered list of the home menu and of a form's choice, when it has more entries than rows (an eighth
/// family's menu item at 80×24 hid Quit, and End selected it out of sight, with nothing saying it was there).
@Suite struct ChoiceListTests {
    static let titles = (1...10).map { "Entry \($0)" }

    func draw(selection: Int, rows: Int = 4) -> (lines: [String], stops: [Int]) {
        var buffer = ScreenBuffer(width: 30, height: rows)
        ChoiceList.draw(&buffer, Self.titles, selection: selection, top: 0, left: 0, width: 30, rows: rows)
        return ((0..<rows).map { buffer.text(row: $0) }, buffer.targets.map(\.stop))
    }

    @Test func theListStartsAtItsFirstEntryAndSaysMoreAreBelow() {
        let (lines, stops) = draw(selection: 2)
        #expect(lines[0].hasPrefix("  1 Entry 1") && lines[2].hasPrefix("▸ 3 Entry 3"), "\(lines)")
        #expect(!lines[0].contains("↑") && lines[3].hasSuffix("↓"), "\(lines)")
        #expect(stops == [0, 1, 2, 3])
    }

    @Test func aSelectionPastTheRowsIsInSightWithArrowsBothWays() {
        let (lines, stops) = draw(selection: 6)
        #expect(lines[3].hasPrefix("▸ 7 Entry 7") && lines[0].hasPrefix("  4 Entry 4"), "\(lines)")
        #expect(lines[0].hasSuffix("↑") && lines[3].hasSuffix("↓"), "\(lines)")
        // A click on a row selects the entry shown there.
        #expect(stops == [3, 4, 5, 6])
    }

    @Test func theLastEntrySelectedShowsTheEndAndNothingBelow() {
        let (lines, _) = draw(selection: 9)
        #expect(lines[3].hasPrefix("▸ 10 Entry 10") && lines[0].hasSuffix("↑") && !lines[3].contains("↓"), "\(lines)")
    }

    /// The arrows keep a column of their own: a title as wide as the list is cut short of them, and the selected
    /// row's arrow is drawn in its highlight.
    @Test func anArrowNeverCoversAnEntrysText() {
        let long = (1...6).map { "A title much longer than the list is wide \($0)" }
        var buffer = ScreenBuffer(width: 30, height: 3)
        ChoiceList.draw(&buffer, long, selection: 4, top: 0, left: 0, width: 30, rows: 3)
        let lines = (0..<3).map { buffer.text(row: $0) }
        #expect(lines[0].hasSuffix("… ↑") && lines[2].hasPrefix("▸ 5 ") && lines[2].hasSuffix("… ↓"), "\(lines)")
        #expect(buffer[2, 29].role == .menuFocused && buffer[0, 29].role == .hint)
    }

    @Test func aListThatFitsHasNoArrows() {
        var buffer = ScreenBuffer(width: 30, height: 12)
        ChoiceList.draw(&buffer, Self.titles, selection: 9, top: 0, left: 0, width: 30, rows: 12)
        #expect(!buffer.text.contains("↑") && !buffer.text.contains("↓") && buffer.text.contains("  1 Entry 1"))
    }
}

/// A family's form with a banner or a note and no hint of its own shows them, as plain mode does (only Q2's form,
/// which has a hint, drew them).
@Suite struct FamilyFormTextTests {
    struct BannerForm: CredentialForm {
        var fields: [CredentialField] { [.username] }
        var banner: String? { "Sign-ups are closed tonight" }
        func accepts(_ answer: PromptAnswer) -> Bool { true }
        func title(in flow: FlowKind) -> String { "Toy form" }
    }

    @Test func aFormsBannerShowsWithoutAHint() {
        let driver = AppDriver()
        driver.app.flowService(driver.service, needsAnswerTo: FlowPrompt(id: 90, flowID: 1, flow: .login, request: BannerForm()))
        #expect(driver.app.render().text.contains("⚠ Sign-ups are closed tonight"), "\(driver.app.render().text)")
    }
}
