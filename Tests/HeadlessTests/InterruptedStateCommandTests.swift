import Foundation
import StateStore
import Testing
import Threading

#if canImport(Glibc)
    import Glibc
#endif

/// A `reset` or `history prune` waiting for another process's lock when Ctrl-C (or SIGTERM) comes changes nothing:
/// it went on to empty the file (or cut the history) once the lock was free, and then exited 130 as if stopped.
@Suite(.serialized) struct InterruptedStateCommandTests {
    /// Whether the process's main thread is asleep in a nanosleep (SQLite's busy handler waiting for the lock). Where
    /// /proc does not say (no ptrace access), true: the signal then comes at once, which a fixed command also
    /// survives, though an unfixed one may then not show its fault.
    private func sleeping(_ pid: Int32) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else { return true }
        guard let number = text.split(separator: " ").first.flatMap({ Int($0) }) else { return false }
        #if arch(x86_64)
            return number == 35 || number == 230
        #else
            return number == 101 || number == 115
        #endif
    }

    /// Reading the history does not wait for another process's write (WAL lets readers through): `history` and
    /// `history show` waited 10 s for the write lock, to check a schema that needed nothing, and then failed.
    @Test func theHistoryIsReadWhileAnotherProcessWrites() throws {
        let folder = scratchPath("idp-tui-reading")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let state = folder + "/state.sqlite"
        #expect(try BinaryRun.run(["run", "activate", "logout", "--state", state], stdin: "[\(Answers.aliceActivation),{}]").status == 0)
        let holder = try StateFile(path: state)
        try holder.executeForTesting("BEGIN IMMEDIATE")
        defer { holder.close() }
        let list = try BinaryRun.run(["history", "--state", state])
        let show = try BinaryRun.run(["history", "show", "1", "--state", state])
        try holder.executeForTesting("ROLLBACK")
        #expect(list.status == 0 && list.stdout.contains("activate"), "\(list.stderr)")
        #expect(show.status == 0 && show.stdout.contains("Start"), "\(show.stderr)")
    }

    /// And it says nothing more: the signal's closing of the state file ended the wait with "the state file …
    /// stayed locked by another process for 10 s" (a QA tester's report: 5 runs in 10), a cause that was not it.
    @Test(arguments: [
        (["reset", "--yes"], SIGINT),
        (["history", "prune", "--keep-flows", "1"], SIGTERM),
        (["run", "logout"], SIGHUP),
    ])
    func aSignalWhileWaitingForTheLockChangesNothing(command: [String], signal: Int32) throws {
        let folder = scratchPath("idp-tui-interrupted")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let state = folder + "/state.sqlite"
        let answers = "[\(Answers.aliceActivation),{}]"
        #expect(try BinaryRun.run(["run", "activate", "logout", "--state", state], stdin: answers).status == 0)
        // This process holds the write lock, as another idp-tui's long write would.
        let holder = try StateFile(path: state)
        try holder.executeForTesting("BEGIN IMMEDIATE")
        let process = Process()
        process.executableURL = BinaryRun.executable
        process.arguments = command + ["--state", state]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Polled until it waits for the lock (it gives up after 10 s: the loop cannot outlast it).
        while process.isRunning && !sleeping(process.processIdentifier) { usleep(1000) }
        kill(process.processIdentifier, signal)
        // The lock is let go while the command may still be waiting for it, as the other process's write ends: it
        // must stop at the signal, not take the lock then (it did, once it was free, and emptied the file). A
        // command that stops on the signal has ended long before; the bound only keeps a broken one from waiting
        // for the lock forever.
        let bound = ContinuousClock.now + .seconds(3)
        while process.isRunning && ContinuousClock.now < bound { usleep(1000) }
        try holder.executeForTesting("ROLLBACK")
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.isEmpty, "\(said)")
        #expect(try holder.queryForTesting("SELECT count(*) FROM flows") == [["2"]], "nothing was reset or pruned")
        #expect(try holder.queryForTesting("SELECT count(*) FROM device") == [["1"]])
        holder.close()
    }

    /// A signal while a flow's store waits for another process's lock ends the wait at once, as in the terminal UI:
    /// the run gave its flow the second it gives one to end, twice, and a lock that came free meanwhile let the store
    /// commit (the chaos tester: a device activated under a flow recorded as interrupted, its advice to run it again).
    /// The lock is let go a second after the signal, if the run has not ended by then.
    @Test func aSignalEndsAStoresWaitForALockAtOnce() throws {
        let folder = scratchPath("idp-tui-signal-store")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let state = folder + "/state.sqlite"
        let holder = try StateFile(path: state)
        // The round trips are slow, so that the lock is taken while the token request is on its way: the IdP's store
        // of the tokens then waits for it (a thread sleeping in SQLite's busy handler; the latency sleeps in none).
        let slow = #"{"username":"alice","password":"wonderland","activation-code":"123456","faults":{"addedLatencyMs":1000}}"#
        let run = try BackgroundRun(flows: ["activate"], answers: slow, state: state)
        run.waitForOutput(containing: #""step":"POST /token""#)
        try holder.executeForTesting("BEGIN IMMEDIATE")
        while run.process.isRunning && !anyThreadSleeping(run.process.processIdentifier) { usleep(1000) }
        kill(run.process.processIdentifier, SIGTERM)
        let bound = ContinuousClock.now + .seconds(1)
        while run.process.isRunning && ContinuousClock.now < bound { usleep(1000) }
        let endedWhileLocked = !run.process.isRunning
        try holder.executeForTesting("ROLLBACK")
        run.finish()
        #expect(run.process.terminationStatus == 143)
        #expect(endedWhileLocked, "the run went on waiting for the lock after the signal")
        // The record the lock kept out is said (the run ended without a word, the advice it held going nowhere).
        #expect(run.errorText == "idp-tui: run: interrupted: flow 1 (activate) was not saved to the history: the state file \(state) "
            + "was locked by another process, and you stopped waiting for it\n", "\(run.errorText)")
        #expect(try holder.queryForTesting("SELECT count(*) FROM device WHERE user_id IS NOT NULL") == [["0"]], "the device stays not activated")
        holder.close()
    }

    /// Whether a thread of `pid` sleeps (SQLite's busy handler, between its tries for a lock).
    private func anyThreadSleeping(_ pid: Int32) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { sleeping(Int32($0) ?? pid) }
    }

    /// A file another process keeps locked (a `sqlite3` shell in a transaction) stops `run` at its first write, with
    /// one line and exit 2, before any flow: each flow's stores waited out the lock in turn, the flow failed as a
    /// device that could not be stored ("a full disk"), and the run ended 40 s later with exit 74.
    @Test func aFileKeptLockedStopsARunBeforeAnyFlow() throws {
        let folder = scratchPath("idp-tui-kept-locked")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let state = folder + "/state.sqlite"
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        let holder = try StateFile(path: state)
        try holder.executeForTesting("BEGIN IMMEDIATE")
        let run = try BinaryRun.run(["run", "login", "--state", state], stdin: Answers.alice)
        try holder.executeForTesting("ROLLBACK")
        holder.close()
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == "idp-tui: run: the state file \(state) stayed locked by another process for 10 s\n")
        #expect(run.stdout.isEmpty, "no flow ran: \(run.stdout)")
    }

    /// A lock another process takes during a run, after its first write: the run waits for it once, then what waits
    /// next fails at once while it stays locked, saying so (each store waited 10 s in turn: a minute for three flows).
    @Test func aLockTakenDuringARunIsWaitedForOnce() throws {
        let folder = scratchPath("idp-tui-locked-during")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let state = folder + "/state.sqlite"
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        // The first login's round trips are slow, so that the lock comes while it runs.
        let slow = #"{"username":"alice","password":"wonderland","faults":{"addedLatencyMs":1500}}"#
        let run = try BackgroundRun(flows: ["login", "login"], answers: "[\(slow),\(Answers.alice)]", state: state)
        run.waitForOutput(containing: #""step":"GET /authorize""#)
        let holder = try StateFile(path: state)
        try holder.executeForTesting("BEGIN IMMEDIATE")
        run.finish()
        try holder.executeForTesting("ROLLBACK")
        holder.close()
        let output = String(decoding: run.seen, as: UTF8.self)
        #expect(run.process.terminationStatus == 74, "\(output)")
        let results = output.split(separator: "\n").filter { $0.hasPrefix(#"{"type":"result""#) }
        #expect(results.count == 2, "\(output)")
        #expect(results.first?.contains("stayed locked by another process for 10 s") == true, "\(output)")
        #expect(results.last?.contains("is locked by another process (a wait for its lock already ran out after 10 s; this one waited half a second)") == true,
                "\(output)")
    }

    /// After a wait that ran out, a run still waits out another process's brief lock (an ordinary write's): one such
    /// lock failed the run's every later store at once, "still locked", though the long lock was gone. (And a prune
    /// that meets the long lock says it changed nothing.)
    @Test func afterAWaitThatRanOutARunStillWaitsOutABriefLock() throws {
        let folder = scratchPath("idp-tui-brief-lock")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/state.sqlite"
        let run = try StateFile(path: path)
        let holder = try StateFile(path: path)
        try holder.executeForTesting("BEGIN IMMEDIATE")
        // A prune meanwhile, in the same 10 s: its error says that nothing was changed, as reset's does.
        let pruning = try StateFile(path: path)
        let pruned = Locked<String?>(nil)
        let pruneEnded = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do throws(StateError) { _ = try pruning.prune() } catch { pruned.withLock { $0 = error.description } }
            pruneEnded.signal()
        }
        #expect(throws: StateError.self) { try run.reserveGeneration() }
        pruneEnded.wait()
        #expect(pruned.withLock { $0 }?.hasSuffix("stayed locked by another process for 10 s; nothing was changed") == true,
                "\(pruned.withLock { $0 } ?? "pruned")")
        pruning.close()
        try holder.executeForTesting("ROLLBACK")
        // Taken again, and freed once the run waits for it.
        try holder.executeForTesting("BEGIN IMMEDIATE")
        let freed = Locked(false)
        Thread.detachNewThread {
            while StateFile.lockWaitSince == nil { usleep(1000) }
            try? holder.executeForTesting("ROLLBACK")
            freed.withLock { $0 = true }
        }
        #expect(throws: Never.self) { try run.reserveGeneration() }
        #expect(freed.withLock { $0 })
        run.close()
    }

    /// Plain mode with its answers piped in, on a file another process keeps locked: a flow waits its 10 s once, and its
    /// record after it half a second (it waited 10 s more, 20 s a flow, where `run` ends at once).
    @Test func aPipedPlainSessionWaitsForALockOnceAFlow() throws {
        let folder = scratchPath("idp-tui-plain-locked")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let state = folder + "/state.sqlite"
        #expect(try BinaryRun.run(["run", "activate", "--state", state], stdin: Answers.aliceActivation).status == 0)
        let holder = try StateFile(path: state)
        let plain = Process()
        plain.executableURL = BinaryRun.executable
        plain.arguments = ["--plain", "--state", state]
        let input = Pipe()
        let output = Pipe()
        plain.standardInput = input
        plain.standardOutput = output
        plain.standardError = output
        try plain.run()
        try input.fileHandleForWriting.write(contentsOf: Data("2\n".utf8))
        // Taken once the login asks for its credentials: the device's store, when the tokens come, waits for it.
        var seen = Data()
        while !seen.contains(Data("Username".utf8)) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        try holder.executeForTesting("BEGIN IMMEDIATE")
        try input.fileHandleForWriting.write(contentsOf: Data("alice\nwonderland\n".utf8))
        try input.fileHandleForWriting.close()
        seen.append(output.fileHandleForReading.readDataToEndOfFile())
        plain.waitUntilExit()
        try holder.executeForTesting("ROLLBACK")
        holder.close()
        let text = String(decoding: seen, as: UTF8.self)
        #expect(text.contains("stayed locked by another process for 10 s"), "\(text)")
        #expect(text.contains("(a wait for its lock already ran out after 10 s; this one waited half a second)"), "\(text)")
        for secret in Answers.secrets { #expect(!text.contains(secret)) }
    }
}
