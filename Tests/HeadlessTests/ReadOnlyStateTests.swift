import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// idp-tui as a user whom file permissions stop. Root is not stopped by `chmod`, so when the tests run as root
/// idp-tui runs as the unprivileged uid 65534 (through setpriv), with the test's files given to it; otherwise as
/// the test's own user.
enum Unprivileged {
    static let setpriv = "/usr/bin/setpriv"
    static let asRoot = getuid() == 0
    static let available = !asRoot || FileManager.default.isExecutableFile(atPath: setpriv)
    static let uid: uid_t = asRoot ? 65534 : getuid()

    static func run(_ arguments: [String], stdin: String = "") throws -> BinaryRun {
        guard asRoot else { return try BinaryRun.run(arguments, stdin: stdin) }
        return try BinaryRun.run(["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", BinaryRun.executable.path] + arguments,
                                 stdin: stdin, executable: URL(fileURLWithPath: setpriv))
    }

    /// Gives a folder and the files in it to that user.
    static func own(_ folder: String) throws {
        guard asRoot else { return }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) { chown(folder + "/" + name, uid, gid_t(uid)) }
        chown(folder, uid, gid_t(uid))
    }
}

@Suite(.enabled(if: Unprivileged.available, "as root, needs setpriv to run idp-tui as a user chmod stops"))
struct ReadOnlyStateTests {
    /// A state file with one activation in it, its folder and the file given to the unprivileged user.
    private func stateWithAFlow() throws -> (state: String, folder: String) {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        let folder = (state as NSString).deletingLastPathComponent
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
        chmod(state, 0o400)
        try readButNotWritten(state, folder: folder,
                              why: "it is read-only to you (mode 400); chmod u+w \(state), or name another file with --state")
    }

    @Test func aStateFileInAReadOnlyFolderIsReadAndNotWritten() throws {
        let (state, folder) = try stateWithAFlow()
        chmod(folder, 0o500)
        defer { chmod(folder, 0o700) }
        try readButNotWritten(state, folder: folder,
                              why: "its folder \(folder) is read-only to you (mode 500), and SQLite keeps state.sqlite-wal and state.sqlite-shm beside the file; chmod u+wx \(folder), or name another file with --state")
    }

    /// A -wal and -shm left read-only (as SQLite makes them for a read-only connection, with the file's mode) made
    /// every later write fail, even once the file was writable again.
    @Test func companionsLeftReadOnlyAreMadeWritableAgain() throws {
        let (state, folder) = try stateWithAFlow()
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
