import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A FIFO no program writes to does not stop a command: a theme, scenario or certificate file must be a regular
/// file (exit 2, one line); answers read from a FIFO wait for its writer. Each run is under `timeout`,
/// killed after 15 s, so that a hang fails the test rather than stopping the suite (SIGKILL: the test runner may
/// hand its children SIGTERM blocked).
@Suite struct FIFOInputTests {
    static func run(_ arguments: [String], stdin: String = "") throws -> BinaryRun {
        try BinaryRun.run(["-s", "KILL", "15", BinaryRun.executable.path] + arguments, stdin: stdin, executable: URL(fileURLWithPath: "/usr/bin/timeout"))
    }

    static func fifo() throws -> (folder: String, fifo: String) {
        let folder = scratchPath("idp-tui-fifo")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(mkfifo(folder + "/f", 0o600) == 0)
        return (folder, folder + "/f")
    }

    @Test func aFIFOIsNoThemeScenarioOrCertificateFile() throws {
        let (folder, fifo) = try Self.fifo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (arguments, message) in [
            (["run", "logout", "--ephemeral", "--theme", fifo], "idp-tui: run: theme \(fifo): is a FIFO or a pipe, not a regular file"),
            (["scenario", "check", fifo], "idp-tui: scenario check: \(fifo): 1 problem (the check stops there: nothing after it was checked)"),
            (["run", "logout", "--ephemeral", "--scenario", fifo], "idp-tui: run: scenario \(fifo): the file is a FIFO or a pipe, not a regular file"),
            (["run", "login", "--ephemeral", "--certificate-chain", fifo], "idp-tui: run: the certificate chain file \(fifo) is a FIFO or a pipe, not a regular file"),
        ] {
            let run = try Self.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr == message + "\n", "\(arguments): \(run.stderr)")
        }
    }

    /// `--answers FIFO` that no writer ever opens ends the run after the prompt timeout (5 s at least), exit 2: the
    /// wait was in `open`, which no timeout bounds, and the run waited until it was killed.
    @Test func answersFromAFIFONoOneWritesEndAfterThePromptTimeout() throws {
        let (folder, fifo) = try Self.fifo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Self.run(["run", "activate", "--ephemeral", "--prompt-timeout", "1", "--answers", fifo])
        #expect(run.status == 2, "\(run.status) \(run.stderr)")
        #expect(run.stderr == "idp-tui: run: the answers file \(fifo) gave no whole JSON value within 5 s: no writer opened it, or its writer sent too little, or hangs (--prompt-timeout sets the wait, 5 s at least)\n", "\(run.stderr)")
    }

    /// `--answers FIFO` waits for the FIFO's writer, as `cat` does: idp-tui opens it first, its writer a second later.
    @Test func answersFromAFIFOWaitForTheirWriter() throws {
        let (folder, fifo) = try Self.fifo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The writer's output goes nowhere and it is killed at the end: left blocked (no reader), it would hold
        // the test's pipes open.
        let script = "(sleep 1; echo '\(Answers.aliceActivation)' > \"$1\") > /dev/null 2>&1 & writer=$!; "
            + "timeout -s KILL 15 \"$0\" run activate --ephemeral --answers \"$1\"; status=$?; kill -KILL $writer 2> /dev/null; exit $status"
        let run = try BinaryRun.run(["-c", script, BinaryRun.executable.path, fifo], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(run.status == 0, "\(run.status) \(run.stderr)")
        #expect(run.results.first?["outcome"] as? String == "success")
    }

    /// `--answers <(…)`: the shell's pipe, /dev/fd/63, is read as before.
    @Test func answersFromProcessSubstitutionAreRead() throws {
        let script = "exec timeout -s KILL 15 \"$0\" run activate --ephemeral --answers <(echo '\(Answers.aliceActivation)')"
        let run = try BinaryRun.run(["-c", script, BinaryRun.executable.path], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(run.status == 0, "\(run.status) \(run.stderr)")
        #expect(run.results.first?["outcome"] as? String == "success")
    }
}
