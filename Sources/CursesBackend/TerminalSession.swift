import CNcurses
import FlowEngine
import Foundation
import TerminalUI
import Threading

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the terminal UI: one thread (this one, the main thread) owns curses and waits with `poll` on the
/// keyboard, the service's mailbox and a signal pipe together. Nothing is drawn unless one of them woke it.
public enum TerminalSession {
    /// Why the UI could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Runs until the user quits; returns the exit status. The terminal is restored on every way out.
    ///
    /// `makeService` runs on a background thread once the first frame is drawn, so that the simulated world
    /// (password hashing, certificate parsing) neither delays nor competes with the first frame; keys typed
    /// meanwhile wait for it.
    public static func run(
        theme: Theme, tenant: String, idpUrl: String, mouse: Bool = true, startupLock: StartupLock? = nil,
        makeService: @escaping @Sendable () -> Result<FlowService, StartError>
    ) throws(StartError) -> Int32 {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw StartError(description: "the terminal UI needs a terminal on stdin and stdout; use --plain for line-by-line prompts, or idp-tui run for scripts")
        }
        var signalPipe: [Int32] = [-1, -1]
        guard pipe(&signalPipe) == 0 else { throw StartError(description: "cannot create the signal pipe") }
        _ = fcntl(signalPipe[0], F_SETFL, fcntl(signalPipe[0], F_GETFL) | O_NONBLOCK)
        defer {
            // A signal after the session must not write into whatever file gets the pipe's number next.
            idp_signals_detach()
            close(signalPipe[0])
            close(signalPipe[1])
        }
        idp_signals_install(signalPipe[1])
        // The world's builder tells the loop it is done through a pipe whose read end is closed when the loop
        // ends: a build that finishes between that and the exit wrote to a closed pipe, and SIGPIPE (when the
        // parent had not ignored it) killed the process with 141 instead of its own status (143 for SIGTERM).
        signal(SIGPIPE, SIG_IGN)
        let built = ServiceBuilder()
        defer { built.close() }
        guard idp_curses_start(mouse ? 1 : 0) == 0 else {
            // A long value is named by its start, as other echoed words are cut (a 3,000-character TERM was echoed whole).
            let full = getenv("TERM").map { String(cString: $0) } ?? ""
            let term = full.count > 64 ? full.prefix(40) + "… (\(full.utf8.count) bytes)" : full
            throw StartError(description: term.isEmpty
                ? "TERM is not set, so the terminal UI cannot draw; set it (TERM=xterm-256color), or use idp-tui --plain (line by line) or idp-tui run"
                : "the terminal type \"\(term)\" (TERM) is unknown to this system's terminfo; try TERM=xterm-256color, or use idp-tui --plain (line by line) or idp-tui run")
        }
        defer { idp_curses_stop() }

