import Foundation
import StateStore
import Testing
import Threading

#if canImport(Glibc)
    import Glibc
#endif

/// `reset` and the state path are safe by construction; the files are the user's alone; every way a run ends
/// leaves every completed flow in the state file itself.
@Suite struct StateSafetyTests {
    /// A folder of its own for one test's files.
    private func folder() throws -> String {
        let folder = scratchPath("idp-tui-safety")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// What is in a folder, by name, with each regular file's bytes.
    private func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            var info = stat()
            lstat(folder + "/" + name, &info)
            files[name] = info.st_mode & S_IFMT == S_IFREG ? try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)) : Data("<not a file>".utf8)
        }
        return files
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        lstat(path, &info)
        return info.st_mode & 0o777
    }

    /// A journal's name (FILE-wal, -shm, -journal) is not a state file: a run kept a new file there that the next
    /// run of FILE deleted as its journal, and `reset` moved FILE's live journal aside (its newest flows lost).
    @Test func aJournalsNameIsRefusedAndNothingMoves() throws {
        let folder = try folder()
        let state = folder + "/g.sqlite"
        #expect(try BinaryRun.run(["run", "logout", "--state", state]).status == 0)
        // The journal of a run killed before its checkpoint, as a crash leaves it.
        try Data("journal".utf8).write(to: URL(fileURLWithPath: state + "-wal"))
        let before = try snapshot(folder)
        for suffix in ["-wal", "-shm", "-journal"] {
            for arguments in [["run", "logout"], ["reset", "--yes"], ["history"]] {
                let run = try BinaryRun.run(arguments + ["--state", state + suffix])
                #expect(run.status == 2 && run.stdout.isEmpty, "\(arguments) \(suffix): \(run.stdout)")
                #expect(run.stderr == "idp-tui: \(arguments[0]): --state takes the state file, not a journal SQLite keeps beside one (a name ending in \"\(suffix)\")\n",
                        "\(run.stderr)")
            }
        }
        #expect(try snapshot(folder) == before)
        // With no file beside it too: a state file made there later would be taken for that file's journal once it is
        // made (and deleted with its history).
        let alone = try BinaryRun.run(["run", "logout", "--state", folder + "/new.db-wal"])
        #expect(alone.status == 2 && !FileManager.default.fileExists(atPath: folder + "/new.db-wal"), "\(alone.stderr)")
    }

    @Test func resetRefusesWhatIsNotAStateFileAndMovesNothing() throws {
        let folder = try folder()
        try FileManager.default.createDirectory(atPath: folder + "/a-folder", withIntermediateDirectories: false)
        #expect(mkfifo(folder + "/a-fifo", 0o600) == 0)
        try Data("name = value\n".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        let other = folder + "/recipes.db"
        try StateFile.createForTesting(path: other, version: 0)
        try StateFile.executeWithoutMigratingForTesting(path: other, "PRAGMA application_id = 1; CREATE TABLE recipes (name TEXT)")
        let newer = folder + "/newer.sqlite"
        try StateFile(path: newer).executeForTesting("PRAGMA user_version = 99")
        let healthy = folder + "/state.sqlite"
        #expect(try BinaryRun.run(["run", "activate", "--state", healthy], stdin: Answers.aliceActivation).status == 0)
        #expect(symlink(healthy, folder + "/a-link") == 0)
        let before = try snapshot(folder)

        let cases: [(String, String)] = [
            ("a-folder", "is a folder, not a state file"),
            ("a-fifo", "is a FIFO, not a state file"),
            ("a-link", "is a symbolic link, not a state file"),
            ("notes.txt", "is a text file, not an idp-tui state file"),
            ("recipes.db", "is another program's SQLite database, not an idp-tui state file"),
            ("newer.sqlite", "was written by a newer idp-tui (schema 99"),
        ]
        for (name, message) in cases {
            let reset = try BinaryRun.run(["reset", "--state", folder + "/" + name])
            #expect(reset.status == 2, "\(name)")
            #expect(reset.stderr.contains(message), "\(name): \(reset.stderr)")
            #expect(reset.stderr.contains("nothing was changed"), "\(name)")
            #expect(reset.stderr.split(separator: "\n").count == 1, "\(name)")
        }
        let device = try BinaryRun.run(["reset", "--state", "/dev/null"])
        #expect(device.status == 2 && device.stderr.contains("/dev/null is a device, not a state file"))
        #expect(try snapshot(folder) == before)
        #expect(try StateFile(path: healthy).queryForTesting("SELECT count(*) FROM flows") == [["1"]])
    }

    /// The commands that open a state file to use it refuse another program's database or a text file without
    /// touching it: not its bytes (SQLite's journal mode lives in the header), not its permissions.
    @Test func commandsThatRefuseAFileLeaveItsBytesAndModeAsTheyWere() throws {
        let folder = try folder()
        let other = folder + "/recipes.db"
        try StateFile.createForTesting(path: other, version: 0)
        try StateFile.executeWithoutMigratingForTesting(path: other, "PRAGMA application_id = 1; CREATE TABLE recipes (name TEXT)")
        chmod(other, 0o644)
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        chmod(folder + "/notes.txt", 0o664)
        let before = try snapshot(folder)
        for name in ["recipes.db", "notes.txt"] {
            for arguments in [["history"], ["history", "show", "1"], ["history", "prune", "--keep-flows", "5"], ["run", "logout"]] {
                let run = try BinaryRun.run(arguments + ["--state", folder + "/" + name], stdin: "")
                #expect(run.status == 2, "\(arguments) \(name): \(run.stderr)")
            }
        }
        #expect(try snapshot(folder) == before)
        #expect(mode(other) == 0o644 && mode(folder + "/notes.txt") == 0o664)
    }

    @Test func resetRefusesAHealthyFileLockedByAnotherProcess() throws {
        let state = try folder() + "/state.sqlite"
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        // This process holds the write lock, as a long write would, past reset's 10 s wait.
        let holder = try StateFile(path: state)
        try holder.executeForTesting("BEGIN IMMEDIATE")
        let reset = try BinaryRun.run(["reset", "--state", state])
        try holder.executeForTesting("ROLLBACK")
        #expect(reset.status == 2)
        #expect(reset.stderr.contains("\(state) is in use: another process held its lock for over 10 s; nothing was changed"), "\(reset.stderr)")
        let siblings = try FileManager.default.contentsOfDirectory(atPath: (state as NSString).deletingLastPathComponent)
        #expect(!siblings.contains { $0.contains("unreadable") })
        #expect(try holder.queryForTesting("SELECT count(*) FROM flows") == [["1"]])
    }

    @Test func resetMovesUnreadableBytesOnlyWhenNoOtherProcessHasThemOpen() throws {
        let state = try folder() + "/state.sqlite"
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: state))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: state + "-wal"))
        let open = try #require(FileHandle(forReadingAtPath: state))
        let refused = try BinaryRun.run(["reset", "--state", state])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("is open in another process (pid \(getpid()))"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was moved"))
        try open.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == garbage)

        let reset = try BinaryRun.run(["reset", "--state", state])
        #expect(reset.status == 0, "\(reset.stderr)")
        let lines = reset.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(reset.stdout)")
        #expect(lines.first?.contains("could not be read; it was kept, not deleted") == true)
        let moved = lines.dropFirst().map { $0.trimmingCharacters(in: .whitespaces).components(separatedBy: " → ") }
        #expect(moved.map { $0[0] } == [state, state + "-wal"])
        #expect(moved.allSatisfy { $0[1].hasPrefix(state + ".unreadable-") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: moved[0][1])) == garbage)
        #expect(try Data(contentsOf: URL(fileURLWithPath: moved[1][1])) == Data([1, 2, 3]))
        #expect(!FileManager.default.fileExists(atPath: state) && !FileManager.default.fileExists(atPath: state + "-wal"))
    }

    @Test func resetGivesTheSpaceBack() throws {
        let state = try folder() + "/state.sqlite"
        let flows = Array(repeating: ["login", "logout"], count: 100).flatMap { $0 }
        _ = try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation)
        _ = try BinaryRun.run(["run"] + flows + ["--state", state], stdin: "[" + Array(repeating: "\(Answers.alice),{}", count: 100).joined(separator: ",") + "]")
        let full = try #require(FileManager.default.attributesOfItem(atPath: state)[.size] as? Int)
        let reset = try BinaryRun.run(["reset", "--state", state])
        #expect(reset.status == 0 && reset.stdout.contains("are reset ("))
        let empty = try #require(FileManager.default.attributesOfItem(atPath: state)[.size] as? Int)
        #expect(empty * 4 < full, "\(full) → \(empty) bytes")
    }

    /// The folders made for a file named with --state are said (a mistyped folder made a new tree and an empty
    /// state, nothing said); once made, nothing is said. `--state -` is refused: it made a file named `-`.
    @Test func foldersMadeForAStateFileNamedWithTheOptionAreSaid() throws {
        let folder = try folder()
        let state = folder + "/made/here/state.sqlite"
        let first = try BinaryRun.run(["run", "logout", "--state", state])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == "idp-tui: note: made the folder \(folder)/made and 1 inside it for the new state file \(state) "
            + "(check the path given with --state if you meant an existing one)\n")
        let again = try BinaryRun.run(["run", "logout", "--state", state])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        let dash = try BinaryRun.run(["run", "logout", "--state", "-"])
        #expect(dash.status == 2)
        #expect(dash.stderr == "idp-tui: run: --state takes a file, not - (standard input cannot keep state): name a file, or use --ephemeral\n")
    }

    @Test func theFilesAreTheUsersAloneWhateverTheUmask() throws {
        let folder = try folder()
        let state = folder + "/made/here/state.sqlite"
        // A shell with umask 000 runs idp-tui; then this process holds the file open, so that the -wal and -shm stay.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "umask 000; printf '%s' \"$2\" | \"$0\" run activate --state \"$1\"", BinaryRun.executable.path, state,
                           Answers.aliceActivation]
        shell.standardOutput = FileHandle.nullDevice
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        shell.waitUntilExit()
        #expect(mode(folder + "/made") == 0o700)
        #expect(mode(folder + "/made/here") == 0o700)
        #expect(mode(state) == 0o600)
        let holder = try StateFile(path: state)
        _ = try holder.queryForTesting("SELECT count(*) FROM flows")
        #expect(mode(state + "-wal") == 0o600 && mode(state + "-shm") == 0o600)

        // An existing file that others could read is tightened; a folder others can write to is warned about.
        let loose = folder + "/loose"
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: false)
        chmod(loose, 0o775)
        _ = try StateFile(path: loose + "/state.sqlite")
        chmod(loose + "/state.sqlite", 0o644)
        let run = try BinaryRun.run(["run", "activate", "--state", loose + "/state.sqlite"], stdin: Answers.aliceActivation)
        #expect(run.status == 0)
        #expect(mode(loose + "/state.sqlite") == 0o600)
        // An executable bit is no part of a state file: 0755 is set back to 600 too, as docs/state-and-history.md says.
        chmod(loose + "/state.sqlite", 0o755)
        #expect(try BinaryRun.run(["history", "--state", loose + "/state.sqlite"]).status == 0)
        #expect(mode(loose + "/state.sqlite") == 0o600)
        #expect(run.stderr == "idp-tui: warning: the folder \(loose) holding the state file can be written by its group (mode 775); chmod 700 \(loose)\n")

        // A shared folder such as /tmp (sticky, 1777): its mode as ls shows it, the sticky bit with it (it said 777).
        chmod(loose, 0o1777)
        let shared = try BinaryRun.run(["history", "--state", loose + "/state.sqlite"])
        // It is not the user's to close (chmod 700 /tmp breaks every other user of it): the advice is a folder of one's own.
        #expect(shared.stderr == "idp-tui: warning: the folder \(loose) holding the state file can be written by anyone (mode 1777); keep the state file in a folder of your own (mkdir -m 700 FOLDER, then --state FOLDER/state.sqlite)\n")

        // A folder whose name a shell would split or read: the advice quotes it (`chmod 700 /tmp/g w` named two).
        let spaced = folder + "/it's a folder"
        try FileManager.default.createDirectory(atPath: spaced, withIntermediateDirectories: false)
        chmod(spaced, 0o775)
        let quoted = try BinaryRun.run(["run", "logout", "--state", spaced + "/state.sqlite"], stdin: "{}")
        #expect(quoted.stderr.contains("; chmod 700 '\(spaced.replacingOccurrences(of: "'", with: "'\\''"))'\n"), "\(quoted.stderr)")
    }

    @Test func aSymlinkedStatePathIsRefusedAndItsTargetUntouched() throws {
        let folder = try folder()
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        #expect(symlink(folder + "/notes.txt", folder + "/state.sqlite") == 0)
        for arguments in [["run", "activate"], ["history"], ["run", "logout"]] {
            // A logout's answers are checked too: activate's would be refused before the state file is opened.
            let answers = arguments.last == "logout" ? "{}" : Answers.aliceActivation
            let run = try BinaryRun.run(arguments + ["--state", folder + "/state.sqlite"], stdin: answers)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains("is a symbolic link, not a state file"), "\(arguments): \(run.stderr)")
        }
        #expect(try String(contentsOfFile: folder + "/notes.txt", encoding: .utf8) == "my notes\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["notes.txt", "state.sqlite"])
    }

    /// Only the state file itself must not be a link: a home, `~/.local` or project folder reached through one is
    /// as usual as any (SQLite's no-follow refuses a link anywhere on the path, and every command failed with
    /// "unable to open database file", leaving an empty file behind).
    @Test func foldersReachedThroughLinksHoldTheStateFileAsAnyOther() throws {
        let folder = try folder()
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: false)
        #expect(symlink(folder + "/real", folder + "/linked") == 0)
        // The default path under a linked XDG_STATE_HOME, then --state through the linked folder.
        let environment = ["XDG_STATE_HOME": folder + "/linked"]
        let activation = try BinaryRun.run(["run", "activate"], stdin: Answers.aliceActivation, environment: environment)
        #expect(activation.status == 0, "\(activation.stderr)")
        let byOption = ["--state", folder + "/linked/idp-tui/state.sqlite"]
        let login = try BinaryRun.run(["run", "logout"] + byOption, stdin: "{}")
        #expect(login.status == 0, "\(login.stderr)")
        let history = try BinaryRun.run(["history"] + byOption)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("activate") && history.stdout.contains("logout"), "\(history.stdout)")
        let pruned = try BinaryRun.run(["history", "prune", "--keep-flows", "1"] + byOption)
        #expect(pruned.status == 0, "\(pruned.stderr)")
        let reset = try BinaryRun.run(["reset", "--yes"] + byOption)
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/real/idp-tui") == ["state.sqlite"])
        #expect(mode(folder + "/real/idp-tui/state.sqlite") == 0o600)
    }

    /// A relative state path in a folder whose name is not UTF-8 (`caf\xE9`, Latin-1): it went to SQLite as given
    /// before links in folders were resolved, and must still (a Swift string of the real name would not name it).
    @Test func aRelativeStatePathWorksInAFolderWhoseNameIsNotUTF8() throws {
        let folder = try folder()
        let odd = Array(folder.utf8) + Array("/caf".utf8) + [0xE9]
        #expect(mkdir(odd.map { CChar(bitPattern: $0) } + [0], 0o700) == 0)
        let script = #"cd "$(printf '%s/caf\351' "$1")" && "$0" run logout --state s.sqlite < /dev/null && "$0" history --state s.sqlite"#
        let run = try BinaryRun.run(["-c", script, BinaryRun.executable.path, folder], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("logout"), "\(run.stdout)")
    }

    /// A link that leads nowhere is something at the path, not a new user's missing file: every command refuses
    /// it as it refuses any link (it read as "no flows yet" and "nothing to reset", exit 0), and makes nothing.
    @Test func aDanglingLinkAtTheDefaultPathIsRefusedNotReadAsNoFlows() throws {
        let home = try folder()
        let state = home + "/idp-tui/state.sqlite"
        try FileManager.default.createDirectory(atPath: home + "/idp-tui", withIntermediateDirectories: false)
        #expect(symlink(home + "/nowhere.sqlite", state) == 0)
        let refusal = "\(state) is a symbolic link, not a state file (idp-tui does not follow links for its state file: name the file itself)"
        let commands: [(arguments: [String], prefix: String, end: String)] = [
            (["history"], "history", "; name another file with --state"),
            (["history", "--json"], "history", "; name another file with --state"),
            (["history", "prune"], "history prune", "; name another file with --state"),
            (["history", "prune", "--keep-flows", "5"], "history prune", "; name another file with --state"),
            (["reset"], "reset", "; nothing was changed"),
            (["run", "logout"], "run", "; name another file with --state"),
        ]
        for command in commands {
            let run = try BinaryRun.run(command.arguments, stdin: "{}", environment: ["XDG_STATE_HOME": home])
            #expect(run.status == 2, "\(command.arguments): \(run.stdout)")
            #expect(run.stdout.isEmpty, "\(command.arguments)")
            #expect(run.stderr == "idp-tui: \(command.prefix): \(refusal)\(command.end)\n", "\(command.arguments)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home) == ["idp-tui"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/idp-tui") == ["state.sqlite"])
    }

    /// Copies only the state file itself to a folder of its own and counts the flows it holds.
    private func flowsInACopyOfTheFileAlone(_ state: String) throws -> Int {
        let copy = try folder() + "/copy.sqlite"
        try FileManager.default.copyItem(atPath: state, toPath: copy)
        return Int(try StateFile(path: copy).queryForTesting("SELECT count(*) FROM flows").first?.first ?? "") ?? -1
    }

    @Test func theFileAloneHoldsEveryCompletedFlowWhateverTheExit() throws {
        let state = try folder() + "/state.sqlite"
        let wrong = #"{"username":"alice","password":"nope"}"#
        let runs: [(arguments: [String], stdin: String, status: Int32)] = [
            (["run", "activate"], Answers.aliceActivation, 0),
            (["run", "logout", "login"], "[{},\(wrong)]", 1),
            (["run", "login"], #"{"cancel":true}"#, 3),
            (["run", "logout", "login"], "[{},\(Answers.alice),{\"surprise\":1}]", 2),
        ]
        var completed = 0
        for run in runs {
            let result = try BinaryRun.run(run.arguments + ["--state", state], stdin: run.stdin)
            #expect(result.status == run.status, "\(run.arguments): \(result.stderr)")
            completed += result.results.count
            #expect(!FileManager.default.fileExists(atPath: state + "-wal"), "\(run.arguments)")
            #expect(try flowsInACopyOfTheFileAlone(state) == completed, "\(run.arguments)")
        }
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGINT, SIGQUIT])
    func aSignalEndsARunWithEveryCompletedFlowInTheFileAlone(_ signal: Int32) throws {
        let state = try folder() + "/state.sqlite"
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        let run = try BackgroundRun(flows: Array(repeating: ["login", "logout"], count: 500).flatMap { $0 },
                                    answers: "[" + Array(repeating: "\(Answers.alice),{}", count: 500).joined(separator: ",") + "]", state: state)
        run.waitForResults(20)
        kill(run.process.processIdentifier, signal)
        run.finish()
        let process = run.process
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + signal)
        let printed = run.results
        #expect(printed >= 20 && printed < 1000)
        #expect(!FileManager.default.fileExists(atPath: state + "-wal"))
        // The activation, and every flow whose result was printed; flows recorded whose result line had not been
        // written yet when the signal came are kept too (the runner prints on its own thread).
        let kept = try flowsInACopyOfTheFileAlone(state)
        #expect(kept >= printed + 1 && kept <= 1001, "\(kept) kept, \(printed) printed")
    }
}

/// `--state NEW/` names a folder: refused by every command with nothing made (`run` made the folder, then said
/// it was one).
@Suite struct FolderNamedStateTests {
    @Test func aStatePathEndingInASlashIsRefusedAndNothingIsMade() throws {
        let folder = scratchPath("idp-tui-slash")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for named in [folder + "/new/", folder + "/new/.", folder + "/new/.."] {
            for arguments in [["run", "logout"], ["history"], ["reset", "--yes"], ["history", "prune"]] {
                let run = try BinaryRun.run(arguments + ["--state", named], stdin: "{}")
                #expect(run.status == 2, "\(arguments): \(run.stderr)")
                #expect(run.stderr.contains("\(named) is a folder's name"), "\(arguments): \(run.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/new"))
    }
}
