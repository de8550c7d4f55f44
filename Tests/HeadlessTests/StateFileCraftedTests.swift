import Foundation
import StateStore
import Testing
import Threading

#if canImport(Glibc)
    import Glibc
#endif

/// A crafted state file cannot reach the terminal: every string read from it is printed with its control
/// characters escaped.
@Suite struct CraftedStateFileTests {
    @Test func historyShowAndTheExportsEscapeControlCharacters() throws {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        let file = try StateFile(path: state)
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m"
        try file.executeForTesting("""
            UPDATE flows SET user = '\(hostile)', status = 'OK\(hostile)', result_json = '{"status":"\(hostile)"}';
            UPDATE flow_events SET event_json = json_set(event_json, '$.detail', '\(hostile)', '$.from', 'App\(hostile)');
            """)
        file.close()
        for arguments in [["history"], ["history", "--json"], ["history", "show", "1"], ["history", "export", "1", "--format", "mermaid"],
                          ["history", "export", "1", "--format", "json"]] {
            let run = try BinaryRun.run(arguments + ["--state", state])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            let bytes = Array(run.stdout.utf8)
            #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "\(arguments)")
            #expect(!run.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "\(arguments)")
            #expect(run.stdout.contains("owned"), "\(arguments): the text is still shown")
        }
        let table = try BinaryRun.run(["history", "--state", state])
        #expect(table.stdout.contains("\\x1B]0;owned\\x07\\x1B[2J\\x9B31m"), "\(table.stdout)")
    }
    /// A damaged result (not JSON) is exported as null, its text beside it as `unreadableResult`: the export stays
    /// one JSON document, its `result` an object or null (it was the text, a string, and nothing said so); the
    /// transcript says the result could not be read (its error and next step lines were left out silently).
    @Test func aDamagedResultStillExportsAsJSON() throws {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        let file = try StateFile(path: state)
        try file.executeForTesting("UPDATE flows SET result_json = 'not json'")
        file.close()
        let run = try BinaryRun.run(["history", "export", "1", "--format", "json", "--state", state])
        #expect(run.status == 0, "\(run.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(document?["result"] is NSNull, "\(run.stdout)")
        #expect(document?["unreadableResult"] as? String == "not json", "\(run.stdout)")
        let show = try BinaryRun.run(["history", "show", "1", "--state", state])
        #expect(show.stdout.contains("damaged: this flow's result could not be read from the state file (its error and next step are left out)"),
                "\(show.stdout)")
    }

    /// A stored result written with line breaks and tabs between its members exports as
    /// JSON: they became `\u000a` tokens between the members, and no parser read the export.
    @Test func aStoredResultWithWhitespaceStillExportsAsJSON() throws {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        let file = try StateFile(path: state)
        try file.executeForTesting("UPDATE flows SET result_json = '{' || char(10) || '\"flow\":\"activate\",' || char(9) || '\"note\":\"a b\"}'")
        file.close()
        let run = try BinaryRun.run(["history", "export", "1", "--format", "json", "--state", state])
        #expect(run.status == 0, "\(run.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let result = document?["result"] as? [String: Any]
        #expect(result?["flow"] as? String == "activate" && result?["note"] as? String == "a b", "\(run.stdout)")
    }

    /// An event row that cannot be read is counted and said: `history show` and the export had left it out with
    /// nothing said, a transcript that looked whole.
    @Test func aDamagedEventIsSaidNotSilentlyLeftOut() throws {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        let file = try StateFile(path: state)
        let whole = try #require(Int(file.queryForTesting("SELECT count(*) FROM flow_events").first?.first ?? ""))
        try file.executeForTesting("UPDATE flow_events SET event_json = 'not json' WHERE sequence IN (2, 3)")
        file.close()
        let show = try BinaryRun.run(["history", "show", "1", "--state", state])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("damaged: 2 of this flow's events could not be read from the state file and are left out"), "\(show.stdout)")
        let export = try BinaryRun.run(["history", "export", "1", "--format", "json", "--state", state])
        let document = try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any]
        #expect(document?["unreadableEvents"] as? Int == 2, "\(export.stdout)")
        #expect((document?["events"] as? [Any])?.count == whole - 2)
    }
}

