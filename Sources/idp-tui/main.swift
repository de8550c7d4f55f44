import CSignalFD
import CursesBackend
import FlowEngine
import FlowRecords
import Foundation
import Headless
import IdentityProvider
import LocaleText
import StateStore
import TerminalUI
import Threading

#if canImport(Glibc)
    import Glibc
#endif

let version = "0.2.0"

/// Built only when asked for: start-up should not pay for it.
func help(_ command: Command, words: [String]) -> String {
    guard command == .terminal else { return command.help(words: words) }
    let commands = Command.synopsis(of: Command.allCases.filter { $0 != .terminal })
    return """
        idp-tui \(version) — simulate IdpSdk / MC-SDK login, Safepay Drops 3-D Secure and Q2 sign-in flows, in a terminal and headless

        \(Command.terminal.usage())

        commands (idp-tui COMMAND --help for each):
        \(commands.joined(separator: "\n"))
          idp-tui --help | --version

        exit status: 0 every flow succeeded (or quit: at a terminal 0 whatever its flows did; piped answers end as run's)
                     · 1 a flow failed · 3 a flow was cancelled · 2 bad input
                     · 74 the output, or a flow's history record, could not be written
                     · 141 the output was closed
                     · 130 Ctrl-C · 131 Ctrl-\\ (SIGQUIT) · 129/143 SIGHUP/SIGTERM
        demo users (tenant demo): alice / wonderland, activation code 123456; bob / builder, 654321
        more help: idp-tui COMMAND --help (run's lists the answers' keys); ? or F1 in the terminal UI;
                   idp-tui scenario show prints the demo scenario, a file to start from
        guides: docs/*.md in idp-tui's source tree (terminal.md, headless.md, scenarios.md …), not installed with the binary
        """
}

/// Ends the process: printed output flushed, every state file closed (what this process wrote copied out of the
/// -wal), then `_exit`. Not `exit`: its `atexit` handlers include OpenSSL's, which frees what a flow still winding
/// down on another thread (a cancelled one in the terminal UI) may be using.
func end(_ status: Int32) -> Never {
    EndingSignals.takeOneSent()
    // A signal that stopped the output ends the process with its own status, even when the run got here first.
    var status = ProcessOutput.endingStatus(status)
    // Output that could not be written (a full disk) is not a success: one line, and exit 74. A closed pipe
    // (`| head`): 141, as a shell reports SIGPIPE, with no line (the reader chose to stop).
    let flushed = fflush(nil) == 0
    if let error = flushed ? ProcessOutput.outputFailure : errno {
        if error == EPIPE {
            status = 128 + SIGPIPE
        } else {
            writeErrorLine("idp-tui: \(ProcessOutput.commandPrefix)the output could not be written: \(String(cString: strerror(error)))")
            status = ProcessOutput.outputFailureStatus
        }
    } else if let unsaved = ProcessOutput.unsavedFlow, [0, 1, 3].contains(status) {
        // A result line was printed for a flow the state file does not hold: the output is incomplete (bad input's
        // 2 and a signal's status stay: they say more).
        writeErrorLine("idp-tui: \(ProcessOutput.commandPrefix)\(unsaved)")
        status = ProcessOutput.outputFailureStatus
    }
    // A session a signal or Ctrl-C ended (128 + N) waits no longer on another process's lock: the terminal UI's
    // Ctrl-C waited out SQLite's 10 s busy timeout (19 s in a flow), where `run` ends at once (docs/state-and-history.md).
    StateFile.closeAll(onSignal: status > 128)
    _exit(status)
}

/// An error line: a word of the command line that does not look like a name or a path (a value pasted in the
/// wrong place, a password) is named by its place (`[argument 3]`), never printed.
func writeError(_ message: String) {
    // What went to standard output first stays first where both go to one log (`> log 2>&1`): print buffers it
    // when it is not a terminal, and `scenario check`'s count came before its problems. A flush that fails is kept
    // for `end`, whose own flush then finds nothing left to fail on (a full disk is still 74, a closed pipe 141).
    if fflush(nil) != 0 { ProcessOutput.noteOutputFailure(errno) }
    writeErrorLine("idp-tui: \(ArgumentEcho.redacting(message, arguments: Array(CommandLine.arguments.dropFirst())))")
}

