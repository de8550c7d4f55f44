import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `idp-tui` binary in a tmux pane of its own server: keys in with send-keys, screen out with
/// capture-pane. Waits poll the pane for text until a deadline; nothing sleeps for a fixed time.
final class TmuxSession {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("idp-tui").path

    private let socket = "idp-tui-e2e-\(getpid())-\(UUID().uuidString.prefix(8))"
    /// The session's state folder (`XDG_STATE_HOME`), removed with the session.
    let stateHome = NSTemporaryDirectory() + "idp-tui-state-\(UUID().uuidString)"
    let target = "e2e"

    /// What the wrapper prints when the binary exits, before the status.
    static let exitMarker = "[idp-tui exited with status "

    /// Starts `command` in an 80×24 pane; by default the binary with `arguments`, under a shell wrapper that
    /// prints its exit status into the pane and then waits, so that the pane and its scrollback stay for
    /// inspection. (tmux 3.3 leaves `pane_dead_status` empty for some exits, and can drop a dying pane's last
    /// output.)
    init(width: Int = 80, height: Int = 24, arguments: [String] = [], command: [String]? = nil,
         environment: [String: String] = [:]) throws {
        // A state folder of its own, so that sessions never see each other's device.
        var tmuxArguments = ["-f", "/dev/null", "new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)",
                             "-e", "LANG=C.UTF-8", "-e", "XDG_STATE_HOME=\(stateHome)"]
        for (key, value) in environment { tmuxArguments += ["-e", "\(key)=\(value)"] }
        tmuxArguments += command
            ?? (["sh", "-c", "\"$0\" \"$@\"; echo \"\(Self.exitMarker)$?]\"; read -r _", Self.binary] + arguments)
        tmuxArguments += [";", "set-option", "-t", target, "remain-on-exit", "on"]
        tmuxArguments += [";", "set-option", "-g", "history-limit", "5000"]
        // The server this starts inherits the client's descriptors: give it no pipe it could hold open.
        try tmux(tmuxArguments, capture: false)
    }

    deinit {
        _ = try? tmux(["kill-server"], capture: false)
        try? FileManager.default.removeItem(atPath: stateHome)
    }

    @discardableResult
    func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        try Spawn.run(["tmux", "-L", socket] + arguments, capture: capture)
    }

    /// Named keys (Enter, Tab, Escape, C-c, BTab, Up …), each sent as a key.
    func press(_ keys: String...) {
        _ = try? tmux(["send-keys", "-t", target] + keys, capture: false)
    }

    /// Literal text, as if typed.
    func type(_ text: String) {
        _ = try? tmux(["send-keys", "-t", target, "-l", text], capture: false)
    }

    /// Raw bytes, as a terminal would send them (escape sequences included), in one write.
    func send(bytes text: String) {
        let hex = text.utf8.map { String(format: "%02x", $0) }
        _ = try? tmux(["send-keys", "-t", target, "-H"] + hex, capture: false)
    }

    /// Pastes text as a terminal would: bracketed, when the program asked for it.
    func paste(_ text: String) {
        _ = try? tmux(["set-buffer", "-b", "clip", text], capture: false)
        _ = try? tmux(["paste-buffer", "-p", "-b", "clip", "-t", target], capture: false)
    }

    func screen() -> String {
        (try? tmux(["capture-pane", "-p", "-t", target])) ?? ""
    }

    /// The screen and everything scrolled off it.
    func scrollback() -> String {
        (try? tmux(["capture-pane", "-p", "-S", "-", "-E", "-", "-t", target])) ?? ""
    }

    func format(_ format: String) -> String {
        ((try? tmux(["display-message", "-p", "-t", target, format])) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(width: Int, height: Int) {
        _ = try? tmux(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"], capture: false)
    }

    /// Polls until `condition` holds for the captured screen (with `scrollback`, the whole history: what scrolled
    /// off too), or `timeout` passes. Returns the last capture.
    @discardableResult
    func waitUntil(timeout: Duration = .seconds(15), scrollback: Bool = false, _ condition: (String) -> Bool) -> (Bool, String) {
        let deadline = ContinuousClock.now + timeout
        let capture = { scrollback ? self.scrollback() : self.screen() }
        var text = capture()
        while !condition(text) {
            if ContinuousClock.now > deadline { return (false, text) }
            usleep(20_000)
            text = capture()
        }
        return (true, text)
    }

    /// Polls until the screen's last line (where plain mode's question waits with what is typed) starts with
    /// `prefix` and ends with `suffix`. Returns the last capture.
    func waitForLastLine(_ prefix: String, endingWith suffix: String) -> (Bool, String) {
        waitUntil { text in text.split(separator: "\n").last.map { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) } == true }
    }

    /// Polls until `text` is on screen. On a timeout it records what the screen showed instead.
    @discardableResult
    func waitFor(_ text: String, timeout: Duration = .seconds(15), sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let (found, screen) = waitUntil(timeout: timeout) { $0.contains(text) }
        if !found { Issue.record("\"\(text)\" did not appear; the screen was:\n\(screen)", sourceLocation: sourceLocation) }
        return found
    }

    /// Waits for the binary to exit and returns its status, as the wrapper printed it.
    func waitForExit(timeout: Duration = .seconds(15)) -> Int32? {
        let (found, text) = waitUntil(timeout: timeout) { $0.contains(Self.exitMarker) }
        guard found, let range = text.range(of: Self.exitMarker) else { return nil }
        return Int32(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// The binary's process id (the wrapper's child).
    func binaryPID() -> String {
        let shell = format("#{pane_pid}")
        return ((try? Spawn.run(["pgrep", "-P", shell], capture: true)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Runs a command with posix_spawn and waits for it with waitpid. (Foundation's Process left tmux clients
/// unreaped here, so `waitUntilExit` never returned.)
enum Spawn {
    struct Failure: Error { let message: String }

    /// Runs `argv` (looked up on PATH) with stdin and stderr on /dev/null; returns its stdout when
    /// `capture`, else sends stdout to /dev/null too, so a daemon it starts holds no pipe of ours.
    static func run(_ argv: [String], capture: Bool) throws -> String {
        var pipeFDs: [Int32] = [-1, -1]
        if capture { guard pipe(&pipeFDs) == 0 else { throw Failure(message: "pipe failed") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if capture {
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
            posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        // The test runner's threads block most signals; a child must start with none blocked and every
        // signal at its default, as from a shell.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, &cArguments, environ)
        if capture { close(pipeFDs[1]) }
        guard spawned == 0 else {
            if capture { close(pipeFDs[0]) }
            throw Failure(message: "cannot run \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        var output = [UInt8]()
        if capture {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(pipeFDs[0], &buffer, buffer.count)
                if count > 0 { output.append(contentsOf: buffer[0..<count]); continue }
                if count < 0 && errno == EINTR { continue }
                break
            }
            close(pipeFDs[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }
}

/// The plain menu as the binary asks for a choice: its items are the families' flows, then KSSIDP comparison and
/// Quit. Tests that only pass through the menu name it by these, so that a new family's item changes them here;
/// PlainMenuTests and the home screen's snapshot pin the menu itself.
enum PlainMenu {
    static let count = 9
    static let question = "Choose 1-\(count)"
    /// The KSSIDP comparison's number.
    static let comparison = "\(count - 1)"
}
