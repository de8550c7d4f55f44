import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Streams as other programs hand them over: left non-blocking by the parent (Node's and Python's pipes can be), a
/// read that fails, a terminal named as the answers file.
@Suite struct NonBlockingStreamTests {
    /// A pipe: its ends, the read end's non-blocking flag as asked.
    private func pipeEnds(nonBlocking end: Int?) throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        if let end {
            let flags = fcntl(ends[end], F_GETFL)
            _ = fcntl(ends[end], F_SETFL, flags | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }

    private func process(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = BinaryRun.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = scratchPath("idp-tui-state")
        process.environment = environment
        return process
    }

    /// The state of `pid`'s main thread (`S` sleeping, `R` running …), nil once it has ended.
    private func state(_ pid: Int32) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state == "Z" ? nil : state
    }

    private func pending(_ descriptor: Int32) -> Int32 {
        var count: Int32 = 0
        _ = ioctl(descriptor, UInt(FIONREAD), &count)
        return count
    }

    /// Answers on a non-blocking pipe, the second half written after `run` has read the first: it waits for the
    /// rest (it took the pipe's "nothing yet" for the end: "the object … is not closed", exit 2).
    @Test func answersOnANonBlockingPipeAreWaitedFor() throws {
        let ends = try pipeEnds(nonBlocking: 0)
        defer { close(ends.read) }
        let answers = Array(Answers.aliceActivation.utf8)
        let half = answers.count / 2
        _ = answers.withUnsafeBytes { write(ends.write, $0.baseAddress, half) }
        let run = process(["run", "activate", "--ephemeral"])
        run.standardInput = FileHandle(fileDescriptor: ends.read, closeOnDealloc: false)
        let output = Pipe()
        run.standardOutput = output
        run.standardError = output
        try run.run()
        // Until the first half is read and `run` waits (or has ended, as it did).
        let deadline = Date().addingTimeInterval(60)
        while run.isRunning && (pending(ends.read) > 0 || state(run.processIdentifier) != "S") && Date() < deadline { usleep(1_000) }
        _ = answers.withUnsafeBytes { write(ends.write, $0.baseAddress! + half, answers.count - half) }
        close(ends.write)
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        #expect(run.terminationStatus == 0, "\(said)")
        #expect(said.contains(#""outcome":"success""#), "\(said)")
    }

    /// Output to a non-blocking pipe whose reader waits until the pipe is full: the run waits for room (it ended
    /// with 74, "Resource temporarily unavailable", as if the disk were full).
    @Test func outputToANonBlockingPipeWaitsForItsReader() throws {
        let errors = Pipe()
        let (run, read) = try fillANonBlockingOutput(errors: errors)
        let reader = FileHandle(fileDescriptor: read, closeOnDealloc: true)
        let lines = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        run.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(run.terminationStatus == 0, "\(said)")
        #expect(lines.filter { $0.contains(#""type":"result""#) }.count == 150, "\(said)")
    }

    /// SIGTERM while a line waits for room in a non-blocking output nobody reads ends the run (143): the wait held
    /// the output's lock, which the signal's exit takes, and the run never ended.
    /// A blocking output the same way: the write waits in the kernel, holding the lock over lines, which the
    /// signal's exit waited for, for ever.
    @Test(arguments: [true, false]) func aSignalEndsARunWhoseOutputIsNeverRead(nonBlocking: Bool) throws {
        let (run, read) = try fillANonBlockingOutput(errors: FileHandle.nullDevice, nonBlocking: nonBlocking)
        defer { close(read) }
        run.terminate()
        let deadline = Date().addingTimeInterval(20)
        while run.isRunning && Date() < deadline { usleep(10_000) }
        if run.isRunning { kill(run.processIdentifier, SIGKILL) }
        run.waitUntilExit()
        #expect(run.terminationReason == .exit && run.terminationStatus == 143, "\(run.terminationReason) \(run.terminationStatus)")
    }

    /// 150 logouts run with their output on a (by default non-blocking) pipe that is not read until it stops filling (full: how
    /// full depends on how the writes share its pages), or the run has ended, as it did at the first write that did
    /// not fit; a minute at most. Returns the run and the pipe's read end.
    private func fillANonBlockingOutput(errors: Any, nonBlocking: Bool = true) throws -> (run: Process, read: Int32) {
        let ends = try pipeEnds(nonBlocking: nonBlocking ? 1 : nil)
        let run = process(["run"] + Array(repeating: "logout", count: 150) + ["--ephemeral"])
        run.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        run.standardOutput = FileHandle(fileDescriptor: ends.write, closeOnDealloc: false)
        run.standardError = errors
        try run.run()
        close(ends.write)
        var unchanged = 0
        var last: Int32 = -1
        let deadline = Date().addingTimeInterval(60)
        while run.isRunning && unchanged < 100 && Date() < deadline {
            let now = pending(ends.read)
            unchanged = now == last && now > 0 ? unchanged + 1 : 0
            last = now
            usleep(2_000)
        }
        return (run, ends.read)
    }

    /// A file whose read fails (EIO) is said to be unreadable, not taken as what came before the error (a theme
    /// read as empty was accepted; answers were "empty").
    @Test func aReadThatFailsIsSaid() throws {
        let theme = try BinaryRun.run(["compare", "--ephemeral", "--theme", "/proc/self/mem"])
        #expect(theme.status == 2 && theme.stderr == "idp-tui: compare: theme /proc/self/mem: cannot be read (Input/output error)\n",
                "\(theme.status) \(theme.stderr)")
        let answers = try BinaryRun.run(["run", "activate", "--ephemeral", "--answers", "/proc/self/mem"])
        #expect(answers.status == 2 && answers.stderr.contains("cannot be read (Input/output error)"), "\(answers.stderr)")
    }

    /// A terminal named as the answers file (`/dev/tty`, `/dev/stdin` at one) is refused, as standard input at a
    /// terminal is: it waited for typing, and echoed the JSON, passwords and all.
    @Test func aTerminalAsTheAnswersFileIsRefused() throws {
        // `script` gives the run a terminal of its own, which /dev/tty then names.
        let run = try BinaryRun.run(["-qec", "timeout 20 \"$IDP\" run activate --ephemeral --answers /dev/tty", "/dev/null"],
                                    environment: ["IDP": BinaryRun.executable.path], executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(run.status == 2, "\(run.stdout)")
        #expect(run.stdout.contains("idp-tui: run: the answers file /dev/tty is a terminal, where what is typed would show; give a file or a pipe"),
                "\(run.stdout)")
    }
}
