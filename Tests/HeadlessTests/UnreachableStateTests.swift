import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A state file behind a folder the user cannot search is there, only out of reach: `lstat` says EACCES, not
/// ENOENT. It read as missing ("no flows yet", "nothing to reset", exit 0); every command now refuses it in one
/// line that names the folder in the way, exit 2, and changes nothing.
@Suite(.enabled(if: Unprivileged.available, "as root, needs setpriv to run idp-tui as uid 65534, whom chmod stops, on files in /tmp"))
struct UnreachableStateTests {
    @Test func aStateFileBehindAFolderYouCannotSearchIsRefused() throws {
        // Root's folder, 700: uid 65534 cannot search it. Run as the test's own user, a folder of theirs, 600.
        let home = try Unprivileged.folder()
        defer { Unprivileged.remove(home) }
        let state = home + "/idp-tui/state.sqlite"
        #expect(try BinaryRun.run(["run", "activate"], stdin: Answers.aliceActivation, environment: ["XDG_STATE_HOME": home]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: state))
        let mode: mode_t = Unprivileged.asRoot ? 0o700 : 0o600
        chmod(home, mode)
        defer { chmod(home, 0o700) }

        let why = Unprivileged.asRoot
            ? "the folder \(home) cannot be searched by you (mode 700, owner uid 0); name another file with --state"
            : "the folder \(home) cannot be searched by you (mode 600); chmod u+x \(home), or name another file with --state"
        let refusal = "cannot reach the state file \(state): \(why)"
        let commands: [(arguments: [String], prefix: String, end: String)] = [
            (["history"], "history", ""),
            (["history", "--json"], "history", ""),
            (["history", "prune"], "history prune", ""),
            (["history", "prune", "--keep-days", "30"], "history prune", ""),
            (["reset"], "reset", "; nothing was changed"),
            (["run", "logout"], "run", ""),
            (["history", "--state", state], "history", ""),
            (["history", "show", "1", "--state", state], "history show", ""),
            (["history", "prune", "--state", state], "history prune", ""),
            (["reset", "--state", state], "reset", "; nothing was changed"),
            // Commands that keep no state still check a --state given them.
            (["compare", "--state", state], "compare", ""),
            (["scenario", "show", "--state", state], "scenario", ""),
        ]
        for command in commands {
            let run = try Unprivileged.run(command.arguments, stdin: "{}", environment: ["XDG_STATE_HOME": home])
            #expect(run.status == 2, "\(command.arguments): \(run.stdout)")
            #expect(run.stdout.isEmpty, "\(command.arguments)")
            #expect(run.stderr == "idp-tui: \(command.prefix): \(refusal)\(command.end)\n", "\(command.arguments)")
        }
        chmod(home, 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/idp-tui") == ["state.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == bytes)
    }
}
