import FlowRecords
import Foundation
import StateStore
import Testing

/// A state file replaced (`mv other.db FILE`) or deleted under a process that has it open: SQLite keeps its journal by
/// the path, so the process's next write went into the journal beside the new file, whose indexes a tester then
/// found corrupt. Nothing is written once the file at the path is not the one opened, and the process can say why.
/// (What the journal held before the `mv` may still pair with the new file: SQLite's own rule, never move a database
/// that is open; not tested here.)
@Suite struct ReplacedStateFileTests {
    private let summary = HistorySummary(id: 0, time: "2030-01-01T00:00:00.000Z", flow: "logout", user: nil,
                                         outcome: .success, status: "OK", duration: 5)

    @Test func aReplacedFileIsSaidAndNotWritten() throws {
        let path = freshStatePath()
        let other = (path as NSString).deletingLastPathComponent + "/other.sqlite"
        let opened = try StateFile(path: path)
        _ = try opened.history.record(HistoryRecord(summary: summary, resultJSON: "{}", events: []))
        let replacement = try StateFile(path: other)
        for _ in 0..<3 { _ = try replacement.history.record(HistoryRecord(summary: summary, resultJSON: "{}", events: [])) }
        replacement.close()
        #expect(rename(other, path) == 0)
        #expect(opened.goneFromItsPath?.contains("was replaced while idp-tui had it open") == true, "\(opened.goneFromItsPath ?? "")")
        #expect(throws: (any Error).self) { try opened.history.record(HistoryRecord(summary: summary, resultJSON: "{}", events: [])) }
        // The journal beside the new file got nothing from this process after the replacement.
        #expect(opened.goneFromItsPath?.hasSuffix("nothing was written to the file there now") == true)
    }

    @Test func aDeletedFileIsSaidAndNotWritten() throws {
        let path = freshStatePath()
        let opened = try StateFile(path: path)
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        #expect(opened.goneFromItsPath?.contains("was deleted while idp-tui had it open") == true)
        #expect(throws: (any Error).self) { try opened.history.record(HistoryRecord(summary: summary, resultJSON: "{}", events: [])) }
    }
}
