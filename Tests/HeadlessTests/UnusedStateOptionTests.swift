import Foundation
import StateStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `compare` and `scenario` keep no state, but a `--state` given them is checked as every command checks it: what
/// is at the path and is no state file of this user's is refused (exit 2, one line), and nothing is made or changed.
@Suite struct UnusedStateOptionTests {
    @Test func whatIsNotAStateFileIsRefused() throws {
        let folder = scratchPath("idp-tui-unused-state")
        try FileManager.default.createDirectory(atPath: folder + "/a-folder", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/a-fifo", 0o600) == 0)
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        let other = folder + "/recipes.db"
        try StateFile.createForTesting(path: other, version: 0)
        try StateFile.executeWithoutMigratingForTesting(path: other, "PRAGMA application_id = 1; CREATE TABLE recipes (name TEXT)")
        #expect(symlink(folder + "/notes.txt", folder + "/a-link") == 0)
        let notes = try Data(contentsOf: URL(fileURLWithPath: folder + "/notes.txt"))
        let cases: [(String, String)] = [
            ("a-folder", "is a folder, not a state file"),
            ("a-fifo", "is a FIFO, not a state file"),
            ("a-link", "is a symbolic link, not a state file"),
            ("notes.txt", "is damaged or not an idp-tui state file (file is not a database)"),
            ("recipes.db", "is an SQLite database, but not an idp-tui state file"),
        ]
        for (name, message) in cases {
            for (arguments, prefix) in [(["compare"], "compare"), (["scenario", "show"], "scenario")] {
                let run = try BinaryRun.run(arguments + ["--state", folder + "/" + name])
                #expect(run.status == 2, "\(arguments) \(name): \(run.stderr)")
                #expect(run.stderr.hasPrefix("idp-tui: \(prefix): "), "\(arguments) \(name): \(run.stderr)")
                #expect(run.stderr.contains(message), "\(arguments) \(name): \(run.stderr)")
                #expect(run.stderr.split(separator: "\n").count == 1)
                #expect(run.stdout.isEmpty)
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/notes.txt")) == notes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["a-fifo", "a-folder", "a-link", "notes.txt", "recipes.db"])
    }

    /// An empty file and a file of an older schema, each 0644, are accepted and left exactly as they were: not
    /// formatted, migrated, switched to WAL or tightened (the check opened them as history does, which does all that).
    @Test func aFileThatIsAcceptedIsLeftAsItWas() throws {
        let folder = scratchPath("idp-tui-unused-state")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let empty = folder + "/empty.sqlite"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let older = folder + "/older.sqlite"
        try StateFile.createForTesting(path: older, version: 1)
        for path in [empty, older] { chmod(path, 0o644) }
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                var info = stat()
                stat(folder + "/" + name, &info)
                files[name + " \(info.st_mode & 0o777)"] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            }
            return files
        }
        let before = try snapshot()
        for path in [empty, older] {
            for arguments in [["compare"], ["scenario", "show"]] {
                let run = try BinaryRun.run(arguments + ["--state", path])
                #expect(run.status == 0, "\(arguments) \(path): \(run.stderr)")
            }
        }
        #expect(try snapshot() == before)
    }

    @Test func aStateFileOrNothingYetIsAccepted() throws {
        let folder = scratchPath("idp-tui-unused-state")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = folder + "/state.sqlite"
        #expect(try BinaryRun.run(["scenario", "show", "--state", state]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: state), "nothing is made")
        #expect(try BinaryRun.run(["run", "logout", "--state", state]).status == 0)
        #expect(try BinaryRun.run(["scenario", "show", "--state", state]).status == 0)
    }

    /// Nothing there yet, where `run` could not make it: refused as `run` refuses it (compare took
    /// `/etc/passwd/x.db`, exit 0); a missing folder `run` would make is accepted, and not made.
    @Test func nothingYetWhereRunCouldNotMakeItIsRefused() throws {
        let folder = scratchPath("idp-tui-unused-unmakeable")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/plain-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        for arguments in [["compare"], ["scenario", "show"], ["run", "logout"]] {
            let run = try BinaryRun.run(arguments + ["--state", file + "/more/state.sqlite"])
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("\(file) is not a folder, so it cannot hold the state file"), "\(arguments): \(run.stderr)")
        }
        let later = folder + "/later/state.sqlite"
        #expect(try BinaryRun.run(["compare", "--state", later]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder + "/later"), "nothing is made")
    }

    /// A file at the root is judged by the root folder: "/ is not a folder" was said of it.
    @Test func aFileAtTheRootIsJudgedByTheRootFolder() {
        do {
            try StateFile.checkCouldBeMade("/idp-tui-\(UUID().uuidString).sqlite")
        } catch {
            #expect(!error.description.contains("is not a folder"), "\(error)")
        }
    }
}
