import Threading

/// What the process writes, whichever command writes it: its lines stop at a signal, its first write error and the
/// flows the history could not keep are remembered for the exit status (`end` in main.swift). Process-wide, so that
/// `run`'s lines, plain mode's session and the signal handlers agree.
public enum ProcessOutput {
    /// The signal the process is ending on, once one came (nil before): nothing more is written, so that no result
    /// line is printed for a flow the closed state file could not keep. Never held over a write, so that a signal's
    /// exit can always set it.
    private static let stoppedBy = Locked<Int32?>(nil)

    /// Held over each line's write, so that lines never interleave and a signal's exit can wait for the one being
    /// written.
    private static let writing = Locked(())

    /// Stops every later line, waiting up to a second for one being written to end; for a signal's exit. A line
    /// whose write the kernel holds (a blocking output nobody reads) is not waited for longer: the exit ends it
    /// (it held the lock this took, and SIGTERM never ended the run).
    public static func stopWriting(signal: Int32) {
        stoppedBy.withLock { $0 = $0 ?? signal }
        _ = writing.withLock(waitingAtMost: .seconds(1)) { _ in }
    }

    /// What a run does once a signal has stopped the output, before the state file is closed and the process ends
    /// (``finishStopping()``): set by the runner, which cancels the flow under way there and waits for its record.
    private static let stopping = Locked<(@Sendable () -> Void)?>(nil)

    /// Sets (or, nil, clears) what ``finishStopping()`` does.
    public static func whenStopping(_ work: (@Sendable () -> Void)?) {
        stopping.withLock { $0 = work }
    }

    /// Called by the signal's handler after ``stopWriting(signal:)``, on its own thread: a flow under way when the
    /// signal came is cancelled and kept in the history, as the terminal UI keeps one (it was lost, its effects kept:
    /// an activation code spent at the IdP with no flow in the history to say so).
    public static func finishStopping() {
        stopping.withLock { $0 }?()
    }

    /// The status to end with: 128 + the signal's number once a signal stopped the output, whatever `status`.
    /// The run may reach its own end before the signal's handler exits, with a line held back: that is no success.
    public static func endingStatus(_ status: Int32) -> Int32 {
        stoppedBy.withLock { $0 }.map { 128 + $0 } ?? status
    }

    /// Whether a signal has stopped the output: an error line is then not written (the signal's handler stops the
    /// output before it closes the state file, whose closing is what ends a wait with an error). Read without
    /// holding the lock over the write, so that a stderr that blocks (`2>&1 | less`) cannot keep the handler waiting.
    static var isStopped: Bool { stoppedBy.withLock { $0 != nil } }

    /// The signal that stopped the output, if one has.
    static var stoppingSignal: Int32? { stoppedBy.withLock { $0 } }

    /// Writes every byte, unbuffered, so that each JSON line reaches a pipe as soon as it happens.
    /// A line that waits for room in a non-blocking output (a reader that does not read) gives up once a signal has
    /// stopped the output.
    static func writeFully(_ fd: Int32, _ bytes: [UInt8]) {
        writing.withLock { _ in
            guard !isStopped else { return }
            if let failure = Threading.writeAll(bytes, to: fd, giveUp: { isStopped }) { noteOutputFailure(failure) }
        }
    }

    /// The first error writing the output (a full disk, a closed pipe), if any: the process then ends with
    /// ``outputFailureStatus``, not 0 (`end` in main.swift).
    private static let outputError = Locked<Int32?>(nil)
    public static var outputFailure: Int32? { outputError.withLock { $0 } }
    /// Keeps the first output error, from whichever writer met it (`run`'s lines, plain mode's session).
    public static func noteOutputFailure(_ error: Int32) { outputError.withLock { $0 = $0 ?? error } }
    /// The flows whose history records could not be written, said on stderr at the end in one line (the first
    /// one's reason, and how many more); the process then ends with ``outputFailureStatus``: their result lines
    /// were printed, but the state file does not hold them.
    private static let unsaved = Locked<(first: String?, more: Int, seen: Set<String>)>((nil, 0, []))
    public static var unsavedFlow: String? {
        unsaved.withLock { unsaved in
            unsaved.first.map { first in
                unsaved.more == 0 ? first
                    : "\(first); nor were \(unsaved.more) more \(unsaved.more == 1 ? "flow" : "flows") (each result line has historyError)"
            }
        }
    }
    /// Once a flow: a signal's handler notes the interrupted run's flows again (their results may not have reached the
    /// runner yet).
    public static func noteUnsavedFlow(_ message: String) {
        unsaved.withLock { unsaved in
            guard unsaved.seen.insert(message).inserted else { return }
            if unsaved.first == nil { unsaved.first = message } else { unsaved.more += 1 }
        }
    }
    /// What starts the process's own error lines after `idp-tui: `: the command's name and a colon (`run: `), as every
    /// other error of the command starts; empty for the terminal UI and plain mode, whose errors name no command.
    private static let command = Locked("")
    public static var commandPrefix: String { command.withLock { $0 } }
    public static func name(command name: String) { command.withLock { $0 = name + ": " } }
    /// The exit status when the output could not be written (sysexits' EX_IOERR).
    public static let outputFailureStatus: Int32 = 74
}
