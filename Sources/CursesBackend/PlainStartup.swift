import Dispatch
import FlowEngine
import Foundation
import TerminalUI
import Threading

#if canImport(Glibc)
    import Glibc
#endif

/// Plain mode's start: the service is built before the first question, and a state file another process holds
/// locked makes that wait, up to the busy timeout. Said once the wait has lasted half a second, as the terminal UI's
/// status line says it (plain mode was silent for the 10 s, then ended with the lock's error).
enum PlainStartup {
    static func built(
        _ make: () -> Result<FlowService, TerminalSession.StartError>, saying lock: StartupLock?
    ) -> Result<FlowService, TerminalSession.StartError> {
        guard let lock else { return make() }
        // A closed output ends the write, not the process (the session ignores SIGPIPE from its start, after this).
        signal(SIGPIPE, SIG_IGN)
        let done = Locked(false)
        let watch = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        watch.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
        watch.setEventHandler {
            guard let since = lock.since(), since.duration(to: .now) >= .milliseconds(500) else { return }
            done.withLock { done in
                guard !done else { return }
                done = true
                // Before the session writes anything: a line of its own, at the start of a line.
                let line = Array("\(AppState.startupLockText); waiting up to \(lock.timeout.components.seconds) s (Ctrl-C quits)\n".utf8)
                _ = line.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            }
            watch.cancel()
        }
        watch.resume()
        let result = make()
        done.withLock { $0 = true }
        watch.cancel()
        return result
    }
}
