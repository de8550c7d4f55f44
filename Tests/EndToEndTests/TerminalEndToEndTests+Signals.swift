import Foundation
import StateStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// More of the suite: how the terminal UI ends on Ctrl-C, signals and a hang-up, and what it leaves the terminal in.
extension TerminalEndToEndTests {
    @Test func ctrlCExitsWith130AndLeavesThePaneInNormalMode() throws {
        let session = try TmuxSession()
        openActivation(session)
        session.press("C-c")
        #expect(session.waitForExit() == 130)
        #expect(session.format("#{alternate_on}") == "0")
        #expect(session.format("#{cursor_flag}") == "1")
        // Once the terminal is given back, a line says what the signal stopped (it quit with nothing said).
        #expect(session.waitFor("idp-tui: interrupted: Activate device cancelled"), "\(session.scrollback())")
    }

    /// Ctrl-C in a flow with standard error closed still exits 130: the line said after the session was written
    /// with FileHandle, which trapped on the failed write (exit 132 and a backtrace).
    @Test func ctrlCWithStandardErrorClosedStillExits130() throws {
        let session = try TmuxSession(command: [
            "sh", "-c", "trap '' INT; \"$0\" --ephemeral 2>&-; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _", TmuxSession.binary,
        ])
        openActivation(session)
        session.press("C-c")
        #expect(session.waitForExit() == 130)
    }

    /// Every signal whose default ends the process ends it as SIGTERM does: USR1 and ALRM left the alternate screen
    /// and mouse reporting on, and the flow under way out of the history.
    @Test(arguments: [("TERM", Int32(143)), ("HUP", 129), ("USR1", 138), ("ALRM", 142)])
    func signalsRestoreTheTerminal(_ signal: String, _ status: Int32) throws {
        let session = try TmuxSession()
        openActivation(session)
        let pid = session.binaryPID()
        #expect(!pid.isEmpty)
        _ = try Spawn.run(["kill", "-\(signal)", pid], capture: false)
        #expect(session.waitForExit() == status)
        #expect(session.format("#{alternate_on}") == "0")
        #expect(session.format("#{mouse_any_flag}") == "0")
        // A hang-up says nothing: its terminal is gone.
        if signal != "HUP" {
            #expect(session.waitFor("idp-tui: interrupted: Activate device cancelled"), "\(session.scrollback())")
        }
    }

    /// A write to a closed pipe (the world's builder finishing as the loop ends) must not kill the UI with
    /// SIGPIPE, whatever its parent left the signal at: it then exited 141 instead of 143 after a SIGTERM.
    @Test func theTerminalUIIsNotKilledBySIGPIPE() throws {
        // Started with SIGPIPE at its default action, as a parent that does not ignore it leaves it.
        let defaultAction = "import os, signal, sys; signal.signal(signal.SIGPIPE, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
        let session = try TmuxSession(command: ["python3", "-c", defaultAction, TmuxSession.binary, "--ephemeral"])
        #expect(session.waitFor("What would you like to do?"))
        let pid = session.format("#{pane_pid}")  // python3 became idp-tui (execv)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let ignored = status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) }
        #expect(ignored.map { $0 & (1 << (UInt64(SIGPIPE) - 1)) != 0 } == true, "SigIgn: \(String(describing: ignored))")
        session.press("q")
    }

    /// A terminal that goes away without a SIGHUP (no controlling terminal: the pty is only its standard input and
    /// output) ends the UI with 129: poll went on saying POLLIN|POLLHUP, reads gave nothing, and the loop spun at
    /// half a core, for ever.
    @Test func aHangUpWithoutSIGHUPEndsTheUI() throws {
        let output = try hangUp(["--ephemeral"], steps: [("What would you like", "")])
        #expect(output.contains("exit 129"), "\(output)")
    }

