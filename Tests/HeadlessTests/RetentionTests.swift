import Foundation
import IdentityProvider
import StateStore
import Testing

/// The history keeps what its policy says, so the state file stops growing however many runs it sees.
@Suite struct RetentionTests {
    private func loginsAndLogouts(_ pairs: Int, state: String) throws -> BinaryRun {
        try BinaryRun.run(["run"] + Array(repeating: ["login", "logout"], count: pairs).flatMap { $0 } + ["--state", state],
                          stdin: "[" + Array(repeating: "\(Answers.alice),{}", count: pairs).joined(separator: ",") + "]")
    }

    private func size(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    @Test func theDefaultKeepsTheNewestThousandFlows() throws {
        let state = freshStatePath()
        _ = try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation)
        let prune = try BinaryRun.run(["history", "prune", "--state", state])
        #expect(prune.status == 0)
        #expect(prune.stdout.hasPrefix("\(state): keeps the newest 1000 flows; removed 0 flows, 1 kept ("), "\(prune.stdout)")
    }

    @Test func eachFlowPrunesWhatFallsOutsideThePolicyAndTheFileStopsGrowing() throws {
        let state = freshStatePath()
        _ = try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation)
        let set = try BinaryRun.run(["history", "prune", "--keep-flows", "20", "--state", state])
        #expect(set.stdout.contains("keeps the newest 20 flows; removed 0 flows, 1 kept"), "\(set.stdout)")
        #expect(try loginsAndLogouts(20, state: state).status == 0)
        let early = try size(state)
        #expect(try loginsAndLogouts(150, state: state).status == 0)
        let late = try size(state)
        #expect(late <= early * 5 / 4, "\(early) bytes after 41 flows, \(late) after 341")

