import Foundation
import StateStore
import Testing

/// State files crafted by hand (or by another tool): idp-tui neither crashes on them nor passes what they hold to
/// the terminal as it is.
@Suite struct CraftedStateTests {
    /// A state file with one activation in it, in a folder of its own.
    private func activated() throws -> String {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation)
        #expect(run.status == 0, "\(run.stderr)")
        return state
    }

    /// idp-tui's own file with its schema version set back by hand: the migration that runs again fails
    /// ("duplicate column name: step", SQLite's words alone, which reset refused too); it is a damaged file, which
    /// the error says and reset moves aside.
    @Test func aSchemaVersionSetBackIsADamagedFileResetMovesAside() throws {
        let state = try activated()
        try StateFile.executeWithoutMigratingForTesting(path: state, "PRAGMA user_version = 1")
        let history = try BinaryRun.run(["history", "--state", state])
        #expect(history.status == 2)
        #expect(history.stderr.contains("is damaged or not an idp-tui state file (schema version 1 does not match its tables"), "\(history.stderr)")
        let reset = try BinaryRun.run(["reset", "--yes", "--state", state])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state))
    }

    /// idp-tui's file at this schema with a table dropped or a column renamed by hand is damaged, and said so before
    /// anything runs: it was used as it was, each flow failing on its own (a login as the IdP's HTTP 500 with nothing
    /// on standard error, the history as exit 74, `history prune` as a success), and `reset` then failed on the
    /// missing table or said it had emptied a file that stayed broken. `reset` moves it aside.
    @Test(arguments: [
        ("DROP TABLE flow_events; DROP TABLE flows", "its tables flow_events and flows are missing"),
        ("DROP TABLE idp_users", "its table idp_users is missing"),
        ("ALTER TABLE flows RENAME COLUMN status TO state", "its column flows.status is missing"),
        ("ALTER TABLE idp_users DROP COLUMN locked_until", "its column idp_users.locked_until is missing"),
    ])
    func aFileWithATableOrColumnGoneIsDamagedAndResetMovesItAside(sql: String, said: String) throws {
        let state = try activated()
        try StateFile.executeWithoutMigratingForTesting(path: state, sql)
        let before = try Data(contentsOf: URL(fileURLWithPath: state))
        for command in [["run", "login"], ["history"], ["history", "prune", "--keep-flows", "1"]] {
            let run = try BinaryRun.run(command + ["--state", state], stdin: Answers.alice)
            #expect(run.status == 2, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("is damaged or not an idp-tui state file (schema version 2 does not match its tables: \(said))"),
                    "\(command): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(command): \(run.stdout)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before, "the file is not changed")
        let reset = try BinaryRun.run(["reset", "--yes", "--state", state])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state))
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
    }

    /// An older file with a table gone is refused as it was, named by its own version: it was migrated (schema 2, WAL
    /// mode) and then refused as "schema version 2".
    @Test func anOlderFileWithATableGoneIsRefusedUnchanged() throws {
        let state = freshStatePath()
        try FileManager.default.createDirectory(atPath: (state as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try StateFile.createForTesting(path: state, version: 1)
        try StateFile.executeWithoutMigratingForTesting(path: state, "DROP TABLE device")
        let before = try Data(contentsOf: URL(fileURLWithPath: state))
        let run = try BinaryRun.run(["run", "logout", "--state", state], stdin: "{}")
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("(schema version 1 does not match its tables: its table device is missing)"), "\(run.stderr)")
        // Its tables and version as they were; only the header's journal mode (bytes 18 and 19) is WAL, as opening
        // any file makes it before its schema is read, with the change counter that write moves (24–27, 92–95).
        var after = try Data(contentsOf: URL(fileURLWithPath: state))
        for byte in [18, 19, 24, 25, 26, 27, 92, 93, 94, 95] { after[byte] = before[byte] }
        #expect(after == before, "the file is not migrated")
    }

    /// A wrong-password count below zero, written by hand, counts from zero: three wrong passwords still lock the
    /// user (with -1000, ten in a row passed without a lock).
    @Test func aNegativeFailureCountStillLocksAfterThreeWrongPasswords() throws {
        let state = try activated()
        try StateFile.executeWithoutMigratingForTesting(path: state, "UPDATE idp_users SET failures = -1000")
        let wrong = #"{"username":"alice","password":"nope"}"#
        let run = try BinaryRun.run(["run", "logout", "login", "login", "login", "login", "--state", state],
                                    stdin: "[{},\(wrong),\(wrong),\(wrong),\(Answers.alice)]")
        #expect(run.status == 1, "\(run.stderr)")
        let last = run.results.last?["status"] as? String
        #expect(last == "LOCKED_USER" || last == "TEMPORARY_LOCKED", "the right password after three wrong ones meets the lock: \(run.stdout)")
    }

    /// Reading an empty file (a run that met a full disk, `touch`) leaves it as it is: `history` built the whole
    /// schema in it.
    @Test func readingAnEmptyFileLeavesItEmpty() throws {
        let state = freshStatePath()
        try FileManager.default.createDirectory(atPath: (state as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        #expect(FileManager.default.createFile(atPath: state, contents: Data(), attributes: [.posixPermissions: 0o600]))
        let history = try BinaryRun.run(["history", "--state", state])
        #expect(history.status == 0 && history.stdout.lowercased().contains("no flows yet"), "\(history.stdout) \(history.stderr)")
        #expect((try FileManager.default.attributesOfItem(atPath: state)[.size] as? Int) == 0)
        #expect(!FileManager.default.fileExists(atPath: state + "-wal") && !FileManager.default.fileExists(atPath: state + "-shm"))
    }

    /// A flow whose row cannot be read is said, not dropped in silence: `history` listed the others and nothing
    /// more, and `history show` said "there is no flow 1".
    @Test func aFlowWhoseRowCannotBeReadIsSaid() throws {
        let state = try activated()
        #expect(try BinaryRun.run(["run", "logout", "--state", state], stdin: "{}").status == 0)
        try StateFile.executeWithoutMigratingForTesting(path: state, "UPDATE flows SET duration_us = 'abc' WHERE id = 1")
        let list = try BinaryRun.run(["history", "--state", state])
        #expect(list.status == 0)
        #expect(list.stdout.contains("logout") && !list.stdout.contains("activate"), "\(list.stdout)")
        #expect(list.stderr == "idp-tui: history: flow 1 in \(state) cannot be read (a damaged or hand-edited row) and is left out\n", "\(list.stderr)")
        let show = try BinaryRun.run(["history", "show", "1", "--state", state])
        #expect(show.status == 2)
        #expect(show.stderr.contains("flow 1 in the state file cannot be read"), "\(show.stderr)")
    }

    /// `PRAGMA user_version = -1` on idp-tui's file: migrating from it indexed the migrations at -1 and trapped
    /// (exit 132, a backtrace) in every command, `reset` included. It is a damaged file of idp-tui's own.
    @Test func aNegativeSchemaVersionIsADamagedFileNotACrash() throws {
        let state = try activated()
        try StateFile.executeWithoutMigratingForTesting(path: state, "PRAGMA user_version = -1")
        for arguments in [["history"], ["run", "logout", "--answers", "-"], ["history", "prune"]] {
            let run = try BinaryRun.run(arguments + ["--state", state], stdin: "{}")
            #expect(run.status == 2, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("is damaged or not an idp-tui state file (schema version -1"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
        }
        let reset = try BinaryRun.run(["reset", "--yes", "--state", state])
        #expect(reset.status == 0, "\(reset.status) \(reset.stderr)")
        #expect(reset.stdout.contains("\(state) → \(state).unreadable-"), "\(reset.stdout)")
        #expect(!FileManager.default.fileExists(atPath: state))
    }

    /// idp-tui's own file (its header whole: application id, schema) with pages after the first overwritten: the
    /// error lines say reset moves a damaged file aside, and reset does (it refused it with that very line,
    /// "database disk image is malformed … nothing was changed").
    @Test func resetMovesAsideItsOwnFileDamagedPastTheHeader() throws {
        let state = try activated()
        let handle = try #require(FileHandle(forUpdatingAtPath: state))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 8192))
        try handle.close()
        let damaged = try Data(contentsOf: URL(fileURLWithPath: state))
        let reset = try BinaryRun.run(["reset", "--yes", "--state", state])
        #expect(reset.status == 0, "\(reset.status) \(reset.stderr)")
        #expect(reset.stdout.contains("\(state) → \(state).unreadable-"), "\(reset.stdout)")
        let folder = (state as NSString).deletingLastPathComponent
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("state.sqlite.unreadable-") }
        #expect(aside.count == 1)
        #expect(try aside.first.map { try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)) } == damaged)
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
    }

    /// Pages damaged inside the file, which opens: the flow that meets them fails with its store, and the run
    /// then says the file is damaged and ends with exit 2, as for a file damaged where it opens (it ended 1, the
    /// damage only in the result's "the identity provider failed (HTTP 500)").
    @Test func aFileDamagedWhereAFlowReadsItEndsTheRunAsBadInput() throws {
        let state = try activated()
        let handle = try #require(FileHandle(forUpdatingAtPath: state))
        try handle.seek(toOffset: 4096 * 3)
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 4096 * 3))
        try handle.close()
        let run = try BinaryRun.run(["run", "login", "login", "--state", state], stdin: "[\(Answers.alice),\(Answers.alice)]")
        #expect(run.status == 2, "\(run.stdout) \(run.stderr)")
        #expect(run.results.count == 1, "no flow starts after the damage: \(run.stdout)")
        #expect(run.stderr.hasPrefix("idp-tui: run: the state file \(state) is damaged"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
    }

    /// The device's page damaged (its cell pointer broken, as the hostile-input tester did): a lookup of the device
    /// finds no row and no error, and the login that read it as "not activated" made a new device over alice's
    /// activation, exit 1, the file called sound. Now the table is checked when no device is found: exit 2, the file
    /// said to be damaged, and nothing written over the device.
    @Test func aDamagedDevicePageIsNotReadAsNoDevice() throws {
        let state = try activated()
        let root = try BinaryRun.run(["-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT rootpage FROM sqlite_master WHERE name = 'device'\").fetchone()[0])", state],
                                     executable: URL(fileURLWithPath: "/usr/bin/python3"))
        let page = try #require(UInt64(root.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(root.stderr)")
        let handle = try #require(FileHandle(forUpdatingAtPath: state))
        try handle.seek(toOffset: 4096 * (page - 1) + 8)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 600))
        try handle.close()
        let damaged = try Data(contentsOf: URL(fileURLWithPath: state))
        let run = try BinaryRun.run(["run", "login", "--state", state], stdin: Answers.alice)
        #expect(run.status == 2, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.hasPrefix("idp-tui: run: the state file \(state) is damaged"), "\(run.stderr)")
        #expect(!run.stdout.contains("ACTIVATION_REQUIRED"), "\(run.stdout)")
        // The device's page is as it was (the flow's record may go to other pages).
        let after = try Data(contentsOf: URL(fileURLWithPath: state))
        let range = Int(4096 * (page - 1))..<Int(4096 * page)
        #expect(after.count >= range.upperBound && after[range] == damaged[range])
        // A piped plain session ends as `run` does: the damage said, exit 2 (it ended 1, as a failed flow).
        let plain = try BinaryRun.run(["--plain", "--state", state], stdin: "2\nq\n")
        #expect(plain.status == 2 && plain.stderr.contains("idp-tui: the state file \(state) is damaged"), "\(plain.status) \(plain.stderr)")
    }

    /// ESC, BEL, a C1 CSI and DEL: what a crafted string would send the terminal.
    private static let controls = "\u{1B}]0;PWN\u{07}\u{9B}2J\u{7F}"

    /// Whether text holds a control character other than the line end.
    private func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    /// The device's user and astClientId are read from the state file into `run`'s events and result: JSONEncoder
    /// escapes C0 there but wrote DEL and C1 raw, so a crafted file sent a CSI to whoever watched the output.
    @Test func runWritesAStateFilesControlCharactersEscaped() throws {
        let state = try activated()
        try StateFile.executeWithoutMigratingForTesting(path: state, "UPDATE device SET user_id = 'alice' || char(27, 93, 48, 59, 80, 87, 78, 7, 155, 50, 74, 127), ast_client_id = 'AST' || char(155, 127)")
        let run = try BinaryRun.run(["run", "logout", "--answers", "-", "--state", state], stdin: "{}")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!hasControl(run.stdout), "\(run.stdout)")
        #expect(run.stdout.contains(#"alice\u001b]0;PWN\u0007\u009b2J\u007f"#), "\(run.stdout)")
        // Escapes in JSON, so the values read back as they are.
        #expect(run.results.first?["user"] as? String == "alice" + Self.controls)
        #expect(run.results.first?["astClientId"] as? String == "AST\u{9B}\u{7F}")
    }

    /// Plain mode printed the device's user (`device: activated as …`) and the events' details as they were.
    @Test func plainModeWritesAStateFilesControlCharactersEscaped() throws {
        let state = try activated()
        try StateFile.executeWithoutMigratingForTesting(path: state, "UPDATE device SET user_id = 'alice' || char(27, 93, 48, 59, 80, 87, 78, 7, 155, 50, 74, 127)")
        let plain = try BinaryRun.run(["--plain", "--state", state], stdin: "2\n")
        #expect(plain.stdout.contains(#"alice\x1B]0;PWN\x07\x9B2J\x7F"#), "\(plain.stdout)")
        #expect(!hasControl(plain.stdout), "\(plain.stdout)")
    }

    /// What `reset` prints on standard output names the path escaped, as its errors do.
    @Test func resetNamesAPathWithControlCharactersEscaped() throws {
        let state = freshStatePath() + Self.controls
        let reset = try BinaryRun.run(["reset", "--state", state])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains(#"\x1B]0;PWN\x07\x9B2J\x7F does not exist"#), "\(reset.stdout)")
        #expect(!hasControl(reset.stdout), "\(reset.stdout)")
    }

    /// A -wal that is a symbolic link, or a -shm that is a folder, beside unreadable bytes: `reset` moved the file
    /// aside and left them at the path (every later run refused them), saying it had moved the file with its
    /// companions; beside a healthy file it said SQLite could not open it. Now refused, and nothing is moved.
    @Test func resetRefusesACompanionThatIsNotAFileAndMovesNothing() throws {
        for (suffix, make) in [("-wal", { (path: String) in try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/etc/passwd") }),
                               ("-shm", { (path: String) in try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) })] {
            for healthy in [false, true] {
                let state = try activated()
                let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
                if !healthy { try garbage.write(to: URL(fileURLWithPath: state)) }
                try make(state + suffix)
                let bytes = try Data(contentsOf: URL(fileURLWithPath: state))
                let reset = try BinaryRun.run(["reset", "--yes", "--state", state])
                let what = suffix == "-wal" ? "a symbolic link" : "a folder"
                #expect(reset.status == 2, "\(suffix) \(healthy): \(reset.stdout)")
                #expect(reset.stderr == "idp-tui: reset: \(state + suffix) is \(what), not a state file"
                        + (suffix == "-wal" ? " (idp-tui does not follow links for its state file: name the file itself)" : "")
                        + "; nothing was changed\n", "\(suffix) \(healthy): \(reset.stderr)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == bytes)
                let folder = (state as NSString).deletingLastPathComponent
                #expect(try !FileManager.default.contentsOfDirectory(atPath: folder).contains { $0.contains("unreadable") })
            }
        }
    }

    /// `--state :memory:` and `--state 'file:state?mode=memory'` are names of files in the current folder: SQLite
    /// took the first, and the second as a URI (the system's library takes URIs), for a database in memory, and the
    /// run kept nothing, exit 0, leaving an empty file behind.
    @Test func namesSQLiteWouldReadAsMemoryAreFiles() throws {
        let folder = scratchPath("idp-tui-names")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in [":memory:", "file:state.sqlite?mode=memory"] {
            let run = try BinaryRun.run(["-c", "cd \"$0\" && exec \"$1\" run logout --answers - --state \"$2\"", folder, BinaryRun.executable.path, name],
                                        stdin: "{}", executable: URL(fileURLWithPath: "/bin/sh"))
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let file = try StateFile(path: folder + "/" + name)
            #expect(try file.queryForTesting("SELECT count(*) FROM flows") == [["1"]], "\(name)")
            file.close()
        }
    }
}

/// A user name with a bidirectional override or a line separator is printed escaped by `history`, its transcript
/// and `run`'s JSON: "evil\u{202E}gnp.exe" showed as "evilexe.png" (a QA tester's report).
@Suite struct BidiControlTests {
    @Test func historyAndRunEscapeBidiControlsAndSeparators() throws {
        let state = freshStatePath()
        let name = "evil\u{202E}gnp.exe\u{2028}x"
        let answers = #"{"username":"evil\u202egnp.exe\u2028x","password":"nope"}"#
        let run = try BinaryRun.run(["run", "q2-login", "--state", state, "--answers", "-"], stdin: answers)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(!run.stdout.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{2028}" }, "\(run.stdout)")
        #expect(run.results.first?["q2"].flatMap { ($0 as? [String: Any])?["username"] as? String } == name, "JSON escapes read back")
        for arguments in [["history", "--state", state], ["history", "show", "1", "--state", state]] {
            let history = try BinaryRun.run(arguments)
            #expect(history.status == 0, "\(history.stderr)")
            #expect(!history.stdout.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{2028}" }, "\(history.stdout)")
            #expect(history.stdout.contains(#"evil\u{202E}gnp.exe\u{2028}x"#), "\(arguments): \(history.stdout)")
        }
    }
}

/// A flow whose history record cannot be written (a full disk; here a trigger that fails every record as a full
/// disk does): its result line is printed with `historyError` in place of `historyId`, and `run` ends with 74 and
/// one line on stderr. It exited 0 with nothing said, though the docs promise that a printed result is in the file.
@Suite struct UnsavedFlowRunTests {
    @Test func aPrintedResultTheFileDoesNotHoldEndsTheRunWith74() throws {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "logout", "--answers", "-", "--state", state], stdin: "{}").status == 0)
        try StateFile.executeWithoutMigratingForTesting(
            path: state, "CREATE TRIGGER full BEFORE INSERT ON flows BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END")
        let run = try BinaryRun.run(["run", "payer-auth", "--state", state], stdin: #"{"card":"4000000000002701","expiry":"12/30"}"#)
        #expect(run.status == 74, "\(run.status) \(run.stderr)")
        let result = try #require(run.results.first)
        #expect(result["outcome"] as? String == "success" && result["historyId"] == nil)
        #expect((result["historyError"] as? String)?.hasPrefix("this flow was not saved to the history: ") == true, "\(result)")
        #expect(!run.events.contains { $0["step"] as? String == "fault injected" }, "no fault was on")
        #expect(run.stderr.hasSuffix("idp-tui: run: flow 1 (payer-auth) was not saved to the history: the state file \(state): database or disk is full\n"),
                "\(run.stderr)")
        // Several: still one line, which says how many more (it named the first alone, as if one flow were lost).
        let card = #"{"card":"4000000000002701","expiry":"12/30"}"#
        let three = try BinaryRun.run(["run", "payer-auth", "payer-auth", "payer-auth", "--state", state], stdin: "[\(card),\(card),\(card)]")
        #expect(three.status == 74 && three.results.count == 3, "\(three.status) \(three.stderr)")
        #expect(three.stderr.hasSuffix(
            "idp-tui: run: flow 1 (payer-auth) was not saved to the history: the state file \(state): database or disk is full; nor were 2 more flows (each result line has historyError)\n"),
            "\(three.stderr)")
        // Bad input stays 2, with its own line only: the abandoned flow printed no result (it exited 74).
        let bad = try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.alice)
        #expect(bad.status == 2 && bad.stderr.split(separator: "\n").count == 1, "\(bad.status) \(bad.stderr)")
    }

    /// A piped plain session ends as `run` does: 74 and the line on stderr (it exited 0 with nothing said).
    @Test func aPipedPlainSessionWithAFlowTheFileDoesNotHoldEndsWith74() throws {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "logout", "--answers", "-", "--state", state], stdin: "{}").status == 0)
        try StateFile.executeWithoutMigratingForTesting(
            path: state, "CREATE TRIGGER full BEFORE INSERT ON flows BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END")
        let run = try BinaryRun.run(["--plain", "--state", state], stdin: "4\n4000000000002701\n12/30\n\n\n\n\nq\n")
        #expect(run.status == 74, "\(run.status) \(run.stderr)")
        #expect(run.stderr.hasSuffix("idp-tui: flow 1 (payer-auth) was not saved to the history: the state file \(state): database or disk is full\n"),
                "\(run.stderr)")
        // A session stopped at a refused answer says the flow it aborted was not kept (it said "recorded").
        let refused = try BinaryRun.run(["--plain", "--state", state], stdin: "1\n\nwonderland\n")
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix("; Activate device aborted, not recorded: the state file \(state): database or disk is full\n"),
                "\(refused.stderr)")
    }

    /// A device the MC-SDK cannot store (a full disk; here triggers that fail every write of it) fails StartEvent
    /// with INTERNAL_ERROR: the advice says so, not that a runtime error restarted the MC-SDK and spent the
    /// activation code (which sent the user to `reset`, throwing their state away, with the code unused).
    @Test(arguments: ["activate", "legacy-activate"])
    func aDeviceThatCannotBeStoredIsNotCalledARuntimeError(flow: String) throws {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "logout", "--answers", "-", "--state", state], stdin: "{}").status == 0)
        for event in ["INSERT", "UPDATE"] {
            try StateFile.executeWithoutMigratingForTesting(
                path: state, "CREATE TRIGGER full_\(event) BEFORE \(event) ON device BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END")
        }
        let run = try BinaryRun.run(["run", flow, "--state", state], stdin: Answers.aliceActivation)
        let result = try #require(run.results.first, "\(run.stderr)")
        #expect(result["status"] as? String == "INTERNAL_ERROR" && result["failedStep"] as? String == "Start", "\(result)")
        let advice = result["advice"] as? String ?? ""
        #expect(advice.hasPrefix("The MC-SDK could not read or store the device") && !advice.contains("runtime error") && !advice.contains("spent"),
                "\(advice)")
    }
}