    /// Runs the binary with `arguments` in a pseudo-terminal that is not its controlling terminal (so no SIGHUP
    /// reaches it), waits for each step's text and types its keys, then closes the terminal. Returns "exit N", or
    /// "still running" when it did not end within 10 s.
    func hangUp(_ arguments: [String], steps: [(String, String)]) throws -> String {
        let script = """
            import json, os, pty, select, subprocess, sys, time
            master, slave = pty.openpty()
            env = dict(os.environ, TERM="xterm-256color")
            child = subprocess.Popen([sys.argv[1]] + json.loads(sys.argv[2]), stdin=slave, stdout=slave, stderr=slave,
                                     start_new_session=True, env=env)
            os.close(slave)
            seen = b""
            for text, keys in json.loads(sys.argv[3]):
                end = time.time() + 10
                while text.encode() not in seen and time.time() < end:
                    if select.select([master], [], [], 0.1)[0]:
                        seen += os.read(master, 65536)
                os.write(master, keys.encode())
            os.close(master)
            try:
                print("exit", child.wait(timeout=10))
            except subprocess.TimeoutExpired:
                child.kill()
                print("still running")
            """
        let json = { (value: Any) in String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self) }
        return try Spawn.run(["python3", "-c", script, TmuxSession.binary, try json(arguments), try json(steps.map { [$0.0, $0.1] })],
                             capture: true)
    }

    /// Plain mode, the same: the terminal gone without a SIGHUP mid-flow ends the session as a SIGHUP does, 129,
    /// with the flow cancelled and in the history (it ended with 74, "could not be written", and no flow kept).
    @Test func aHangUpWithoutSIGHUPEndsPlainModeAndKeepsTheFlow() throws {
        let state = NSTemporaryDirectory() + "idp-tui-hangup-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: state + suffix) } }
        let output = try hangUp(["--plain", "--state", state], steps: [("Choose 1-", "1\r"), ("Username", "alice\r"), ("Password", "")])
        #expect(output.contains("exit 129"), "\(output)")
        let history = try Spawn.run([TmuxSession.binary, "history", "--state", state], capture: true)
        #expect(history.contains("activate") && history.contains("INTERRUPTED"), "\(history)")
    }
}

/// `bg` after Ctrl-Z: the job is not the terminal's, so it stops again at once without touching the terminal
/// (it turned the paste and mouse modes back on in the shell, where every click then typed "\e[<…M").
@Suite(.serialized) struct BackgroundResumeTests {
    @Test func bgAfterCtrlZLeavesTheShellsMouseOff() throws {
        let session = try TmuxSession(command: ["bash", "--norc", "--noprofile", "-i", "-b"])
        session.type("\(TmuxSession.binary) --ephemeral")
        session.press("Enter")
        #expect(session.waitFor("What would you like to do?"))
        #expect(session.format("#{mouse_any_flag}") == "1", "the UI reports the mouse")
        session.press("C-z")
        #expect(session.waitUntil(scrollback: true) { $0.contains("Stopped") }.0, "\(session.scrollback())")
        session.type("bg")
        session.press("Enter")
        let (stoppedAgain, screen) = session.waitUntil(scrollback: true) { $0.components(separatedBy: "Stopped").count > 2 }
        #expect(stoppedAgain, "\(screen)")
        #expect(session.format("#{mouse_any_flag}") == "0", "\(screen)")
        #expect(session.format("#{alternate_on}") == "0")
        session.type("fg")
        session.press("Enter")
        #expect(session.waitFor("What would you like to do?"))
        session.press("q")
        #expect(session.waitUntil(scrollback: true) { $0.contains("What would you like to do?") == false || $0.hasSuffix("$ ") }.0)
    }

    /// The terminal UI (or plain mode) started from an interactive bash (its job control), at its home screen.
    static func uiInAShell(plain: Bool = false) throws -> TmuxSession {
        let session = try TmuxSession(command: ["bash", "--norc", "--noprofile", "-i"], environment: ["PS1": "shell$ "])
        #expect(session.waitFor("shell$"))
        session.type("\(TmuxSession.binary) --ephemeral" + (plain ? " --plain" : ""))
        session.press("Enter")
        #expect(session.waitFor(plain ? "(q quits)" : "What would you like to do?"))
        return session
    }

    /// Plain mode stopped from outside at a question, then `fg`: its line editing back (no echo by the terminal), and
    /// the question asked again under the shell's lines with what was typed for it, as readline redraws its line.
    @Test func plainModeAsksAgainAfterAStopFromOutside() throws {
        let session = try Self.uiInAShell(plain: true)
        session.type("1")
        session.press("Enter")
        #expect(session.waitFor("Username (? lists demo users):"))
        session.type("ali")
        let pid = session.binaryPID()
        #expect(!pid.isEmpty)
        _ = try Spawn.run(["kill", "-STOP", pid], capture: false)
        #expect(session.waitUntil(scrollback: true) { $0.contains("Stopped") }.0, "\(session.scrollback())")
        session.type("fg")
        session.press("Enter")
        let (askedAgain, screen) = session.waitUntil { $0.components(separatedBy: "Username (? lists demo users): ali").count == 3 }
        #expect(askedAgain, "\(screen)")
        session.type("ce")
        session.press("Enter")
        #expect(session.waitFor("Password (hidden; ? fills in alice's password):"))
    }

