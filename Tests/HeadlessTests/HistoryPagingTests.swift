import Foundation
import Testing

/// `history --before ID` pages through a long history and `--filter TEXT` finds flows as the terminal UI's `/` does,
/// past the newest: a QA lead with thousands of flows had only `--limit` and grep. A list that leaves older flows out
/// says how to see them.
@Suite struct HistoryPagingTests {
    /// Six flows: logouts (odd ids) and frictionless payments (even ids).
    private func history() throws -> String {
        let state = freshStatePath()
        for _ in 0..<3 {
            let run = try BinaryRun.run(["run", "logout", "payer-auth", "--state", state], stdin: #"[{}, {"card":"4000000000002701","expiry":"12/30"}]"#)
            #expect(run.status == 0, "\(run.stderr)")
        }
        return state
    }

    /// The ids a table lists, in its order.
    private func ids(_ table: String) -> [Int] {
        table.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").first.flatMap { Int($0) } }
    }

    @Test func beforePagesAndFilterFindsAsTheTerminalsSlashDoes() throws {
        let state = try history()
        let first = try BinaryRun.run(["history", "--limit", "2", "--state", state])
        #expect(ids(first.stdout) == [6, 5], "\(first.stdout)")
        #expect(first.stderr == "idp-tui: history: older flows are not listed: add --before 5 for the next 2\n")
        let next = try BinaryRun.run(["history", "--limit", "2", "--before", "5", "--state", state])
        #expect(ids(next.stdout) == [4, 3], "\(next.stdout)")
        let last = try BinaryRun.run(["history", "--before", "3", "--state", state])
        #expect(ids(last.stdout) == [2, 1] && last.stderr.isEmpty, "\(last.stdout)\(last.stderr)")

        // Any case in lower case; with a capital, its case: "Pay" is the payments' title (Pay with card …).
        for filter in ["payer", "FRICTIONLESS", "Pay"] {
            let found = try BinaryRun.run(["history", "--filter", filter, "--state", state])
            #expect(ids(found.stdout) == [6, 4, 2] && found.stderr.isEmpty, "\(filter): \(found.stdout)\(found.stderr)")
        }
        #expect(ids(try BinaryRun.run(["history", "--filter", "PAYER", "--state", state]).stdout).isEmpty)
        let page = try BinaryRun.run(["history", "--filter", "logout", "--limit", "1", "--before", "5", "--state", state])
        #expect(ids(page.stdout) == [3], "\(page.stdout)")
        #expect(page.stderr == "idp-tui: history: older flows that match are not listed: add --before 3 for the next 1\n")
        // The time as `history` prints it matches too (its T and Z), not only as the terminal UI shows it.
        #expect(ids(try BinaryRun.run(["history", "--filter", "Z", "--state", state]).stdout) == [6, 5, 4, 3, 2, 1])
        // Nothing found is not "no flows yet".
        #expect(try BinaryRun.run(["history", "--filter", "nothing-here", "--state", state]).stdout == "no flows match \"nothing-here\"\n")
        // A quote in the filter is escaped, as in a shell's or JSON's string (it read three quotes in a row).
        #expect(try BinaryRun.run(["history", "--filter", "a\"b", "--state", state]).stdout == #"no flows match "a\"b""# + "\n")
        #expect(try BinaryRun.run(["history", "--filter", "a\\", "--state", state]).stdout == #"no flows match "a\\""# + "\n")
        #expect(try BinaryRun.run(["history", "--before", "1", "--state", state]).stdout == "no flows older than flow 1\n")
        let json = try BinaryRun.run(["history", "--filter", "payer", "--json", "--state", state])
        #expect(json.stdout.split(separator: "\n").count == 3 && json.stderr.isEmpty, "\(json.stdout)")
    }

    @Test(arguments: [(["--before", "0"], "idp-tui: history: --before takes a flow's id, a whole number from 1, not \"0\"\n"),
                      (["--before", "+2"], "idp-tui: history: --before takes a flow's id, a whole number from 1, not \"+2\"\n")])
    func aBeforeThatIsNoIdIsRefused(option: [String], message: String) throws {
        let run = try BinaryRun.run(["history"] + option + ["--state", freshStatePath()])
        #expect(run.status == 2)
        #expect(run.stderr == message)
    }
}
