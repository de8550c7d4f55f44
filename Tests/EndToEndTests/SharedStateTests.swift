import Foundation
import Testing

/// Two processes on one state file: the terminal UI's status line follows what another one stored.
@Suite(.serialized) struct SharedStateTests {
    /// `idp-tui run activate` on the same state file while the UI is open: the status line says so once the home
    /// screen comes back into sight (here after the help), with no flow started (it said "not activated" until
    /// the next flow).
    @Test func theStatusLineFollowsAnotherProcessOnTheSameStateFile() throws {
        let folder = NSTemporaryDirectory() + "idp-tui-shared-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = folder + "/state.sqlite"
        let session = try TmuxSession(arguments: ["--state", state])
        #expect(session.waitFor("device: not activated"))

        #expect(try TmuxSession.runBinary(["run", "activate", "--state", state],
                                          stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#) == 0)

        session.press("?")
        #expect(session.waitFor("Keys"))
        session.press("Escape")
        let (followed, screen) = session.waitUntil { $0.contains("device: logged in as alice") }
        #expect(followed, "\(screen)")

        // A log-out by another process shows after the history is closed.
        #expect(try TmuxSession.runBinary(["run", "logout", "--state", state]) == 0)
        session.press("h")
        #expect(session.waitFor("History"))
        session.press("Escape")
        let (loggedOut, after) = session.waitUntil { $0.contains("device: activated as alice") }
        #expect(loggedOut, "\(after)")

        // So does a reset (no device stored any more): it kept saying "activated as alice" until a flow ran.
        #expect(try TmuxSession.runBinary(["reset", "--yes", "--state", state]) == 0)
        session.press("?")
        #expect(session.waitFor("Keys"))
        session.press("Escape")
        let (wasReset, last) = session.waitUntil { $0.contains("device: not activated") }
        #expect(wasReset, "\(last)")
    }

    /// Another process holds the state file's lock through a login: the working screen says the flow waits for the
    /// state file, and one Esc ends the flow at once, its record not saved because the person stopped waiting. It
    /// said "waiting for MC-SDK: Start", then "cancelling…", and the second Esc, which promised to end it at once,
    /// did nothing until the device's read and the flow's record had each waited out the 10 s busy timeout.
    @Test func anEscStopsWaitingForAnotherProcesssLockOnTheStateFile() throws {
        // The lock held until the test ends, whatever comes first: the old wait ended only with the busy timeout.
        let (session, lock, folder, _) = try Self.loginWaitingForALock()
        defer { lock.release(); try? FileManager.default.removeItem(atPath: folder) }
        #expect(session.waitFor("Esc stops waiting: the flow ends, and is not saved."))
        session.press("Escape")
        #expect(session.waitFor("Log in cancelled"))
        // The record's failure, whole in the log's detail view, says the person stopped waiting.
        session.press("Tab")
        session.press("End")
        session.press("Enter")
        let (told, screen) = session.waitUntil { $0.replacingOccurrences(of: "│", with: "").split(separator: " ").joined(separator: " ")
            .contains("was locked by another process, and you stopped waiting for it") }
        #expect(told, "\(screen)")
        // The stop held for that flow alone: the next one waits for the lock again, and goes on once it is free.
        // Esc closes the detail, leaves the log, then leaves the result.
        session.press("Escape")
        #expect(session.waitFor("enter details"))
        session.press("Escape")
        #expect(session.waitFor("tab: read them"))
        session.press("Escape")
        #expect(session.waitFor("What would you like to do?"))
        session.press("2")
        session.press("Enter")
        #expect(session.waitFor("waiting for the state file: another process holds its lock"))
        lock.release()
        #expect(session.waitFor("Username"))
    }

    /// Ctrl-C while a flow waits for another process's lock ends the session without waiting for the lock: the line
    /// said after it names the lock and the stop, while the lock is still held (it said "not recorded", nothing more,
    /// once the 2 s the session gives a cancelled flow had run out).
    @Test func ctrlCDuringALockWaitEndsWithoutWaitingForIt() throws {
        let (session, lock, folder, state) = try Self.loginWaitingForALock()
        defer { lock.release(); try? FileManager.default.removeItem(atPath: folder) }
        session.press("C-c")
        let (said, screen) = session.waitUntil {
            $0.replacingOccurrences(of: "\n", with: "").contains("not recorded: the state file \(state) was locked by another process, and you stopped waiting for it")
        }
        #expect(said, "\(screen)")
        #expect(session.waitForExit() == 130)
    }

    /// A state file another process holds locked as the session starts: the status line says so with its time, and q
    /// quits at once, the lock still held (it said "device: starting…" for the 10 s, the keys waiting unsaid).
    @Test func aLockAsTheSessionStartsIsSaidAndQQuits() throws {
        let (folder, state) = try Self.activatedStateFile()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lock = try StateFileLock(state)
        defer { lock.release() }
        let session = try TmuxSession(width: 60, height: 18, arguments: ["--state", state])
        #expect(session.waitFor("another process locks the state file ·"))
        #expect(session.waitFor("s · q quits"))
        session.press("q")
        #expect(session.waitForExit() == 0)
    }

