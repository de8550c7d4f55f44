import Foundation
import Testing

/// Advice that says how to get the scenario's activation codes back names the reset that works for the state the
/// run used: `idp-tui reset` refuses `--ephemeral`, and without `--state` it would reset another file.
@Suite struct StartOverAdviceTests {
    /// An activation whose MC-SDK hits a runtime error at SetAuthorisationCode: its code is spent at the IdP.
    private static let spentCode = #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"runtimeError":true}}"#

    private func advice(_ arguments: [String]) throws -> String {
        let run = try BinaryRun.run(["run", "activate"] + arguments, stdin: Self.spentCode)
        #expect(run.results.first?["status"] as? String == "INTERNAL_ERROR", "\(run.stdout) \(run.stderr)")
        return run.results.first?["advice"] as? String ?? ""
    }

    @Test func withStateTheAdviceNamesThatFile() throws {
        let state = freshStatePath()
        let text = try advice(["--state", state])
        #expect(text.contains("idp-tui reset --state=\(state) gives the scenario's codes back"), "\(text)")
    }

    @Test func aPathAShellWouldSplitIsQuoted() throws {
        let state = scratchPath("idp-tui-state", "/it's my state.sqlite")
        let text = try advice(["--state", state])
        let quoted = "'" + state.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        #expect(text.contains("idp-tui reset --state=\(quoted) gives"), "\(text)")
    }

    /// The reset the advice names works as written, in bash: a path that starts with `--` (the parser would take
    /// "--state --x" for two options) or holds "=~/" (bash expands "a=~/x") is one quoted word.
    @Test(arguments: ["--x.sqlite", "a=~/b.sqlite", "it's here.sqlite"])
    func theAdvisedResetWorksInAShell(_ name: String) throws {
        let folder = scratchPath("idp-tui-state")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bash = URL(fileURLWithPath: "/bin/bash")
        let binary = BinaryRun.executable.path
        let run = try BinaryRun.run(["-c", #"cd "$1" && "$2" run activate --state="$3" --answers -"#, "bash", folder, binary, name],
                                    stdin: Self.spentCode, executable: bash)
        let text = run.results.first?["advice"] as? String ?? ""
        let found = text.range(of: #"idp-tui reset --state=('([^']|'\\'')*'|[^ ]+)"#, options: .regularExpression)
        let command = try #require(found.map { String(text[$0]) }, "\(run.stdout) \(run.stderr)")
        let reset = try BinaryRun.run(["-c", #"cd "$1" && "$2" "# + command.dropFirst("idp-tui ".count) + " --yes", "bash", folder, binary],
                                      executable: bash)
        #expect(reset.status == 0, "\(command): \(reset.stdout) \(reset.stderr)")
        #expect(reset.stdout.contains("are reset"), "\(command): \(reset.stdout)")
    }

    @Test func theDefaultFileNeedsNoOption() throws {
        let text = try advice([])
        #expect(text.contains("idp-tui reset gives the scenario's codes back"), "\(text)")
    }

    @Test func ephemeralRunsAreNotToldToReset() throws {
        let text = try advice(["--ephemeral"])
        #expect(!text.contains("idp-tui reset"), "\(text)")
        #expect(text.hasSuffix("activate again with another code; here, restarting idp-tui with --ephemeral gives the scenario's codes back."), "\(text)")
        // What the advice names really does refuse this state.
        let reset = try BinaryRun.run(["reset", "--ephemeral", "--yes"])
        #expect(reset.status == 2)
    }

    /// "Reset the device" says how, as the spent code's advice does (it named no command, and the terminal UI has none).
    @Test func anActivatedDeviceIsToldHowToReset() throws {
        let state = freshStatePath()
        let answers = #"[{"username":"alice","password":"wonderland","activation-code":"123456"},{"username":"bob","password":"builder","activation-code":"654321"}]"#
        let run = try BinaryRun.run(["run", "activate", "activate", "--state", state], stdin: answers)
        #expect(run.results.count == 2, "\(run.stdout) \(run.stderr)")
        let text = run.results.last?["advice"] as? String ?? ""
        // No full stop after the command: copied with it, the path named a file that does not exist, and reset
        // said there was nothing to reset (a tester).
        #expect(text == "Log in, or, to activate again, reset the device first. Here: idp-tui reset --state=\(state)", "\(text)")
        let memory = try BinaryRun.run(["run", "activate", "activate", "--ephemeral"], stdin: answers)
        let inMemory = memory.results.last?["advice"] as? String ?? ""
        #expect(inMemory.hasSuffix(". Here: restarting idp-tui with --ephemeral"), "\(inMemory)")
    }
}
