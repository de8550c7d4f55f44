import Crypto
import FlowEngine
import Foundation
import CWakeup
import JSONText
import StateStore

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
        let runner = HeadlessRunner(service: service, flows: options.flows, answers: answers, stopsBefore: { StateFile.damageFound != nil }) { line in
            ProcessOutput.writeFully(STDOUT_FILENO, Array((line + "\n").utf8))
        }
        let status: Int32
        do { status = try runner.run(beforeFirstFlow: noteScenario) } catch { throw error.saidBy("run") }
        // A state file damaged where a flow met it (a page SQLite cannot read) is bad input, as one damaged where it
        // opens: the flow failed as its store's failure ("the identity provider failed (HTTP 500)"), exit 1; no
        // other flow starts on it. Its line alone: bad input's one line.
        if let damage = StateFile.damageFound { throw UsageError("run: " + damage) }
        if let note = unreadInputNote(options) { writeErrorLine(note) }
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
        // The answers are waited for as a prompt is, and at least 5 s: a prompt timeout of a few milliseconds (a test of
        // the timeout) is no deadline for a pipe's writer to start.
        switch TextFile.read(options.answersPath, limit: FlowAnswers.maximumDocumentSize, streams: true, endsWithValue: true,
                             waitingAtMost: max(options.promptTimeout, .seconds(5))) {
        case .success(let read): bytes = read
        case .failure(let failure):
            if options.answersPath != "-" && ArgumentEcho.looksLikeJSON(options.answersPath) {
                throw UsageError("run: --answers takes a file name, and this value looks like JSON: answers go on standard input or in the file --answers names, never on the command line")
            }
            let what = options.answersPath == "-" ? "standard input (the answers)" : "the answers file \(options.answersPath)"
            let wait = if case .timedOut = failure { " (--prompt-timeout sets the wait, 5 s at least)" } else { "" }
            throw UsageError("run: \(what) \(failure)\(wait)")
        }
        defer { SecureMemory.wipe(&bytes) }
        if needsNone && FlowAnswers.isBlank(bytes) { return options.flows.map { _ in FlowAnswers() } }
        do { return try FlowAnswers.parse(bytes, flows: options.flows) } catch { throw error.saidBy("run") }
    }

    /// Flows that ask nothing leave a pipe unread (above); when the pipe held something by the end (`echo '{"faults":
    /// …}' | idp-tui run logout`), a note says it was not read, on standard error: the run went on without the
    /// faults, exit 0, and a CI step took that for the fault's answer without a word. The status stays the run's.
    private static func unreadInputNote(_ options: CommandLineOptions) -> String? {
        guard !options.flows.contains(where: \.asksTheUser), options.answersPath == "-", !options.answersNamed,
              !standardInputIsAFile, isatty(STDIN_FILENO) == 0 else { return nil }
        // Looked at, not taken: the pipe may be the next command's too (`{ idp-tui run logout; idp-tui run login
        // --answers -; } <<EOF`). Empty answers (`{}`, `[{}, {}]`) would have changed nothing: no note.
        var bytes = [UInt8](repeating: 0, count: 65_536)
        defer { SecureMemory.wipe(&bytes) }
        let count = bytes.withUnsafeMutableBytes { idp_pipe_peek(STDIN_FILENO, $0.baseAddress, UInt($0.count)) }
        guard count > 0, bytes.prefix(count).contains(where: { !Self.emptyAnswerBytes.contains($0) }) else { return nil }
        let one = Set(options.flows).count == 1
        return "idp-tui: run: standard input was not read: \(one ? "\(options.flows[0].rawValue) asks" : "these flows ask") nothing, so answers (faults) are read only with --answers - or from a file (< answers.json)"
    }

    /// What answers that say nothing are made of: brackets, commas and white space.
    private static let emptyAnswerBytes = Set("{}[], \t\r\n".utf8)

    private static var standardInputIsAFile: Bool {
        var info = stat()
        return fstat(STDIN_FILENO, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
