import FlowRecords
import LocaleText
import Threading

/// Bad input to the command line: a flag, a flow name, the answers. Reported as one line on stderr with exit
/// status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// The error as the command that met it says it (`run: answers[1].otp must be a string …`), as every error
    /// of a subcommand begins.
    public func saidBy(_ command: String) -> UsageError { UsageError("\(command): \(message)") }

    /// Exit status for bad input.
    public static let exitStatus: Int32 = 2
}

/// One line on standard error, written straight to the descriptor: a closed or full standard error loses the
/// line, never the process (Foundation's `FileHandle.write` traps on a write error). Under a locale that is not
/// UTF-8 the line is spelled in ASCII (`…` as `...`; a character it has no spelling for, a file name's, as `?`).
public func writeErrorLine(_ text: String) {
    // Control characters escaped (`\x1B`): a path or value given on the command line cannot colour, retitle or
    // clear the terminal through an error, and the line stays one line.
    // None once a signal is ending the process (docs/reliability.md: no line after the signal): closing the state
    // file ends a wait for its lock with SQLITE_BUSY, which read "stayed locked by another process for 10 s".
    let line = Array((PlainASCII.forUserLocale(VisibleText.escaped(text)) + "\n").utf8)
    if !ProcessOutput.isStopped { _ = writeAll(line, to: 2) }
}
