import Foundation
import Testing

/// Answers on a pipe its writer keeps open (Node's `spawn` without `end()`, a CI step holding stdin): the run
/// starts once the answers' JSON value has closed, and does not wait for an end of file that never comes.
@Suite struct OpenPipeAnswersTests {
    @Test func answersOnAPipeHeldOpenAreReadToTheirValuesEnd() throws {
        let (status, output) = try run(["activate", "--ephemeral"],
                                       writing: #"{"username":"alice","password":"wonderland","activation-code":"123456"}"# + "\n")
        #expect(status == 0, "\(output)")
        #expect(output.contains(#""outcome":"success""#), "\(output)")
    }

    /// What follows the value at once is read too: junk after the answers is still refused, not ignored.
    @Test func junkRightAfterTheValueIsStillRefused() throws {
        let (status, _) = try run(["activate", "--ephemeral"],
                                  writing: #"{"username":"alice","password":"wonderland","activation-code":"123456"}x"#)
        #expect(status == 2)
    }

    /// Answers that cannot be an object or an array from their first byte (junk, a number) are refused at once,
    /// as answers that close are: they waited for the pipe's end, an hour for `(printf x; sleep 3600) |`.
    @Test(arguments: ["x", "42", "\u{FEFF}nope", "]"])
    func answersThatAreNoObjectOnAPipeHeldOpenAreRefusedAtOnce(_ junk: String) throws {
        let (status, output) = try run(["activate", "--ephemeral"], writing: junk)
        #expect(status == 2, "\(output)")
        #expect(output.hasPrefix("idp-tui: ") && output.contains("answers"), "\(output)")
    }

    /// Answers that never close, their writer hanging with the pipe open, end the run after the prompt timeout (at
    /// least 5 s) with exit 2: it waited until the CI runner's own timeout.
    @Test func answersThatNeverCloseEndTheRunAfterThePromptTimeout() throws {
        let (status, output) = try run(["activate", "--ephemeral", "--prompt-timeout", "1"], writing: #"{"username":"alice","#)
        #expect(status == 2, "\(output)")
        #expect(output == "idp-tui: run: standard input (the answers) gave no whole JSON value within 5 s: no writer opened it, or its writer sent too little, or hangs (--prompt-timeout sets the wait, 5 s at least)\n", "\(output)")
    }

    /// Answers that start with a byte order mark (which the parser accepts) end where their value closes too.
    @Test func answersWithAByteOrderMarkOnAPipeHeldOpenAreRead() throws {
        let (status, output) = try run(["activate", "--ephemeral"],
                                       writing: "\u{FEFF}" + #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#)
        #expect(status == 0, "\(output)")
    }

    /// A scenario, certificate chain or state file that cannot be used is refused before the answers are read: the
    /// run waited for a pipe held open to end, and then blamed the answers ("the input is empty").
    @Test(arguments: [["--scenario", "/nonexistent/scenario.json"], ["--certificate-chain", "/nonexistent/chain.pem"],
                      ["--state", "/tmp"], ["--state", scenarioPath("default")]])
    func aFileThatCannotBeUsedIsRefusedWithoutWaitingForTheAnswers(_ option: [String]) throws {
        let (status, output) = try run(["activate"] + option, writing: "")
        #expect(status == 2, "\(output)")
        #expect(!output.contains("answers"), "\(output)")
        #expect(output.contains(option[1]), "\(output)")
    }

    /// The state file is opened only once the answers are read: answers refused make no file (they made one once
    /// the state was opened first), and do not wait for another process's lock on it.
    @Test func refusedAnswersMakeNoStateFile() throws {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run", "activate", "--state", state], stdin: #"{"usernme":"alice"}"#)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("answers"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state))
    }

    /// Runs `idp-tui run` with `answers` written to a pipe that stays open until the process ends (or 20 s), its
    /// standard output and error together.
    private func run(_ arguments: [String], writing answers: String) throws -> (status: Int32?, output: String) {
        let process = Process()
        process.executableURL = BinaryRun.executable
        process.arguments = ["run"] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(answers.utf8))
        let finished = ended.wait(timeout: .now() + 20) == .success
        try input.fileHandleForWriting.close()
        // SIGKILL: the test runner may hand its children SIGTERM blocked.
        if !finished { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(finished, "the run waited for the end of a pipe held open after its answers")
        return (finished ? process.terminationStatus : nil, text)
    }
}