/// Ends with bad input said in several lines (a theme file's problems, each a line, as a compiler lists them).
func failing(_ lines: [String]) -> Never {
    for line in lines.dropLast() { writeError(line) }
    fail(lines.last ?? "bad input")
}

func fail(_ message: String) -> Never {
    // Bad input that a signal made (the answers' writer killed with this process) is not reported: the signal is.
    EndingSignals.takeOneSent()
    writeError(message)
    end(UsageError.exitStatus)
}

/// SIGINT, SIGQUIT, SIGTERM and SIGHUP end a command-line run with 128 + the signal's number after closing the state file
/// (what the run wrote is copied out of the -wal into the file itself). No line is written after the signal, and
/// `_exit` runs no `atexit` handler: OpenSSL's would free what a flow still running on another thread uses. The
/// terminal UI installs its own handlers, which end its loop and then exit normally.
///
/// The signals are blocked in every thread and wait, undelivered, in a signal descriptor (signalfd): a thread of
/// their own waits for it to be readable, and `end` looks in it too, so that `end` takes one already sent but not
/// yet taken: a CI job cancelled kills the process writing the answers too, and the end of input that makes could
/// end the run as bad input (exit 2) before a handler on a dispatch queue ran. Whichever reads the signal marks it
/// taken under the same lock: the other then knows (with `sigwait`, a signal its thread had received but not yet
/// marked was neither pending for `end` nor marked, and the run could end with its own status).
enum EndingSignals {
    static let numbers = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]
    /// The signal descriptor, once the signals are blocked (-1 before); then, whether a signal has been taken.
    private static let state = Locked<(descriptor: Int32, taken: Bool)>((-1, false))

    static func install() {
        // A closed output (`| head`) is no signal here: the write fails with EPIPE, the run goes on to its end (every
        // flow kept in the file) and `end` exits 141, as SIGPIPE would have, the file closed first.
        signal(SIGPIPE, SIG_IGN)
        // SIGQUIT (Ctrl-\) as the others: left to the Swift runtime, it printed a crash report with every thread's
        // stack, and the run went on to its end and exited with the flows' status.
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let descriptor = idp_signalfd_open(&set)
        // Without a descriptor (no kernel support) the signals are left as they were: they end the process at once.
        guard descriptor >= 0 else {
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            return
        }
        state.withLock { $0.descriptor = descriptor }
        Thread.detachNewThread {
            while true {
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                // Should the descriptor fail, the signals are waited for as before it (`sigwait`: the gap it leaves
                // between taking one and marking it is back, but no signal is left unserved).
                guard poll(&ready, 1, -1) >= 0 || errno == EINTR else {
                    var set = signalSet()
                    var number: Int32 = 0
                    while sigwait(&set, &number) != 0 {}
                    let first = state.withLock { state in
                        defer { state.taken = true }
                        return !state.taken
                    }
                    if first { endOnSignal(number) }
                    return
                }
                if let number = take() { endOnSignal(number) }
                // `end` took it, and is ending the process: a second signal, left unread, would keep the
                // descriptor readable.
                if state.withLock({ $0.taken }) { return }
            }
        }
    }

    /// One signal sent and not yet taken, taken: its number. Nil when none is pending or one was taken already
    /// (a second signal, Ctrl-C again, is not taken as well, to end with its status).
    private static func take() -> Int32? {
        state.withLock { state in
            guard state.descriptor >= 0, !state.taken else { return nil }
            let number = idp_signalfd_take(state.descriptor)
            state.taken = number > 0
            return number > 0 ? number : nil
        }
    }

    /// Ends the process with a signal's status if one was sent and not yet taken, or waits for its thread to end it.
    static func takeOneSent() {
        if let number = take() { endOnSignal(number) }
        while state.withLock({ $0.taken }) { pause() }
    }

    private static func endOnSignal(_ number: Int32) -> Never {
        ProcessOutput.stopWriting(signal: number)
        ProcessOutput.finishStopping()
        // The interrupted flow's record the state file would not take (another process's lock, which the signal
        // stopped waiting for): said, as the terminal UI's "not recorded" is; the run ended without a word, and the
        // advice the record held (an activation code spent) went nowhere (the re-tester).
        if let unsaved = ProcessOutput.unsavedFlow {
            _ = writeAll(Array("idp-tui: \(ProcessOutput.commandPrefix)interrupted: \(unsaved)\n".utf8), to: STDERR_FILENO)
        }
        StateFile.closeAll(onSignal: true)
        _exit(128 + number)
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }
}

