import Foundation
import StateStore
import Testing

/// Standard streams a supervisor or a CI step closed (`<&-`, `>&-`, `2>&-`) or pointed at a full disk: the process
/// never crashes or waits on itself; it ends with the status its work earned, or 74 when its output was lost.
@Suite struct ClosedStreamTests {
    /// Runs `script` in /bin/sh with `$IDP` naming the binary (under `timeout`, so that a hang fails the test).
    private func shell(_ script: String, environment: [String: String] = [:], stdin: String = "") throws -> BinaryRun {
        try BinaryRun.run(["-c", script], stdin: stdin, environment: environment.merging(["IDP": BinaryRun.executable.path]) { $1 },
                          executable: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test func aClosedOrFullStandardErrorLosesTheLineNotTheProcess() throws {
        // Foundation's FileHandle trapped on the failed write: "Illegal instruction", 132.
        #expect(try shell(#"timeout 30 "$IDP" run nope 2>&-"#).status == 2)
        #expect(try shell(#"timeout 30 "$IDP" --bogus 2>/dev/full"#).status == 2)
        #expect(try shell(#"echo '{}' | timeout 30 "$IDP" run activate --ephemeral 2>&-"#).status == 2)
    }

    @Test func aPlainSessionWithoutAnOutputEndsWith74() throws {
        let run = try shell(#"printf '1\nalice\nwonderland\n123456\n\nq\n' | timeout 30 "$IDP" --ephemeral >&-"#)
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr == "idp-tui: the output could not be written: Bad file descriptor\n")
        #expect(try shell(#"timeout 30 "$IDP" --help >&-"#).status == 74)
        #expect(try shell(#"timeout 30 "$IDP" --version >/dev/full"#).status == 74)
    }

    /// A command that prints and then fails (`scenario check` of a file with problems) flushes its output before
    /// the error line: a flush that failed there was lost, and a full disk ended 2, a closed pipe 2 (not 74, 141).
    @Test func outputLostBeforeAnErrorLineStillEndsWith74Or141() throws {
        let bad = try temporaryFile(#"{"scenario": 1, "name": 7}"#)
        let full = try shell(#"timeout 30 "$IDP" scenario check "# + bad + " >/dev/full")
        #expect(full.status == 74, "\(full.stderr)")
        #expect(full.stderr.contains("the output could not be written: No space left on device"), "\(full.stderr)")
        // A pipe whose reader has gone, for certain: its reading end is closed before the process starts.
        let process = Process()
        process.executableURL = BinaryRun.executable
        process.arguments = ["scenario", "check", bad]
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 141)
    }

    /// `history show` and `history export` say their output's failure under their own names, as their other errors
    /// (it was `history:`); and an id is digits only (`+1` was taken as 1, where `-1` and ` 1` were refused).
    @Test func historysOutputFailureNamesItsVerb() throws {
        let state = freshStatePath()
        #expect(try BinaryRun.run(["run", "logout", "--state", state]).status == 0)
        let full = try shell(#"timeout 30 "$IDP" history export 1 --format json --state "# + state + " >/dev/full")
        #expect(full.status == 74)
        #expect(full.stderr == "idp-tui: history export: the output could not be written: No space left on device\n", "\(full.stderr)")
        let plus = try BinaryRun.run(["history", "show", "+1", "--state", state])
        #expect(plus.status == 2)
        #expect(plus.stderr == "idp-tui: history show: the id given is not a flow's id, a whole number from 1 (idp-tui history lists them)\n")
    }

    @Test func aPlainSessionWithoutAnInputEndsAtOnce() throws {
        // Its own pipe took descriptor 0, and the session waited on it forever (timeout's 124).
        let run = try shell(#"timeout 30 "$IDP" --ephemeral <&-"#)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\(PlainMenu.question)"))
    }

    @Test func withoutHomeTheStateFileIsInTheUsersPasswdHome() throws {
        let passwd = scratchPath("passwd")
        try Data("root:x:0:0:root:/root:/bin/sh\nci:x:12345:12345::/home/ci:/bin/sh\nnohome:x:777:777:::/bin/sh\n".utf8)
            .write(to: URL(fileURLWithPath: passwd))
        defer { try? FileManager.default.removeItem(atPath: passwd) }
        #expect(StateFile.defaultPath(environment: [:], passwd: passwd, user: 12345) == "/home/ci/.local/state/idp-tui/state.sqlite")
        #expect(StateFile.defaultPath(environment: [:], passwd: passwd, user: 777) == nil)
        #expect(StateFile.defaultPath(environment: [:], passwd: passwd, user: 4242) == nil)
        #expect(StateFile.defaultPath(environment: ["HOME": "/h"], passwd: passwd, user: 4242) == "/h/.local/state/idp-tui/state.sqlite")
        #expect(StateFile.defaultPath(environment: ["XDG_STATE_HOME": "/x", "HOME": "/h"], passwd: passwd, user: 4242) == "/x/idp-tui/state.sqlite")
        // A relative HOME is ignored, as a relative XDG_STATE_HOME is: each folder run from had a state of its own.
        #expect(StateFile.defaultPath(environment: ["HOME": "rel"], passwd: passwd, user: 12345) == "/home/ci/.local/state/idp-tui/state.sqlite")
        #expect(StateFile.defaultPath(environment: ["HOME": "rel", "XDG_STATE_HOME": "x"], passwd: passwd, user: 777) == nil)
    }

    /// Output past the file-size limit is output that could not be written: 74 and a line that says why (SIGXFSZ
    /// ended the run with 153, its last line cut, and no word).
    @Test func anOutputPastTheFileSizeLimitIsAWriteError() throws {
        let file = scratchPath("limited", ".jsonl")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try shell(#"ulimit -f 8 && "$IDP" run \#(Array(repeating: "logout", count: 40).joined(separator: " ")) --ephemeral --answers /dev/null > "$F""#,
                            environment: ["F": file])
        #expect(run.status == 74 && run.stderr.hasSuffix("the output could not be written: File too large\n"), "\(run.status) \(run.stderr)")
    }

    /// A state file that reaches the file-size limit says the limit beside SQLite's "disk I/O error" (which sent a
    /// tester looking for a failing disk), and names no secret. (dash counts `ulimit -f` in 512-byte blocks: 40 is 20 KiB.)
    @Test func aStateFilePastTheFileSizeLimitSaysTheLimit() throws {
        let folder = scratchPath("limited-state")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try shell(#"mkdir -p "$F" && ulimit -f 40 && "$IDP" run activate --state "$F/state.sqlite""#,
                            environment: ["F": folder], stdin: Answers.aliceActivation)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("disk I/O error (this process may write files of 20 KiB at most, ulimit -f"), "\(run.stderr)")
        for secret in Answers.secrets { #expect(!(run.stdout + run.stderr).contains(secret)) }
    }

    /// A file name that is not UTF-8 is refused by its place: it was read with U+FFFD for its bad byte, and the
    /// run kept a state file of another name (or said answers that exist "cannot be read").
    @Test func anArgumentThatIsNotUTF8IsRefused() throws {
        let run = try shell(#"echo '{}' | "$IDP" run logout --state "$(printf '/tmp/idp-tui-\377.sqlite')""#)
        #expect(run.status == 2 && run.stderr == "idp-tui: argument 4 is not UTF-8; name files in UTF-8\n", "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/idp-tui-\u{FFFD}.sqlite"))
    }

    /// The same for the variables the default state file is named from: the state was kept under a folder of
    /// another name (`h\u{FFFD}`), apart from the one HOME names. `history` too, which only reads.
    @Test func aHomeThatIsNotUTF8IsRefused() throws {
        let folder = scratchPath("home")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (variable, command) in [("HOME", #"echo '{}' | "$IDP" run logout"#), ("XDG_STATE_HOME", #""$IDP" history"#)] {
            let run = try shell(#"mkdir -p "$F" && unset XDG_STATE_HOME && export \#(variable)="$(printf "$F/h\377")" && \#(command)"#,
                                environment: ["F": folder])
            #expect(run.status == 2 && run.stderr.hasPrefix("idp-tui: \(command.hasSuffix("history") ? "history" : "run"): \(variable) is not UTF-8,"),
                    "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        }
        // A relative one is ignored, as any relative XDG_STATE_HOME is, whatever its bytes.
        let relative = try shell(#"export HOME="$F" XDG_STATE_HOME="$(printf 'rel\377')" && echo '{}' | "$IDP" run logout"#,
                                 environment: ["F": folder])
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/.local/state/idp-tui/state.sqlite"))
    }
}
