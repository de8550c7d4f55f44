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

        let run = Process()
        run.executableURL = URL(fileURLWithPath: TmuxSession.binary)
        run.arguments = ["run", "activate", "--state", state]
        let input = Pipe()
        run.standardInput = input
        run.standardOutput = FileHandle.nullDevice
        run.standardError = FileHandle.nullDevice
        try run.run()
        input.fileHandleForWriting.write(Data(#"{"username":"alice","password":"wonderland","activation-code":"123456"}"#.utf8))
        try input.fileHandleForWriting.close()
        run.waitUntilExit()
        #expect(run.terminationStatus == 0)

        session.press("?")
        #expect(session.waitFor("Keys"))
        session.press("Escape")
        let (followed, screen) = session.waitUntil { $0.contains("device: logged in as alice") }
        #expect(followed, "\(screen)")

        // A log-out by another process shows after the history is closed.
        let logout = Process()
        logout.executableURL = URL(fileURLWithPath: TmuxSession.binary)
        logout.arguments = ["run", "logout", "--state", state]
        logout.standardInput = FileHandle.nullDevice
        logout.standardOutput = FileHandle.nullDevice
        logout.standardError = FileHandle.nullDevice
        try logout.run()
        logout.waitUntilExit()
        #expect(logout.terminationStatus == 0)
        session.press("h")
        #expect(session.waitFor("History"))
        session.press("Escape")
        let (loggedOut, after) = session.waitUntil { $0.contains("device: activated as alice") }
        #expect(loggedOut, "\(after)")

        // So does a reset (no device stored any more): it kept saying "activated as alice" until a flow ran.
        let reset = Process()
        reset.executableURL = URL(fileURLWithPath: TmuxSession.binary)
        reset.arguments = ["reset", "--yes", "--state", state]
        reset.standardInput = FileHandle.nullDevice
        reset.standardOutput = FileHandle.nullDevice
        reset.standardError = FileHandle.nullDevice
        try reset.run()
        reset.waitUntilExit()
        #expect(reset.terminationStatus == 0)
        session.press("?")
        #expect(session.waitFor("Keys"))
        session.press("Escape")
        let (wasReset, last) = session.waitUntil { $0.contains("device: not activated") }
        #expect(wasReset, "\(last)")
    }
}