    /// A stop the UI did not make (`kill -STOP`, a debugger attaching), a `kill -CONT` while the shell keeps the
    /// terminal, then `fg`: the UI stops again in the background, its mouse and paste modes off in the shell, and at
    /// `fg` takes the terminal's modes back and draws everything: keys went to the form again. It heard no SIGCONT:
    /// it ran on in the background with its modes on in the shell, and after `fg` keys echoed, waiting for Enter.
    @Test func aStopFromOutsideThenFgGivesTheKeysBack() throws {
        let session = try Self.uiInAShell()
        session.press("1")
        session.press("Enter")
        #expect(session.waitFor("Username"))
        let pid = session.binaryPID()
        #expect(!pid.isEmpty)
        _ = try Spawn.run(["kill", "-STOP", pid], capture: false)
        #expect(session.waitUntil(scrollback: true) { $0.contains("Stopped") }.0, "\(session.scrollback())")
        _ = try Spawn.run(["kill", "-CONT", pid], capture: false)
        let (stoppedAgain, screen) = session.waitUntil(scrollback: true) { _ in
            session.format("#{alternate_on}") == "0" && ((try? Spawn.run(["ps", "-o", "stat=", "-p", pid], capture: true)) ?? "").hasPrefix("T")
        }
        #expect(stoppedAgain, "stopped again, its screen left: \(screen)")
        #expect(session.format("#{mouse_any_flag}") == "0", "\(screen)")
        session.type("fg")
        session.press("Enter")
        #expect(session.waitFor("Username"))
        session.type("alice")
        let (typed, form) = session.waitUntil { $0.contains("[alice") }
        #expect(typed, "\(form)")
    }

    /// `kill %1` on the stopped job (SIGTERM, then SIGCONT): it ends at once with 143, the shell's mouse and paste
    /// modes left off. It turned them on in the shell, stopped again on that tty write ("Stopped (tty output)"),
    /// and heard the SIGTERM only at `fg`.
    @Test func killingTheStoppedJobEndsItWithoutTouchingTheShell() throws {
        let session = try Self.uiInAShell()
        session.press("C-z")
        #expect(session.waitUntil(scrollback: true) { $0.contains("Stopped") }.0, "\(session.scrollback())")
        let pid = session.binaryPID()
        #expect(!pid.isEmpty)
        // Waited for in the shell until the process is gone (bash's own `wait` right after `kill` can still find
        // the job stopped, its SIGCHLD for the continue not yet in); bash then says how the job ended.
        session.type("kill %1; while kill -0 \(pid) 2>/dev/null; do sleep 0.05; done; echo gone")
        session.press("Enter")
        let (ended, screen) = session.waitUntil(scrollback: true) { $0.contains("Exit 143") && $0.contains("\ngone") }
        #expect(ended, "\(screen)")
        #expect(!screen.contains("tty output"), "\(screen)")
        #expect(session.format("#{mouse_any_flag}") == "0" && session.format("#{mouse_sgr_flag}") == "0", "\(screen)")
        #expect(session.format("#{alternate_on}") == "0")
    }
}

/// Ctrl-C while another process holds the state file's lock ends the terminal UI at once, as `run` ends: it waited
/// out SQLite's 10 s busy timeout at start, and 19 s in a flow.
@Suite(.serialized) struct LockedStateQuitTests {
    @Test func ctrlCWhileAnotherProcessHoldsTheLockQuitsAtOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idp-tui-locked-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = folder + "/state.sqlite"
        let made = try StateFile(path: state)
        made.close()
        let holder = try StateFile(path: state)
        try holder.executeForTesting("BEGIN IMMEDIATE")
        defer {
            try? holder.executeForTesting("ROLLBACK")
            holder.close()
        }
        let session = try TmuxSession(arguments: ["--state", state])
        #expect(session.waitFor("device: starting…"), "\(session.scrollback())")
        session.press("C-c")
        // Well under the busy timeout, the lock still held.
        #expect(session.waitForExit(timeout: .seconds(5)) == 130, "\(session.scrollback())")
    }
}