/// One device, however many processes share its state file.
@Suite struct ConcurrentActivationTests {
    @Test func twoActivationsAtOnceActivateTheDeviceOnce() throws {
        let state = freshStatePath()
        _ = try StateFile(path: state)
        let answers = [
            #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"addedLatencyMs":100}}"#,
            #"{"username":"bob","password":"builder","activation-code":"654321","faults":{"addedLatencyMs":100}}"#,
        ]
        let runs = Locked<[BinaryRun]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            do {
                let run = try BinaryRun.run(["run", "activate", "--state", state, "--seed", "\(index + 1)"], stdin: answers[index])
                runs.withLock { $0.append(run) }
            } catch {
                Issue.record("run \(index): \(error)")
            }
        }
        let results = runs.withLock { $0 }.compactMap(\.results.first)
        #expect(results.count == 2, "\(runs.withLock { $0 }.map { "\($0.status) \($0.stderr) \($0.stdout.suffix(300))" })")
        #expect(results.count == 2)
        let winners = results.filter { $0["outcome"] as? String == "success" }
        #expect(winners.count == 1, "\(results.map { $0["status"] ?? "?" })")
        let loser = results.first { $0["outcome"] as? String != "success" }
        #expect(loser?["status"] as? String == "INVALID_STATE", "\(String(describing: loser))")
        // The winner's activation is the device's: its user logs in.
        let user = try #require(winners.first?["user"] as? String)
        let password = user == "alice" ? "wonderland" : "builder"
        let login = try BinaryRun.run(["run", "login", "--state", state], stdin: #"{"username":"\#(user)","password":"\#(password)"}"#)
        #expect(login.results.first?["outcome"] as? String == "success", "\(login.stdout)")
    }
}

/// A state file on a full disk (a small tmpfs, where this machine lets the tests mount one).
@Suite(.serialized) struct FullDiskTests {
    /// Mounts a 400 KiB tmpfs on a new folder; nil where mounting is not allowed (not root, no CAP_SYS_ADMIN).
    static func mountSmallDisk() -> String? {
        let folder = scratchPath("idp-tui-full-disk")
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
            let run = try? BinaryRun.run(["-t", "tmpfs", "-o", "size=400k", "tmpfs", folder], executable: URL(fileURLWithPath: "/bin/mount")),
            run.status == 0
        else { return nil }
        return folder
    }

    static let canMount: Bool = {
        guard let folder = mountSmallDisk() else { return false }
        _ = try? BinaryRun.run([folder], executable: URL(fileURLWithPath: "/bin/umount"))
        return true
    }()

    /// A new process cannot make the -shm on a full disk: SQLite calls it a disk I/O error, which sent the user
    /// looking for a failing disk. The line says the disk is full.
    @Test(.enabled(if: canMount)) func aFullDiskIsCalledFullNotAnIOError() throws {
        let disk = try #require(Self.mountSmallDisk())
        defer { _ = try? BinaryRun.run([disk], executable: URL(fileURLWithPath: "/bin/umount")) }
        let folder = disk + "/state"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let state = folder + "/state.sqlite"
        #expect(try BinaryRun.run(["run", "logout", "--answers", "-", "--state", state], stdin: "{}").status == 0)
        // Fill the disk, and take the companions away, as a new day on a full disk finds them.
        _ = try BinaryRun.run(["if=/dev/zero", "of=\(disk)/fill", "bs=4k"], executable: URL(fileURLWithPath: "/bin/dd"))
        for companion in ["-shm", "-wal"] { try? FileManager.default.removeItem(atPath: state + companion) }
        let history = try BinaryRun.run(["history", "--state", state])
        #expect(history.status == 2)
        #expect(history.stderr.contains("the disk holding the state file \(state) is full"), "\(history.stderr)")
    }
}

/// A state file run with another scenario than before says that its records carry over: a new scenario's code for
/// the same user was refused as already used, with nothing said about the file.
@Suite struct ScenarioSwitchTests {
    @Test func anotherScenarioOnTheSameFileIsSaidOnce() throws {
        let state = freshStatePath()
        let scenario = scenarioPath("bank-qa")
        #expect(try BinaryRun.run(["run", "logout", "--state", state], stdin: "{}").status == 0)
        // A run stopped for bad input before anything ran records no scenario (the next run then said nothing).
        let stopped = try BinaryRun.run(["run", "q2-login", "--state", state, "--scenario", scenario], stdin: #"{"username":"alice"}"#)
        #expect(stopped.status == 2 && !stopped.stderr.contains("last used with scenario"), "\(stopped.stderr)")
        let switched = try BinaryRun.run(["run", "logout", "--state", state, "--scenario", scenario], stdin: "{}")
        #expect(switched.stderr.contains("was last used with scenario \"demo\": its device, spent activation codes and locks carry over to \"bank-qa\""),
                "\(switched.stderr)")
        let again = try BinaryRun.run(["run", "logout", "--state", state, "--scenario", scenario], stdin: "{}")
        #expect(!again.stderr.contains("last used with scenario"), "\(again.stderr)")
    }
}
