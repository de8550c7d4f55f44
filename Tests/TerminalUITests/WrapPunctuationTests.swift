@testable import TerminalUI
import Testing

/// A word longer than a line is cut where it must be; its closing punctuation goes with its last letters.
@Suite struct WrapPunctuationTests {
    /// A long JSON value's comma stood alone on the detail view's next line.
    @Test func aWordsClosingPunctuationIsNotLeftAlone() {
        #expect(Wrap.lines("abcdefghij,", width: 10) == ["abcdefghi", "j,"])
        #expect(Wrap.lines("\"https://example.test/collect\",", width: 30) == ["\"https://example.test/collect", "\","])
        // Other cuts are as they were: a word cut where it fits, and punctuation that fits kept on its line.
        #expect(Wrap.lines("abcdefghijkl", width: 10) == ["abcdefghij", "kl"])
        #expect(Wrap.lines("abcdefghi,", width: 10) == ["abcdefghi,"])
    }
}
