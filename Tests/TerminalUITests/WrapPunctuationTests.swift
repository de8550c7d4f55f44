@testable import TerminalUI
import Testing

/// A word longer than a line is cut where it must be; its closing punctuation goes down with a letter of it.
@Suite struct WrapPunctuationTests {
    /// A long JSON value's comma stood alone on the detail view's next line.
    @Test func aWordsClosingPunctuationIsNotLeftAlone() {
        #expect(Wrap.lines("abcdefghij,", width: 10) == ["abcdefghi", "j,"])
        #expect(Wrap.lines("\"https://example.test/collect\",", width: 30) == ["\"https://example.test/collec", "t\","])
        // A line of closing marks alone is never left, however many there are.
        let json = Wrap.lines("{\"acsURL\":\"https://acs.example/challenge/abcdef\"},", width: 24)
        #expect(!json.contains { $0.allSatisfy { ",;:.)]}\"".contains($0) } }, "\(json)")
        #expect(json.joined() == "{\"acsURL\":\"https://acs.example/challenge/abcdef\"},", "nothing lost: \(json)")
        // Other cuts are as they were: a word cut where it fits, and punctuation that fits kept on its line.
        #expect(Wrap.lines("abcdefghijkl", width: 10) == ["abcdefghij", "kl"])
        #expect(Wrap.lines("abcdefghi,", width: 10) == ["abcdefghi,"])
    }
}
