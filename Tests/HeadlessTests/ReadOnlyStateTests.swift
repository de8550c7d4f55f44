import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// idp-tui as a user whom file permissions stop. Root is not stopped by `chmod`, so when the tests run as root
/// idp-tui runs as the unprivileged uid 65534 (through setpriv, with no capabilities), with the test's files given
/// to it; otherwise as the test's own user.
///
/// The files live in folders made by `mkdtemp` under /tmp, never under `TMPDIR` or the clone: either may sit in a
/// folder that uid 65534 cannot search, and every run would then fail for a reason the test does not mean.
enum Unprivileged {
    static let setpriv = "/usr/bin/setpriv"
    static let asRoot = getuid() == 0
    static let uid: uid_t = asRoot ? 65534 : getuid()

    /// Whether runs as that user are what the tests take them for, found by trying, not assumed: as root, uid
    /// 65534 runs idp-tui, reads a file given to it in a folder made here, and is refused a file of root's.
    static let available: Bool = {
        guard asRoot else { return true }
        guard FileManager.default.isExecutableFile(atPath: setpriv), let folder = try? folder() else { return false }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let theirs = folder + "/theirs"
        let roots = folder + "/roots"
        guard FileManager.default.createFile(atPath: theirs, contents: Data("readable\n".utf8), attributes: [.posixPermissions: 0o600]),
            FileManager.default.createFile(atPath: roots, contents: Data("root's\n".utf8), attributes: [.posixPermissions: 0o600]),
            chown(theirs, uid, gid_t(uid)) == 0, chmod(folder, 0o755) == 0
        else { return false }
        let read = try? BinaryRun.run(asThem(["/bin/cat", theirs]), executable: URL(fileURLWithPath: setpriv))
        let refused = try? BinaryRun.run(asThem(["/bin/cat", roots]), executable: URL(fileURLWithPath: setpriv))
        let help = try? run(["--help"])
        return read?.status == 0 && read?.stdout == "readable\n" && refused.map { $0.status != 0 } == true && help?.status == 0
    }()

    /// setpriv's arguments to run `command` as that user: its own ids, no groups, no capabilities.
    private static func asThem(_ command: [String]) -> [String] {
        ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--inh-caps=-all"] + command
    }

    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> BinaryRun {
        guard asRoot else { return try BinaryRun.run(arguments, stdin: stdin, environment: environment) }
        return try BinaryRun.run(asThem([BinaryRun.executable.path] + arguments), stdin: stdin, environment: environment,
                                 executable: URL(fileURLWithPath: setpriv))
    }

    /// A new folder under /tmp (mode 700, the test runner's): `mkdtemp`, so that its name is the test's alone.
    static func folder() throws -> String {
        var template = Array("/tmp/idp-tui-unprivileged-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap(mkdtemp).map { String(cString: $0) } }
        guard let made else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: "/tmp/idp-tui-unprivileged-XXXXXX"]) }
        return made
    }

    /// Removes a test's folder (made searchable and writable again first, whatever the test left it as).
    static func remove(_ folder: String) {
        chmod(folder, 0o700)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Gives a folder and the files in it to that user.
    static func own(_ folder: String) throws {
        guard asRoot else { return }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            try #require(chown(folder + "/" + name, uid, gid_t(uid)) == 0, "chown \(folder)/\(name): \(String(cString: strerror(errno)))")
        }
        try #require(chown(folder, uid, gid_t(uid)) == 0, "chown \(folder): \(String(cString: strerror(errno)))")
    }
}

@Suite(.enabled(if: Unprivileged.available, "as root, needs setpriv to run idp-tui as uid 65534, whom chmod stops, on files in /tmp"))
struct ReadOnlyStateTests {
    /// A state file with one activation in it, its folder and the file given to the unprivileged user.
    private func stateWithAFlow() throws -> (state: String, folder: String) {
        let folder = try Unprivileged.folder()
        let state = folder + "/state.sqlite"
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        try Unprivileged.own(folder)
        return (state, folder)
    }

