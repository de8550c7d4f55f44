import Crypto
import FlowEngine
import Foundation
import Threading
import JSONText
import Q2Flows

#if canImport(Glibc)
    import Glibc
#endif

/// `idp-tui run`: parses the command line and the answers, runs the flows headless, and returns the exit
/// status. Output goes to standard output as JSON Lines; a usage error is thrown for the caller to print.
public enum RunCommand {
    public static func main(_ options: CommandLineOptions) throws(UsageError) -> Int32 {
        // The files first (scenario, certificate chain, the state file's path): one that cannot be used is refused at
        // once, not after the answers, which a caller may hold open, and which the error then seemed to be about.
        // The state file is opened after the answers: refused answers make no file and wait on no other's lock.
        let inputs = try options.readInputs()
        let answers = try readAnswers(options)
        let (service, noteScenario) = try options.makeService(inputs)
        let runner = HeadlessRunner(service: service, flows: options.flows, answers: answers) { line in
            writeFully(STDOUT_FILENO, Array((line + "\n").utf8))
        }
        let status: Int32
        do { status = try runner.run(beforeFirstFlow: noteScenario) } catch { throw error.saidBy("run") }
        // The process ends next: freeing the simulated world (a scenario's every user) would only delay it.
        _ = Unmanaged.passRetained(runner)
        return status
    }

    /// Answers are read and checked the same way whatever the flows. Flows that never prompt (`logout`) need none:
    /// when only such flows run, standard input is read only when it is a file (`< answers.json`) or `--answers`
    /// names it: a terminal (`run logout` typed at a shell) or a pipe its caller holds open (a CI step, Node's
    /// `spawn`) would make the logout wait for an end that never comes. Empty input stands for `{}` for each;
    /// anything else given is read and checked.
    private static func readAnswers(_ options: CommandLineOptions) throws(UsageError) -> [FlowAnswers] {
        let needsNone = !options.flows.contains(where: \.asksTheUser)
        if needsNone && options.answersPath == "-" && !options.answersNamed && !standardInputIsAFile {
            return options.flows.map { _ in FlowAnswers() }
        }
        if options.answersPath == "-" && isatty(STDIN_FILENO) != 0 {
            if needsNone { return options.flows.map { _ in FlowAnswers() } }
            throw UsageError("run: answers are read from standard input, which is a terminal; pipe them in (echo '{\"username\":…}' | idp-tui run …) or pass --answers FILE")
        }
        var bytes: [UInt8]
        switch TextFile.read(options.answersPath, limit: FlowAnswers.maximumDocumentSize, streams: true, endsWithValue: true) {
        case .success(let read): bytes = read
        case .failure(let failure):
            if options.answersPath != "-" && ArgumentEcho.looksLikeJSON(options.answersPath) {
                throw UsageError("run: --answers takes a file name, and this value looks like JSON: answers go on standard input or in the file --answers names, never on the command line")
            }
            let what = options.answersPath == "-" ? "standard input (the answers)" : "the answers file \(options.answersPath)"
            throw UsageError("run: \(what) \(failure)")
        }
        defer { SecureMemory.wipe(&bytes) }
        if needsNone && FlowAnswers.isBlank(bytes) { return options.flows.map { _ in FlowAnswers() } }
        do { return try FlowAnswers.parse(bytes, flows: options.flows) } catch { throw error.saidBy("run") }
    }

    private static var standardInputIsAFile: Bool {
        var info = stat()
        return fstat(STDIN_FILENO, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The signal the process is ending on, once one came (nil before): nothing more is written, so that no result
    /// line is printed for a flow the closed state file could not keep.
    private static let stoppedBy = Locked<Int32?>(nil)

    /// Stops every later line (waiting for one being written to end); for a signal's exit.
    public static func stopWriting(signal: Int32) {
        stoppedBy.withLock { $0 = $0 ?? signal }
    }

    /// The status to end with: 128 + the signal's number once a signal stopped the output, whatever `status`.
    /// The run may reach its own end before the signal's handler exits, with a line held back: that is no success.
    public static func endingStatus(_ status: Int32) -> Int32 {
        stoppedBy.withLock { $0 }.map { 128 + $0 } ?? status
    }

    /// Writes every byte, unbuffered, so that each JSON line reaches a pipe as soon as it happens.
    static func writeFully(_ fd: Int32, _ bytes: [UInt8]) {
        stoppedBy.withLock { signal in
            if signal == nil { writeAll(fd, bytes) }
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        if let failure = Threading.writeAll(bytes, to: fd) { noteOutputFailure(failure) }
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
    private static let unsaved = Locked<(first: String?, more: Int)>((nil, 0))
    public static var unsavedFlow: String? {
        unsaved.withLock { unsaved in
            unsaved.first.map { first in
                unsaved.more == 0 ? first
                    : "\(first); nor were \(unsaved.more) more \(unsaved.more == 1 ? "flow" : "flows") (each result line has historyError)"
            }
        }
    }
    public static func noteUnsavedFlow(_ message: String) {
        unsaved.withLock { unsaved in
            if unsaved.first == nil { unsaved.first = message } else { unsaved.more += 1 }
        }
    }
    /// The exit status when the output could not be written (sysexits' EX_IOERR).
    public static let outputFailureStatus: Int32 = 74

    static func readText(_ path: String, what: String, command: String) throws(UsageError) -> String {
        let bytes: [UInt8]
        switch TextFile.read(path, limit: 1 << 20) {
        case .success(let read): bytes = read
        case .failure(let failure): throw UsageError("\(command)the \(what) file \(path) \(failure)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError("\(command)the \(what) file \(path) is not UTF-8 text")
        }
        return text
    }
}