        let app = TerminalApp(tenant: tenant, idpUrl: idpUrl, width: Int(idp_curses_cols()), height: Int(idp_curses_lines()))
        app.startupLock = startupLock
        let screen = CursesScreen(theme: theme)
        var reader = KeyReader()
        var dirty = true
        /// Stopped until `fg` (Ctrl-Z, or SIGTSTP from outside), then everything drawn again at the size it has then.
        /// Ended while stopped in the background (`kill %1`): the terminal is the shell's, and nothing is drawn
        /// again; the loop reads the signal and ends.
        var terminalGivenBack = false
        /// `stopped`: ``idp_curses_suspend`` (Ctrl-Z), or ``idp_curses_continued`` after a stop from outside.
        func takeBack(after stopped: () -> Int32) {
            guard stopped() == 1 else {
                terminalGivenBack = true
                return
            }
            app.resize(width: Int(idp_curses_cols()), height: Int(idp_curses_lines()))
            screen.invalidate()
        }
        var buildFailure: StartError?
        while app.exitStatus == nil && buildFailure == nil {
            if dirty && !terminalGivenBack {
                app.tick()
                screen.draw(app.render())
                dirty = false
                // The first frame is out: now build the simulated world, off this thread.
                built.start(makeService)
                injectCrashIfAsked()
            }
            // Until the service is built, its slot waits on the builder's pipe instead.
            let service = app.serviceIfReady
            var fds = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: service?.wakeFileDescriptor ?? built.readyFileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signalPipe[0], events: Int16(POLLIN), revents: 0),
            ]
            // A lone Esc (or a paste without its end) is decided when the decoder's timer runs out; a call in
            // flight redraws its elapsed time a few times a second. Otherwise poll waits: idle draws nothing.
            let tick = app.tickInterval?.pollMilliseconds ?? -1
            let decoderTimeout = reader.timeoutMilliseconds
            let timeout = decoderTimeout < 0 ? tick : (tick < 0 ? decoderTimeout : min(tick, decoderTimeout))
            let ready = poll(&fds, 3, timeout)
            if ready == 0 && app.tickInterval != nil { dirty = true }
            if ready < 0 && errno != EINTR { app.quit(1) }
            var resized = false
            if fds[2].revents != 0 {
                var number: UInt8 = 0
                if read(signalPipe[0], &number, 1) == 1 {
                    // A resize wakes the loop: curses has its KEY_RESIZE waiting for the read below.
                    if Int32(number) == SIGWINCH {
                        resized = true
                    } else if Int32(number) == SIGTSTP {
                        // From outside (kill -TSTP): as Ctrl-Z.
                        takeBack(after: idp_curses_suspend)
                        dirty = true
                    } else if Int32(number) == SIGCONT {
                        // After a stop from outside (kill -STOP, a debugger): the terminal taken back.
                        if !terminalGivenBack { takeBack(after: idp_curses_continued) }
                        dirty = true
                    } else {
                        app.quit(128 + Int32(number))
                    }
                }
                if !resized { continue }
            }
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 && fds[0].revents & Int16(POLLIN) == 0 {
                app.quit(129)
                continue
            }
            // A signal (SIGWINCH) interrupts poll; ncurses then has a KEY_RESIZE waiting.
            if fds[0].revents != 0 || ready <= 0 || resized {
                let inputs = ready == 0 ? reader.flushWaiting() : reader.readAvailable()
                // Hung up with the last bytes read: poll goes on saying POLLIN|POLLHUP and reads give nothing (the
                // loop spun at half a core when the terminal went without a SIGHUP).
                if inputs.isEmpty && fds[0].revents & Int16(POLLHUP) != 0 {
                    app.quit(129)
                    continue
                }
                for input in inputs {
                    dirty = true
                    switch input {
                    // Ctrl-L draws the whole screen again, as in vim, less and htop: after another program wrote to
                    // the terminal (a background job, `write`), whose text stayed until a resize.
                    case .key(.control("l")): screen.invalidate()
                    case .key(let key): app.handle(key)
                    case .paste(let text): app.handlePaste(text)
                    // With --no-mouse the terminal keeps the mouse; a report that arrives anyway is not acted on.
                    case .mouse(let report): if mouse { app.handleMouse(report) }
                    case .resize:
                        app.resize(width: Int(idp_curses_cols()), height: Int(idp_curses_lines()))
                        screen.invalidate()
                    case .suspend: takeBack(after: idp_curses_suspend)
                    case .notUTF8: app.noteInputNotUTF8()
                    }
                    if app.exitStatus != nil { break }
                }
            }
            if fds[1].revents != 0 {
                if let service {
                    if service.deliverPendingMessages(to: app) > 0 { dirty = true }
                } else if let ready = built.take() {
                    switch ready {
                    case .success(let service):
                        // This loop is the main thread's run loop: the main queue (the Drops delegate's
                        // callbacks) runs in it, between keys and messages.
                        service.mailbox.serveMainQueue()
                        app.attach(service)
                        dirty = true
                    case .failure(let failure):
                        // The state file could not be opened: the terminal is given back, then the error is printed.
                        buildFailure = failure
                    }
                }
            }
        }
        if let buildFailure {
            idp_curses_stop()
            throw buildFailure
        }
        if let note = app.interruptionNote(), app.exitStatus != 129 {
            // Said once the terminal is given back (not after a hang-up: no one reads it). A plain write: one that
            // fails (a closed standard error) is dropped, where FileHandle's write trapped.
            idp_curses_stop()
            let line = Array("idp-tui: \(note)\n".utf8)
            _ = line.withUnsafeBytes { Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        return app.exitStatus ?? 0
    }
}

/// `IDP_TUI_FAULT=crash-after-first-frame` crashes on purpose once curses is up, so that tests can check that
/// a fatal error still gives the terminal back.
private func injectCrashIfAsked() {
    guard let fault = getenv("IDP_TUI_FAULT"), String(cString: fault) == "crash-after-first-frame" else { return }
    fatalError("crash injected by IDP_TUI_FAULT=crash-after-first-frame")
}

/// Builds the service on a background thread and says so on a pipe the main loop can poll.
private final class ServiceBuilder: Sendable {
    private let pipeEnds: [Int32]
    private let result = Locked<Result<FlowService, TerminalSession.StartError>?>(nil)
    private let started = Locked(false)

    init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        pipeEnds = ends
    }

    /// Starts building, once; later calls do nothing.
    func start(_ make: @escaping @Sendable () -> Result<FlowService, TerminalSession.StartError>) {
        guard started.withLock({ started in defer { started = true }; return !started }) else { return }
        let writeEnd = pipeEnds[1]
        let result = result
        DispatchQueue.global(qos: .userInteractive).async {
            let service = make()
            result.withLock { $0 = service }
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
    }

    var readyFileDescriptor: Int32 { pipeEnds[0] }

    func take() -> Result<FlowService, TerminalSession.StartError>? {
        var byte: UInt8 = 0
        _ = read(pipeEnds[0], &byte, 1)
        return result.withLock { $0 }
    }

    func close() {
        // The write end stays open: a build still running may yet write to it; the process is ending.
        Glibc.close(pipeEnds[0])
    }
}