    private func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// The history is read; each command that writes says which file and why in one line, exit 2; the file and
    /// its folder are as they were (no -wal or -shm left behind).
    private func readButNotWritten(_ state: String, folder: String, why: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: state))
        let list = try Unprivileged.run(["history", "--state", state])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("activate  alice  success"), "\(list.stdout)")
        #expect(list.stderr.isEmpty)
        let json = try Unprivileged.run(["history", "--json", "--state", state])
        #expect(json.lines.map { $0["flow"] as? String } == ["activate"], "\(json.stderr)")
        let show = try Unprivileged.run(["history", "show", "1", "--state", state])
        #expect(show.status == 0 && show.stdout.hasPrefix("flow 1: activate"), "\(show.stderr)")
        let export = try Unprivileged.run(["history", "export", "1", "--format", "mermaid", "--state", state])
        #expect(export.status == 0 && export.stdout.hasPrefix("sequenceDiagram"), "\(export.stderr)")

        let refusal = "cannot write the state file \(state): \(why)"
        for (arguments, prefix) in [(["run", "logout"], "run"), (["history", "prune"], "history prune"), (["reset"], "reset")] {
            let run = try Unprivileged.run(arguments + ["--state", state])
            #expect(run.status == 2, "\(arguments): \(run.stdout)")
            #expect(run.stdout.isEmpty, "\(arguments)")
            #expect(run.stderr.hasPrefix("idp-tui: \(prefix): \(refusal)"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
        }
        #expect(try files(folder) == ["state.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == bytes)
    }

    @Test func aReadOnlyStateFileIsReadAndNotWritten() throws {
        let (state, folder) = try stateWithAFlow()
        defer { Unprivileged.remove(folder) }
        chmod(state, 0o400)
        try readButNotWritten(state, folder: folder,
                              why: "it is read-only to you (mode 400); chmod u+w \(state), or name another file with --state")
    }

    @Test func aStateFileInAReadOnlyFolderIsReadAndNotWritten() throws {
        let (state, folder) = try stateWithAFlow()
        defer { Unprivileged.remove(folder) }
        chmod(folder, 0o500)
        defer { chmod(folder, 0o700) }
        try readButNotWritten(state, folder: folder,
                              why: "its folder \(folder) is read-only to you (mode 500), and SQLite keeps state.sqlite-wal and state.sqlite-shm beside the file; chmod u+wx \(folder), or name another file with --state")
    }

    /// The one line for a file (or companion) the user may not read: root's and 600 when the tests run as root,
    /// else the user's own and 200.
    private func unreadable(_ path: String, in state: String) -> String {
        if Unprivileged.asRoot {
            chown(path, 0, 0)
            chmod(path, 0o600)
        } else {
            chmod(path, 0o200)
        }
        let it = path == state ? "it" : "its \((path as NSString).lastPathComponent)"
        return "cannot read the state file \(state): \(it) is not readable to you "
            + (Unprivileged.asRoot ? "(mode 600, owner uid 0); " : "(mode 200); chmod u+r \(path), or ") + "name another file with --state"
    }

    /// Reading a file the user may not read said "cannot write … unable to open database file", with no mode or
    /// owner; every command now says it cannot be read, and why, in one line (exit 2).
    @Test func aStateFileYouCannotReadSaysSoWithItsModeAndOwner() throws {
        let (state, folder) = try stateWithAFlow()
        defer { Unprivileged.remove(folder) }
        let refusal = unreadable(state, in: state)
        let commands: [(arguments: [String], prefix: String, end: String)] = [
            (["history"], "history", ""),
            (["history", "show", "1"], "history show", ""),
            (["history", "export", "1", "--format", "json"], "history export", ""),
            (["history", "prune"], "history prune", ""),
            (["reset"], "reset", "; nothing was changed"),
            (["run", "logout"], "run", ""),
        ]
        for command in commands {
            let run = try Unprivileged.run(command.arguments + ["--state", state], stdin: "{}")
            #expect(run.status == 2, "\(command.arguments): \(run.stdout)")
            #expect(run.stdout.isEmpty, "\(command.arguments)")
            #expect(run.stderr == "idp-tui: \(command.prefix): \(refusal)\(command.end)\n", "\(command.arguments)")
        }
        #expect(try files(folder) == ["state.sqlite"])
    }

    /// A read-only file whose -wal the user may not read: the -wal is named, and the line says "read".
    @Test func aWalYouCannotReadIsNamed() throws {
        let (state, folder) = try stateWithAFlow()
        defer { Unprivileged.remove(folder) }
        chmod(state, 0o400)
        #expect(FileManager.default.createFile(atPath: state + "-wal", contents: Data()))
        try Unprivileged.own(folder)
        let refusal = unreadable(state + "-wal", in: state)
        let run = try Unprivileged.run(["history", "--state", state])
        #expect(run.status == 2 && run.stdout.isEmpty, "\(run.stdout)")
        #expect(run.stderr == "idp-tui: history: \(refusal)\n")
        #expect(try files(folder) == ["state.sqlite", "state.sqlite-wal"])
    }

    /// What SQLite cannot open on a read path is said to be unreadable, not unwritable: here a -wal left behind in
    /// a read-only folder with no -shm beside it, which SQLite cannot make.
    @Test func whatSQLiteCannotOpenToReadIsSaidNotToBeReadable() throws {
        let (state, folder) = try stateWithAFlow()
        defer { Unprivileged.remove(folder) }
        #expect(FileManager.default.createFile(atPath: state + "-wal", contents: Data()))
        try Unprivileged.own(folder)
        chmod(state, 0o400)
        chmod(state + "-wal", 0o400)
        chmod(folder, 0o500)
        defer { chmod(folder, 0o700) }
        let run = try Unprivileged.run(["history", "--state", state])
        #expect(run.status == 2 && run.stdout.isEmpty, "\(run.stdout)")
        #expect(run.stderr.hasPrefix("idp-tui: history: cannot read the state file \(state): "), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    /// A -wal and -shm left read-only (as SQLite makes them for a read-only connection, with the file's mode) made
    /// every later write fail, even once the file was writable again.
    @Test func companionsLeftReadOnlyAreMadeWritableAgain() throws {
        let (state, folder) = try stateWithAFlow()
        defer { Unprivileged.remove(folder) }
        #expect(FileManager.default.createFile(atPath: state + "-wal", contents: Data()))
        #expect(FileManager.default.createFile(atPath: state + "-shm", contents: Data(count: 32768)))
        try Unprivileged.own(folder)
        chmod(state + "-wal", 0o400)
        chmod(state + "-shm", 0o400)
        let run = try Unprivileged.run(["run", "logout", "--state", state])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.results.first?["outcome"] as? String == "success")
        #expect(try Unprivileged.run(["history", "--json", "--state", state]).lines.count == 2)
    }
}
