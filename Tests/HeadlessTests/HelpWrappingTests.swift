import Headless
import Testing

/// `--help` at a terminal narrower than its lines is fitted to it (at 60 columns 37 of its 48 lines broke
/// mid-word where the terminal cut them): every line fits, no word is cut or lost, and an option's description
/// wraps under its own column.
@Suite struct HelpWrappingTests {
    @Test func helpFitsSixtyColumnsWithEveryWordWhole() throws {
        let help = try BinaryRun.run(["--help"]).stdout
        let fitted = HelpWrapping.fit(help, width: 60)
        let lines = fitted.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(lines.filter { $0.count > 60 })")
        #expect(fitted.split(whereSeparator: \.isWhitespace) == help.split(whereSeparator: \.isWhitespace))
        // A description whose column leaves too little room goes under its option, indented.
        let plain = try #require(lines.firstIndex { $0 == "  --plain" }, "\(lines)")
        #expect(lines[plain + 1].hasPrefix("      line-by-line prompts, no drawing"), "\(lines[plain...plain + 1])")
        // One whose column leaves room wraps under that column.
        let state = try #require(lines.firstIndex { $0.hasPrefix("  --state FILE") })
        #expect(lines[state + 1].prefix(21).allSatisfy { $0 == " " } && lines[state + 1].dropFirst(21).first != " ",
                "\(lines[state...state + 1])")
        // Wide enough, nothing changes.
        #expect(HelpWrapping.fit(help, width: 400) == help)
    }
}
