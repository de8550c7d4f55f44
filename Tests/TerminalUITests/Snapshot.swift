import Foundation
import Testing
import TerminalUI

/// Golden-file snapshots of the in-memory screen: the text, the role layer and the cursor, in
/// Snapshots/NAME.txt beside this file. Set SNAPSHOT_RECORD=1 to re-record; recording always fails the test
/// so that the new baseline is reviewed before it is trusted.
enum Snapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func render(_ buffer: ScreenBuffer, extra: String? = nil) -> String {
        var text = "# \(buffer.width)x\(buffer.height)\n\(buffer.text)\n# roles\n\(buffer.roles)\n"
        if let cursor = buffer.cursor { text += "# cursor \(cursor.row),\(cursor.column)\n" } else { text += "# cursor hidden\n" }
        if let extra { text += extra }
        return text
    }

    static func check(_ buffer: ScreenBuffer, _ name: String, extra: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = directory.appendingPathComponent("\(name).txt")
        let actual = render(buffer, extra: extra)
        let recording = ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1"
        guard !recording, let expected = try? String(contentsOf: file, encoding: .utf8) else {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded snapshot \(name); review Snapshots/\(name).txt and run the tests again", sourceLocation: sourceLocation)
            return
        }
        guard actual != expected else { return }
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let index = zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actualLines.count, expectedLines.count)
        let want = index < expectedLines.count ? String(expectedLines[index]) : "<end>"
        let got = index < actualLines.count ? String(actualLines[index]) : "<end>"
        Issue.record("snapshot \(name) differs at line \(index + 1):\n  expected: \(want)\n  actual:   \(got)", sourceLocation: sourceLocation)
    }

    /// One letter per cell for how the theme shows it: R reverse, B bold, U underline, D dim, C colour only,
    /// . nothing; the first that applies.
    static func styleLayer(_ buffer: ScreenBuffer, _ theme: Theme) -> String {
        (0..<buffer.height).map { row in
            String((0..<buffer.width).map { column -> Character in
                let style = theme.style(buffer[row, column].role)
                if style.attributes.contains(.reverse) || style.attributes.contains(.standout) { return "R" }
                if style.attributes.contains(.bold) { return "B" }
                if style.attributes.contains(.underline) { return "U" }
                if style.attributes.contains(.dim) { return "D" }
                if style.foreground != nil || style.background != nil { return "C" }
                return "."
            })
        }.joined(separator: "\n")
    }
}