// An output past the file-size limit (`ulimit -f`) is an output that could not be written (exit 74, "File too
// large"), not SIGXFSZ's 153 with half a JSON line.
signal(SIGXFSZ, SIG_IGN)

// A closed standard stream (`<&-`, `>&-`, `2>&-`) gets /dev/null, opened read-only, in its place: otherwise the
// next file or pipe opened takes its number, and a session reads its own pipe as its input (and waits forever) or
// writes its output into the state file. Read-only, so that writing to a closed output still fails (exit 74).
for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
    let null = open("/dev/null", O_RDONLY)
    if null >= 0 && null != descriptor {
        dup2(null, descriptor)
        close(null)
    }
}

// An argument that is not UTF-8 (a file name in another encoding) would be read with U+FFFD in place of its bad
// bytes: a state file, answers or a scenario of another name, silently. Said by its place, never echoed.
for place in CommandLine.arguments.indices.dropFirst() where CommandLine.unsafeArgv[place].map({ String(validatingCString: $0) == nil }) ?? false {
    fail("argument \(place) is not UTF-8; name files in UTF-8")
}

let parsed: ParsedCommandLine
do {
    parsed = try ParsedCommandLine.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.message)
}
// Global options are accepted by every command; where a command does not use one, it is still checked, so that
// a typo in a script's `--theme` or `--scenario` is an error, not silently nothing.
if case .run(let command) = parsed.request, command != .terminal {
    ProcessOutput.name(command: command.rawValue)
    if let theme = parsed.options.theme {
        do { _ = try Theme.resolve(theme, environment: [:]) } catch { failing(error.lines.map { "\(command.rawValue): \($0)" }) }
    }
    if [.reset, .history].contains(command), parsed.options.scenarioPath != nil {
        do { _ = try parsed.options.loadScenario(for: command) } catch { fail(error.message) }
    }
    if [.compare, .scenario].contains(command) {
        do { try StateCommands.checkUnused(parsed.options, command: command) } catch { fail(error.message) }
    }
}
if parsed.request != .run(.terminal) { EndingSignals.install() }
switch parsed.request {
case .help(let command):
    // In ASCII under a locale that is not UTF-8, as plain mode and the error lines are.
    // Fitted to a terminal narrower than its lines; into a file or a pipe, as written.
    let text = PlainASCII.forUserLocale(help(command, words: parsed.words))
    print(OutputTerminal.columns.map { HelpWrapping.fit(text, width: $0) } ?? text)
    end(0)
case .version:
    print("idp-tui \(version)")
    end(0)
case .run(.run):
    do {
        end(try RunCommand.main(parsed.options))
    } catch {
        fail(error.message)
    }
case .run(.compare):
    do {
        // Side by side in the terminal's width (at 80 columns the right column wrapped into the left), from 60 to 100.
        let width = OutputTerminal.columns.map { min(100, max(60, $0)) } ?? 100
        end(try CompareCommand.main(parsed.options, width: width, write: { print($0) }))
    } catch {
        fail(error.message)
    }
case .run(.history):
    do {
        end(try StateCommands.history(parsed, write: { print($0) }))
    } catch {
        fail(error.message)
    }
case .run(.reset):
    do {
        end(try StateCommands.reset(parsed.options, write: { print($0) }))
    } catch {
        fail(error.message)
    }
case .run(.scenario):
    do {
        end(try ScenarioCommand.main(
            parsed, write: { print($0) }, fail: { writeError($0) }))
    } catch {
        fail(error.message)
    }
case .run(.terminal):
    do {
        let options = parsed.options
        let theme: Theme
        do {
            // getenv, not ProcessInfo's environment: that builds a dictionary of every variable, on the path
            // to the first frame.
            let noColor = getenv("NO_COLOR").map { String(cString: $0) }
            theme = try Theme.resolve(options.theme, environment: noColor.map { ["NO_COLOR": $0] } ?? [:])
        } catch {
            failing(error.lines)
        }
        // The scenario (a file, or the embedded one), the state file and the simulated world are all read and built
        // after the first frame, off the main thread; the first frame needs none of them. A bad scenario file then
        // ends the UI with its one-line error (exit 2), the terminal given back first.
        let stateWarnings = Locked<[String]>([])
        // Said when the session ends: the state file deleted or replaced under it (nothing it did since was kept).
        let stateFile = Locked<StateFile?>(nil)
        let tenant = options.tenant ?? (options.scenarioPath == nil ? "demo" : "…")
        let idpUrl = options.scenarioPath == nil ? IdentityProviderConfiguration.defaultBaseURL : "…"
        let makeService: @Sendable () -> Result<FlowService, TerminalSession.StartError> = {
            // As `run` does: what the world needs whatever the scenario loads on another thread meanwhile.
            IdentityProviderCertificates.prepareInBackground()
            do throws(UsageError) {
                // The embedded scenario too, so that --tenant is checked and applied to it.
                let scenario = try options.loadScenario(for: .terminal)
                let configuration = try options.flowConfiguration(for: .terminal)
                let state = try options.openState(for: .terminal)
                let scenarioNote = try CommandLineOptions.useScenario(scenario, in: state)
                stateWarnings.withLock { $0 = (state?.warnings ?? []) + [scenarioNote].compactMap { $0 } }
                stateFile.withLock { $0 = state }
                return .success(try options.makeService(scenario: scenario, configuration: configuration, state: state, for: .terminal))
            } catch {
                return .failure(TerminalSession.StartError(description: error.message))
            }
        }
        // Line by line when asked, when the terminal cannot draw (TERM=dumb), or when the input or the output is not
        // a terminal (answers piped in, a transcript piped out).
        let plain = options.plain || getenv("TERM").map { String(cString: $0) } == "dumb" || isatty(STDOUT_FILENO) == 0
            || isatty(STDIN_FILENO) == 0
        // What the session says while the state file waits for another process's lock, before any service exists.
        let startupLock = options.ephemeral ? nil : StartupLock(since: { StateFile.lockWaitSince }, timeout: StateFile.lockTimeout, stop: { StateFile.stopWaitingForLocks() })
        let status = plain
            ? try PlainSession.run(startupLock: startupLock, makeService: makeService)
            : try TerminalSession.run(theme: theme, tenant: tenant, idpUrl: idpUrl, mouse: options.mouse, startupLock: startupLock,
                                      makeService: makeService)
        for warning in stateWarnings.withLock({ $0 }) { writeErrorLine("idp-tui: \(warning)") }
        if let gone = stateFile.withLock({ $0?.goneFromItsPath }) { writeErrorLine("idp-tui: warning: \(gone)") }
        // A plain session whose output could not be written ends as `run` does: 141 for a closed pipe, else 74.
        if let error = PlainSession.outputError { ProcessOutput.noteOutputFailure(error) }
        for unsaved in PlainSession.unsavedFlows { ProcessOutput.noteUnsavedFlow(unsaved) }
        // Piped, a state file found damaged in use ends the session as it ends `run`: the damage said, exit 2 (it
        // ended 1, as a failed flow).
        if plain, isatty(STDIN_FILENO) == 0, status < 128, let damage = StateFile.damageFound {
            writeErrorLine("idp-tui: \(damage)")
            end(2)
        }
        end(status)
    } catch {
        fail(error.description)
    }
}