        let history = try BinaryRun.run(["history", "--json", "--limit", "1000", "--state", state])
        let ids = history.lines.compactMap { $0["id"] as? Int }
        #expect(ids == Array((322...341).reversed()), "the newest 20, ids \(ids)")
        let file = try StateFile(path: state)
        #expect(try file.queryForTesting("SELECT count(*), min(flow_id) FROM flow_events") .first?.last == "322")
        #expect(try file.queryForTesting("SELECT count(*) FROM flow_events WHERE flow_id NOT IN (SELECT id FROM flows)") == [["0"]])
    }

    /// A scenario within its limits (ten attempts, ten resends) makes a challenge payment about 38 KB: kept by
    /// count alone, 1,000 of them took the file to 52 MB. The pages in use stay within the policy's budget, 256 KB
    /// and 16 KB a flow (16.3 MB by default), the oldest flows going first.
    @Test func largeFlowsAreKeptWithinThePolicysBudget() throws {
        let folder = scratchPath("idp-tui-retention")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let shown = try BinaryRun.run(["scenario", "show"])
        var scenario = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        var provider = try #require(scenario["identityProvider"] as? [String: Any])
        var tenants = try #require(provider["tenants"] as? [[String: Any]])
        tenants[0]["users"] = [["username": "alice", "password": "wonderland", "activationCode": "123456"]]
        provider["tenants"] = tenants
        scenario["identityProvider"] = provider
        scenario["payments"] = ["challenge": ["attempts": 10, "resends": 10, "oneTimeCode": "1234"]]
        let path = folder + "/large-flows.json"
        try JSONSerialization.data(withJSONObject: scenario).write(to: URL(fileURLWithPath: path))
        let state = folder + "/state.sqlite"
        try StateFile(path: state).close()
        #expect(try BinaryRun.run(["history", "prune", "--keep-flows", "20", "--state", state]).status == 0)
        let payment = #"{"card":"4000 0000 0000 2503","expiry":"12/30","otp":["1","2","3","4","5","6","7","8","9","10"],"resend":10}"#
        let run = try BinaryRun.run(["run"] + Array(repeating: "payer-auth", count: 40) + ["--scenario", path, "--state", state],
                                    stdin: "[" + Array(repeating: payment, count: 40).joined(separator: ",") + "]")
        #expect(run.results.count == 40, "\(run.stderr)")
        let file = try StateFile(path: state)
        let kept = try file.queryForTesting("SELECT count(*), max(id) FROM flows").first ?? []
        #expect(kept.last == "40", "the newest flow is kept: \(kept)")
        #expect(Int(kept.first ?? "") ?? 0 < 20, "fewer than the policy's 20 flows: \(kept)")
        file.close()
        let bytes = try size(state)
        #expect(bytes <= (256 + 16 * 20 + 64) << 10, "\(bytes) bytes")
    }

    /// The size budget counts every table: a file whose IdP counters alone fill it (a pipeline that tried 320,000
    /// made-up user names, 53 bytes each) forgets the names least recently tried, down to a quarter of the budget,
    /// and keeps its history, every lock in force and every used activation code.
    @Test func countersThatFillTheBudgetAreForgottenOldestFirst() throws {
        let state = freshStatePath()
        _ = try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation)
        let file = try StateFile(path: state)
        try file.executeForTesting("""
            INSERT INTO idp_users (tenant, username, failures, locked_until) VALUES ('demo', 'locked-long', 3, 9000000000000000000);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 320000)
            INSERT INTO idp_users (tenant, username, failures) SELECT 'demo', 'made-up-' || i, 1 FROM n
            """)
        // A name written again is as recent as the newest; one left with nothing to remember has no row.
        let store = file.identityProviderStore
        try store.updateUser(tenant: "demo", username: "made-up-1") { $0.failures = 2 }
        try store.updateUser(tenant: "demo", username: "made-up-2") { $0 = UserCounters() }
        file.close()
        let prune = try BinaryRun.run(["history", "prune", "--keep-flows", "50", "--state", state])
        #expect(prune.status == 0)
        #expect(prune.stdout.contains("removed 0 flows, 1 kept; over its size budget, forgot the failure counters of the 315777 user names least recently tried ("),
                "\(prune.stdout)")
        #expect(try loginsAndLogouts(4, state: state).status == 0)
        let after = try StateFile(path: state)
        defer { after.close() }
        // The 50-flow policy's budget is 1 MB; a quarter of it holds 4,224 counters.
        #expect(try after.queryForTesting("SELECT count(*) FROM flows").first == ["9"], "the history is kept whole")
        #expect(try after.queryForTesting("SELECT count(*) FROM idp_users").first == ["4224"], "a quarter of the budget, locks and used codes counted")
        #expect(try after.queryForTesting("SELECT username FROM idp_users WHERE username NOT LIKE 'made-up-%' ORDER BY username")
            == [["alice"], ["locked-long"]], "a used activation code and a lock in force stay")
        #expect(try after.queryForTesting("SELECT username, failures FROM idp_users WHERE username IN ('made-up-1', 'made-up-2')")
            == [["made-up-1", "2"]], "the name written last stays")
        #expect(try after.queryForTesting("SELECT min(CAST(substr(username, 9) AS INTEGER)) FROM idp_users WHERE username LIKE 'made-up-%' AND username != 'made-up-1'")
            == [["315780"]], "the names tried last stay")
        #expect(try after.queryForTesting("SELECT (SELECT page_count FROM pragma_page_count) - (SELECT freelist_count FROM pragma_freelist_count)")
            .first.flatMap { $0.first.flatMap { Int($0) } }.map { $0 * 4096 <= (256 + 16 * 50) << 10 } == true)
    }

    @Test func pruneByAgeAndGiveTheSpaceBack() throws {
        let state = freshStatePath()
        _ = try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation)
        #expect(try loginsAndLogouts(60, state: state).status == 0)
        let file = try StateFile(path: state)
        // The first 100 flows ran "a year ago".
        try file.executeForTesting("UPDATE flows SET started_at = '2025-11-30T10:00:00.000Z' WHERE id <= 100")
        file.close()
        let before = try size(state)
        let prune = try BinaryRun.run(["history", "prune", "--keep-days", "30", "--state", state])
        #expect(prune.status == 0)
        #expect(prune.stdout.contains("keeps the newest 1000 flows, none older than 30 days; removed 100 flows, 21 kept"), "\(prune.stdout)")
        let after = try size(state)
        #expect(after < before * 3 / 4, "\(before) → \(after) bytes")
        // The policy stays with the file, across a reset too: the next prune, without options, keeps it.
        let again = try BinaryRun.run(["history", "prune", "--state", state])
        #expect(again.stdout.contains("none older than 30 days; removed 0 flows, 21 kept"))
        #expect(try BinaryRun.run(["reset", "--state", state]).status == 0)
        let afterReset = try BinaryRun.run(["history", "prune", "--state", state])
        #expect(afterReset.stdout.contains("keeps the newest 1000 flows, none older than 30 days; removed 0 flows, 0 kept"), "\(afterReset.stdout)")
    }

    /// `prune` reports the file's size (with its -wal), not the -shm index that exists only while it is open.
    @Test func pruneReportsTheFilesOwnSize() throws {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        let prune = try BinaryRun.run(["history", "prune", "--state", state])
        let after = try #require(prune.stdout.firstMatch(of: /→ (\d+) KB\)/)?.1).flatMap { Int64($0) }
        let size = (try FileManager.default.attributesOfItem(atPath: state)[.size] as? Int64) ?? 0
        let wal = (try? FileManager.default.attributesOfItem(atPath: state + "-wal")[.size] as? Int64) ?? 0
        #expect(after == (size + wal) / 1000, "\(prune.stdout): file \(size) + wal \(wal)")
    }

    @Test func retentionOptionsAreCheckedAndBelongToPrune() throws {
        let state = freshStatePath()
        for (arguments, message) in [
            // Every `history prune` error starts `history prune: ` (docs/state-and-history.md), the option
            // parser's as well as the verb's own.
            (["history", "prune", "--keep-flows", "0"], "idp-tui: history prune: --keep-flows takes a whole number from 1 to 1000000, not \"0\""),
            (["history", "prune", "--keep-days", "-1"], "idp-tui: history prune: --keep-days takes a whole number of days from 0 (no limit) to 36500, not \"-1\""),
            (["history", "--keep-days", "-1", "prune"], "idp-tui: history prune: --keep-days takes a whole number of days from 0 (no limit) to 36500"),
            (["history", "prune", "--bogus"], "idp-tui: history prune: unknown option --bogus"),
            (["history", "prune", "--keep-flows", "5", "--keep-flows", "6"], "idp-tui: history prune: --keep-flows is given twice"),
            (["history", "export", "1", "--format", "xml"], "idp-tui: history export: --format takes mermaid or json"),
            (["history", "--keep-flows", "5"], "idp-tui: history: --keep-flows is for history prune"),
            (["history", "show", "1", "--keep-flows", "5"], "idp-tui: history show: --keep-flows is for history prune"),
            (["history", "prune", "now"], "history prune: unknown argument \"now\""),
            // The list's options are refused elsewhere rather than ignored (a script would read text as JSON).
            (["history", "show", "1", "--json"], "history show: --json is for the list (idp-tui history --json); one flow as JSON"),
            (["history", "prune", "--limit", "3"], "history prune: --limit is for the list"),
            // A word that is not a verb is the unknown argument it is, not a verb the option is misplaced on.
            (["history", "hunter2", "--keep-flows", "5"], "idp-tui: history: unknown argument"),
            (["history", "hunter2", "--json"], "idp-tui: history: unknown argument"),
            (["history", "hunter2", "--format", "json"], "idp-tui: history: unknown argument"),
            (["history", "show", "1", "--limit", "3"], "history show: --limit is for the list"),
        ] {
            let run = try BinaryRun.run(arguments + ["--state", state])
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }
}
