import Foundation
import Testing

/// Output that cannot be written is not a success: a full disk ends with one line and exit 74; a reader that
/// stopped (`| head`) ends with 141, as a shell reports SIGPIPE — and either way every flow run is in the state
/// file itself.
@Suite struct OutputFailureTests {
    private let answers = "[\(Answers.aliceActivation),\(Answers.alice)]"

    @Test func aFullDiskEndsWithOneLineAndStatus74() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let run = try BinaryRun.run(["run", "activate", "login", "--ephemeral"], stdin: answers, stdoutTo: full)
        #expect(run.status == 74, "\(run.stderr)")
        // As every other error of the command, the line names it (headless.md: every error of `run` begins so).
        #expect(run.stderr == "idp-tui: run: the output could not be written: No space left on device\n")
        let history = try BinaryRun.run(["history", "--state", try stateWithOneFlow()], stdoutTo: full)
        #expect(history.status == 74)
        #expect(history.stderr == "idp-tui: history: the output could not be written: No space left on device\n")
    }

    @Test func aClosedOutputEndsWith141AndTheFileKeepsEveryFlow() throws {
        let directory = scratchPath("idp-tui-closed")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let closed = Pipe()
        try closed.fileHandleForReading.close()
        let run = try BinaryRun.run(["run", "activate", "login", "--state", directory + "/state.sqlite"], stdin: answers,
                                    stdoutTo: closed.fileHandleForWriting)
        #expect(run.status == 141, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        // The main file alone, copied without its -wal, holds both flows.
        try FileManager.default.copyItem(atPath: directory + "/state.sqlite", toPath: directory + "/copy.sqlite")
        let history = try BinaryRun.run(["history", "--state", directory + "/copy.sqlite"])
        #expect(history.stdout.contains("activate  alice  success"), "\(history.stdout)\(history.stderr)")
        #expect(history.stdout.contains("login     alice  success"))
    }

    private func stateWithOneFlow() throws -> String {
        let path = scratchPath("idp-tui-one", ".sqlite")
        let run = try BinaryRun.run(["run", "activate", "--state", path], stdin: Answers.aliceActivation)
        #expect(run.status == 0)
        return path
    }
}