    /// Plain mode says it too, before its first line, and goes on once the lock is free (it was silent for the wait).
    @Test func plainModeSaysALockAsTheSessionStarts() throws {
        let (folder, state) = try Self.activatedStateFile()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lock = try StateFileLock(state)
        defer { lock.release() }
        let session = try TmuxSession(arguments: ["--plain", "--state", state])
        #expect(session.waitFor("another process locks the state file; waiting up to 10 s (Ctrl-C quits)"))
        lock.release()
        #expect(session.waitFor("(q quits)"))
        let screen = session.screen()
        let said = try #require(screen.range(of: "another process locks the state file"))
        let banner = try #require(screen.range(of: "idp-tui (plain)"))
        #expect(said.lowerBound < banner.lowerBound, "said before the session's first line: \(screen)")
    }

    /// Log in started, in the terminal UI or plain mode, on a state file alice activated, once another process holds
    /// its lock and the session says it waits: the session, the lock (the caller releases it), the folder (the caller
    /// removes it) and the state file.
    static func loginWaitingForALock(plain: Bool = false) throws -> (session: TmuxSession, lock: StateFileLock, folder: String, state: String) {
        let (folder, state) = try activatedStateFile()
        let session = try TmuxSession(arguments: (plain ? ["--plain"] : []) + ["--state", state])
        #expect(session.waitFor(plain ? "(q quits)" : "device: logged in as alice"))
        let lock = try StateFileLock(state)
        session.press("2")
        session.press("Enter")
        #expect(session.waitFor("waiting for the state file: another process holds its lock"))
        return (session, lock, folder, state)
    }

    /// A fresh folder holding a state file on which alice has activated the device. The caller removes the folder.
    static func activatedStateFile() throws -> (folder: String, state: String) {
        let folder = NSTemporaryDirectory() + "idp-tui-locked-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let state = folder + "/state.sqlite"
        #expect(try TmuxSession.runBinary(["run", "activate", "--state", state],
                                          stdin: #"{"username":"alice","password":"wonderland","activation-code":"123456"}"#) == 0)
        return (folder, state)
    }

    /// Plain mode says the wait too, and one Esc stops it (it was silent for the lock's 10 s at each wait).
    @Test func plainModeSaysTheLockAndEscStopsWaiting() throws {
        let (session, lock, folder, _) = try Self.loginWaitingForALock(plain: true)
        defer { lock.release(); try? FileManager.default.removeItem(atPath: folder) }
        #expect(session.waitFor("waiting for the state file: another process holds its lock; Esc stops waiting"))
        session.press("Escape")
        let (ended, screen) = session.waitUntil { $0.contains("Log in cancelled") }
        #expect(ended, "\(screen)")
        #expect(session.scrollback().contains("you stopped waiting for it"), "\(session.scrollback())")
    }
}

extension SharedStateTests {
    /// The state file deleted under the terminal UI (`rm` in another shell): what the session did since went to a file
    /// nobody can open again, and the session says so when it ends (it ended exit 0, nothing said, nothing kept).
    @Test func aStateFileDeletedUnderTheUIIsSaidWhenItEnds() throws {
        let folder = NSTemporaryDirectory() + "idp-tui-deleted-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = folder + "/state.sqlite"
        let shell = try TmuxSession(command: ["bash", "--norc", "--noprofile", "-i"], environment: ["PS1": "shell$ "])
        #expect(shell.waitFor("shell$"))
        shell.type("\(TmuxSession.binary) --state \(state)")
        shell.press("Enter")
        #expect(shell.waitFor("device: not activated"))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: state + suffix) }
        shell.press("q")
        let (said, screen) = shell.waitUntil { $0.replacingOccurrences(of: "\n", with: "").contains("was deleted while idp-tui had it open") }
        #expect(said, "\(screen)")
    }
}

/// Another process's write lock on a state file (`BEGIN IMMEDIATE`, as `sqlite3` takes it), by Python's sqlite3,
/// held until ``release()``.
final class StateFileLock {
    private let process = Process()
    private let input = Pipe()

    init(_ path: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
            + "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.read()", path]
        process.standardInput = input
        process.standardOutput = output
        // Not inherited by a tmux server started after it: one that held the write end kept Python reading (a test that
        // takes the lock before its session starts, then frees it, waited for ever).
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        try process.run()
        // Taken once it says so; a Python without its sqlite3 module says nothing, and ends.
        let said = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        if !said.hasPrefix("locked") {
            struct NoLock: Error, CustomStringConvertible { var description: String }
            throw NoLock(description: "python3 could not take the state file's lock (is its sqlite3 module there?)")
        }
    }

    /// Idempotent: a test may release it early, and its `defer` again. Ended, not only told: a process started meanwhile
    /// by a parallel test (a tmux server) may hold the input's write end, and Python would read on for ever.
    func release() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

extension TmuxSession {
    /// Runs the binary outside tmux (another process on the same state file), with `stdin` as its input (none when
    /// nil: a logout reads none), its output discarded; returns its exit status.
    static func runBinary(_ arguments: [String], stdin: String? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
