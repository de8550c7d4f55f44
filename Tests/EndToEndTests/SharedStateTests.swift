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
