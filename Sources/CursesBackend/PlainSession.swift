import CNcurses
import FlowEngine
import Foundation
import LocaleText
import TerminalUI
import Threading

#if canImport(Glibc)
    import Glibc
#endif

/// The plain front end (`--plain`; chosen by itself for TERM=dumb or when standard input or output is not a terminal):
/// the terminal UI's app told line by line — no cursor addressing, no box drawing, no colour — for screen
/// readers, dumb terminals and logs. Questions are answered a line each; secrets are read with echo off; events
/// are printed as they happen; Esc (at a terminal the key alone; piped, a line holding it), or the end of input, cancels; Ctrl-C quits.
public enum PlainSession {
    public static func run(startupLock: StartupLock? = nil, makeService: @escaping @Sendable () -> Result<FlowService, TerminalSession.StartError>)
        throws(TerminalSession.StartError) -> Int32
    {
        let service = try PlainStartup.built(makeService, saying: startupLock).get()
        var signalPipe: [Int32] = [-1, -1]
        guard pipe(&signalPipe) == 0 else { throw TerminalSession.StartError(description: "cannot create the signal pipe") }
        defer {
            // A signal after the session must not write into whatever file gets the pipe's number next.
            idp_signals_detach()
            close(signalPipe[0])
            close(signalPipe[1])
        }
        idp_signals_install(signalPipe[1])
        idp_plain_begin()
        // A closed output (`| head`) ends the session through write's error, never by SIGPIPE with echo off.
        signal(SIGPIPE, SIG_IGN)
        var echo = EchoSwitch()
        defer { echo.restore() }
        // At a terminal, lines are edited and echoed here (PlainLineEditor), not by the terminal.
        echo.takeLineEditing()
        var editor = PlainLineEditor(maximumLine: maximumLine)
        // Which waiting lines the user saw typed, in step with `pending` (terminal only).
        var echoedLines: [Bool] = []
        service.mailbox.serveMainQueue()
        let app = TerminalApp(service: service, width: 100, height: 40)
        // A locale that is not UTF-8 gets the symbols in ASCII (docs/terminal.md).
        ascii = !PlainASCII.localeIsUTF8
        app.plainASCII = ascii
        app.plain = true
        write("idp-tui (plain) · tenant \(service.world.tenantId) · \(service.world.idpUrl)\n")
        // Arrows as LogPane.who draws them, seen from the app: `→ MC-SDK` the app's call or answer sent to the MC-SDK,
        // `← IdpSdk` a prompt or result received from the SDK, `⇢ IdP` `⇠ IdP` an SDK's request to the IdP and its
        // answer; the terminal UI's log title says the same in short (`→ to ← from ⇢ ⇠ IdP ⚡ fault`).
        write(ascii ? "Events, seen from the app: -> sent to, <- received from, ~> <~ SDK-IdP, ! fault\n"
            : "Events, seen from the app: → sent to · ← received from · ⇢ ⇠ SDK–IdP · ⚡ fault\n")
        // The columns named once: `A→B` and the thread column read as destinations (`→ MC-SDK  Start  idp-tui.flow`).
        write(ascii ? "(A->B: between two others; * within one; thread: where the event ran)\n" : "(A→B: between two others; • within one; thread: where the event ran)\n")
        write(TerminalApp.plainHeader(ascii: ascii) + "\n")
        var printedScreen: [String] = []
        var printedSequence = 0
        // Typed at a terminal while the output goes elsewhere (`> log`, `| tee log`): the typing is echoed on the
        // terminal, as the terminal echoes a line, and the transcript gets each answer as a piped session writes it
        // (the editor's echo went into the output: a whole card number, an erase for each Backspace, and nothing
        // on the terminal under `> log`). With `| tee`, the answer then shows twice on the terminal.
        let echoesElsewhere = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 0
        // The terminal typed at (standard input's), else the controlling one.
        echoDescriptor = echoesElsewhere ? openTerminal() : STDOUT_FILENO
        defer {
            if echoesElsewhere && echoDescriptor >= 0 { close(echoDescriptor) }
            echoDescriptor = STDOUT_FILENO
        }
        var asked: PlainQuestion?
        // A question waits at the end of the line (with what is typed so far): anything printed before its answer
        // starts on a line of its own, and the question is asked again under it, the typing shown again.
        var questionOnLine = false
        // The question whose line output broke while what was typed for it showed: asked again, it shows it again.
        var brokenWhileShowing: PlainQuestion?
        var askedShowing = false
        func endQuestionLine() {
            guard questionOnLine else { return }
            // Echoed on a terminal of its own, the typing's line is not the one the output broke.
            brokenWhileShowing = askedShowing && !echoesElsewhere ? asked : nil
            // A card number typed in part is erased first: the question is asked again under it, with it echoed again.
            if !echoesElsewhere { writeEcho(editor.eraseMasked()) }
            write("\n")
            if !echoesElsewhere { editor.lineBroken() }
            questionOnLine = false
            asked = nil
        }
        var lines = PipedLines(maximumLine: maximumLine)
        // Lines typed ahead wait for the question they answer (a flow may still be working).
        var pending = LineQueue()
        var inputEnded = false
        var droppedLines = 0
        let typed = isatty(STDIN_FILENO) == 1
        // The terminal went without a SIGHUP reaching the program (its window closed while the shell that started
        // it ignores the signal): reads give nothing and writes fail with EIO. The session ends as a SIGHUP ends
        // it, the flow cancelled and recorded, 129; it ended with 74, "could not be written", and no flow kept.
        func hungUp() -> Int32 {
            outputError = nil
            app.quit(129)
            _ = app.interruptionNote()
            return 129
        }
        // The flows' outcomes, for the exit status of a session whose answers were piped in.
        var results = Outcomes()
        while app.exitStatus == nil {
            // What changed: new events, a new screen, a new question.
            // By sequence, not by count: the app keeps only the newest 2,000 events.
            for event in app.state.log where event.sequence > printedSequence {
                endQuestionLine()
                write(app.plainLine(event, ascii: ascii) + "\n")
                printedSequence = event.sequence
            }
            if outputClosed { return typed && isatty(STDOUT_FILENO) == 1 && outputError == EIO ? hungUp() : app.exitStatus ?? 0 }
            app.plainTerminal(columns: Int(idp_output_columns()))
            let screen = app.plainScreen
            if screen != printedScreen {
                endQuestionLine()
                // When only the `! …` line changed (an answer refused, or a refusal put right), the news alone.
                let said = { (lines: [String]) in lines.filter { !$0.hasPrefix("! ") } }
                if screen.isEmpty {
                    // A screen with nothing to say (a cancelled flow's, until its result).
                } else if said(screen) == said(printedScreen) || Self.onlyLost(said(printedScreen), said(screen)) {
                    // Only a refusal changed, or lines went (the last card's hint once another is typed): a line
                    // already printed needs no news, and a transcript cannot take one back.
                    for line in screen where line.hasPrefix("! ") && !printedScreen.contains(line) { write(line + "\n") }
                } else {
                    write("\n" + screen.joined(separator: "\n") + "\n")
                }
                printedScreen = screen
                asked = nil
            }
            if let notice = app.state.notice {
                endQuestionLine()
                write("! \(notice)\n")
                app.clearNotice()
                asked = nil
            }
            if !app.state.plainListing.isEmpty {
                endQuestionLine()
                write(app.state.plainListing.joined(separator: "\n") + "\n")
                app.clearPlainListing()
                asked = nil
            }
            let question = app.plainQuestion
            if question != asked, let question {
                // A question that took another's place with nothing printed between them starts a line of its own.
                endQuestionLine()
                // A question wider than the terminal is wrapped at spaces as the other lines are; its last line stays
                // open for the answer, and is what the editor asks again (`? fills in alic` / `e's code` was split).
                let columns = Int(idp_output_columns())
                var questionLines = columns > 0 ? CharacterWidth.wrap(printable(question.text), to: columns) : [printable(question.text)]
                let asking = questionLines.removeLast()
                for line in questionLines { write(line + "\n") }
                write(asking)
                // A secret's question is asked again under the editor's hint to Ctrl-D on hidden text, as printed here.
                // Text typed ahead that this question would not show (a code typed ahead falling on Submit) is kept
                // unseen, as a secret's is.
                // What was typed for the same question shows again when an event broke its line (a card number or a
                // choice typed in part: how it would print as an answer does not decide).
                editor.dropUnanswered(before: question.identity)
                let again = brokenWhileShowing == question
                brokenWhileShowing = nil
                // A card number typed ahead shows as it would typed here, in clear until Enter masks it (it stayed unseen).
                let hidden = question.secret || !(again || editor.typedAheadFits { question.cardNumber ? Self.isCardNumberTyped($0) : question.shown($0) == $0 })
                askedShowing = !hidden
                // A card number shows as it is typed, and masked once given (the piped log shows it masked too); an
                // answer to a question that takes a choice is written as the piped log writes it, so that a line it
                // does not take ends as `(not an answer here)`, not as the text typed.
                let mask: ((String) -> String)? = question.cardNumber || question.takes != .text ? { printable(question.shown($0)) } : nil
                writeEcho(editor.open(secret: hidden, question: asking, identity: question.identity, mask: mask, answeredAhead: !pending.isEmpty))
                questionOnLine = true
            }
            if question == nil { editor.close() }
            asked = question
            // A line waiting answers the open question; Esc cancels even while a flow works.
            // A line of arrow keys is not a cancel: it waits for its question, which says it does not take them.
            if let line = pending.first,
                question != nil || (line.unicodeScalars.contains("\u{1b}") && TerminalApp.refusedForEscapes(line) == nil) || line == endKey
            {
                pending.removeFirst()
                questionOnLine = false
                let echoed = typed && !echoedLines.isEmpty && echoedLines.removeFirst()
                editor.close()
                // A line longer than any answer, or not UTF-8, ends the session wherever it lands (at the menu it was
                // "not an answer here", and input with no line end was never answered): bad input, exit 2.
                if !typed, let unreadable = PipedLines.unreadable(line, maximumLine: maximumLine) {
                    if question != nil { write("(not shown: \(unreadable.shown))\n") }
                    let refusal = unreadable.said + (question.map { " at \(Self.field($0))" } ?? "")
                    let flow = app.quitAtRefusedAnswer(refusal).map { "; \($0)" } ?? ""
                    _ = writeAll(Array("idp-tui: \(refusal): the session stops at it\(flow)\n".utf8), to: STDERR_FILENO)
                    return 2
                }
                // What the user saw typed is on the terminal with its newline; else the log shows the answer here (nothing
                // of a secret, no line under a question that does not take it, and no blank for a cancel while working).
                if !echoed {
                    if let question, line != endKey, !line.unicodeScalars.contains("\u{1b}") {
                        write(question.shown(line) + "\n")
                    } else if question != nil {
                        write("\n")
                    }
                }
                if line == endKey {
                    // Ctrl-D on a terminal: a key, as Esc is — it cancels (or quits from a resting screen) and
                    // the session goes on reading.
                    app.answerPlain(nil)
                } else if app.answerPlain(line) {
                    // Piped, a field's answer refused ends the session (exit 2): asked again, the field would take
                    // the next line, meant for the next question (a password as the user name, shown and kept).
                    if !typed, let question, question.takes == .text {
                        // Why, as the screen says it (the refusals name fields and rules, never what was typed).
                        let why = app.plainError ?? "refused"
                        write("! \(why)\n")
                        let refusal = "piped answer to \(Self.field(question)) refused (\(why))"
                        let flow = app.quitAtRefusedAnswer(refusal).map { "; \($0)" } ?? ""
                        _ = writeAll(Array(printable("idp-tui: \(refusal): the session stops at it, so that no later line answers the wrong question\(flow)\n").utf8), to: STDERR_FILENO)
                        return 2
                    }
                    // Asked again for the same reason: said again, though the screen has not changed.
                    if app.plainScreen == printedScreen, let error = app.plainError { write("! \(error)\n") }
                }
                results.note(app.state.screen)
                asked = nil
                continue
            }
            if pending.isEmpty, inputEnded, question != nil {
                questionOnLine = false
                write("\n")
                app.answerPlain(nil)
                results.note(app.state.screen)
                asked = nil
                continue
            }
            // Wait for input, a service message or a signal.
            var fds = [
                pollfd(fd: inputEnded ? -1 : STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: service.wakeFileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signalPipe[0], events: Int16(POLLIN), revents: 0),
            ]
            // Woken for an Esc that may start a sequence, and for the warnings before a prompt times out.
            let warningIn = app.plainNextWarning(at: .now)?.pollMilliseconds
            let wait = [editor.waitsForEscape ? PlainLineEditor.escapeWait : nil, warningIn].compactMap { $0 }.min() ?? -1
            let ready = poll(&fds, 3, wait)
            if ready < 0 && errno != EINTR { return 1 }
            if ready == 0, let warning = app.plainTimeWarning(at: .now) {
                endQuestionLine()
                write(warning + "\n")
                continue
            }
            if ready == 0 && editor.waitsForEscape {
                writeEcho(editor.eraseMasked())
                let entry = editor.escapeTimedOut()
                if echoesElsewhere && !entry.echoed { writeEcho([0x0A]) }
                if pending.append(entry.text, limit: maximumPending) { echoedLines.append(entry.echoed && !echoesElsewhere) }
                continue
            }
            if fds[2].revents != 0 {
                var number: UInt8 = 0
                // Continued after a stop from outside (kill -STOP): the shell set its terminal modes back meanwhile,
                // and wrote its lines under the question, which is asked again, with what was typed for it.
                if read(signalPipe[0], &number, 1) == 1, Int32(number) == SIGCONT {
                    if typed {
                        echo.takeLineEditing()
                        if questionOnLine {
                            endQuestionLine()
                            asked = nil
                        }
                    }
                } else if number != 0 {
                    endQuestionLine()
                    app.quit(128 + Int32(number))
                    // On standard error with the program's name, as the terminal UI says it: not the transcript's.
                    if let note = app.interruptionNote(), number != SIGHUP {
                        _ = writeAll(Array(printable("idp-tui: \(note)\n").utf8), to: STDERR_FILENO)
                    }
                    return 128 + Int32(number)
                }
            }
            if fds[1].revents != 0 {
                service.deliverPendingMessages(to: app)
                results.note(app.state.screen)
            }
            if fds[0].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = read(STDIN_FILENO, &chunk, chunk.count)
                if typed, count > 0 {
                    let (entries, output) = editor.feed(chunk.prefix(count))
                    writeEcho(output)
                    // An answer echoed with its Enter has ended the question's line (in the output, when echoed there).
                    if !echoesElsewhere && entries.contains(where: \.echoed) { questionOnLine = false }
                    for entry in entries {
                        // An answer not echoed (a secret's) still ends its line on the terminal typed at.
                        if echoesElsewhere && !entry.echoed { writeEcho([0x0A]) }
                        if pending.append(entry.text, limit: maximumPending) {
                            echoedLines.append(entry.echoed && !echoesElsewhere)
                        } else {
                            droppedLines += 1
                        }
                    }
                } else if typed, count == 0 || (count < 0 && errno == EINTR), fds[0].revents & Int16(POLLHUP | POLLERR) == 0 {
                    // Nothing there after all (a Ctrl-C threw it away; its signal is next): the terminal is still open.
                } else if typed, fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                    // Gone: the terminal hung up (a read of EIO alone may be a job left in the background).
                    return hungUp()
                } else if count <= 0 {
                    inputEnded = true
                    if let last = lines.end() { _ = pending.append(last, limit: maximumPending) }
                }
                // Lines are bounded: one that passes maximumLine is handed on as too long (the session ends at it), and at most
                // maximumPending bytes of lines wait (the rest of a flood is dropped, with a notice).
                for byte in chunk.prefix(typed ? 0 : max(0, count)) {
                    if let line = lines.take(byte), !pending.append(line, limit: maximumPending) { droppedLines += 1 }
                }
                for index in chunk.indices { chunk[index] = 0 }
                if droppedLines > 0 {
                    write("! \(droppedLines) typed-ahead lines dropped (at most \(maximumPending / 1024) KB wait)\n")
                    droppedLines = 0
                }
            }
        }
        // Piped, a flow the history could not keep (a full disk) ends the session as it ends `run`: 74, said on stderr.
        if !typed { unsavedFlows = results.unsaved }
        return results.status(app.exitStatus ?? 0, scripted: !typed)
    }

    /// The line that stands for Ctrl-D typed at the start of a line on a terminal.
    private static let endKey = PlainLineEditor.endKey

    /// The longest line read, and how many bytes of lines may wait for their question.
    static let maximumLine = 4096
    static let maximumPending = 1 << 20
    /// Why standard output could not be written (EPIPE for a closed pipe, EBADF for a closed output, ENOSPC …),
    /// once it could not: the session ends, and the process with 141 or 74 as `run` does. Main thread only.
    nonisolated(unsafe) public private(set) static var outputError: Int32?
    private static var outputClosed: Bool { outputError != nil }
    /// For a piped session, what each flow the history could not keep said (`flow 2 (payer-auth) was not saved to
    /// the history: …`), in order. Main thread only.
    nonisolated(unsafe) public private(set) static var unsavedFlows: [String] = []

    /// Whether this session's text is spelled in ASCII (a locale that is not UTF-8). Main thread only.
    nonisolated(unsafe) private static var ascii = false

    /// Text the session prints (never what the user types, which the line editor echoes as it came). At a terminal,
    /// each whole line is wrapped to its width at spaces (``CharacterWidth/wrap(_:to:)``), as dialog does: the
    /// terminal broke words in two; the first goes on from the cursor's column. What follows the last line's end (a
    /// question's last line, which the line editor goes on from) and a pipe's lines stay whole.
    private static func write(_ text: String) {
        let text = printable(text)
        let columns = Int(idp_output_columns())
        guard columns > 0, text.contains("\n") else {
            write(bytes: Array(text.utf8))
            return
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // The first line goes on from where the cursor is (after a question, the answer's echo or a refusal).
        let wrapped = lines.indices.map { index in
            index == lines.count - 1 ? String(lines[index])
                : CharacterWidth.wrap(String(lines[index]), to: columns, from: index == 0 ? column : 0).joined(separator: "\n")
        }
        write(bytes: Array(wrapped.joined(separator: "\n").utf8))
    }

    /// Text as the session prints it: its control characters made visible, in ASCII under a locale that is not UTF-8.
    private static func printable(_ text: String) -> String {
        let visible = TerminalApp.plainVisible(text)
        return ascii ? PlainASCII.text(visible) : visible
    }

    /// Where the line editor's echo goes: the output, or the terminal itself when the output is not one (-1: the
    /// terminal could not be opened, and nothing is echoed). Main thread only.
    nonisolated(unsafe) private static var echoDescriptor = STDOUT_FILENO

    /// The line editor's echo of what is typed.
    private static func writeEcho(_ bytes: [UInt8]) {
        guard echoDescriptor != STDOUT_FILENO else { return write(bytes: bytes) }
        if echoDescriptor >= 0 { _ = writeAll(bytes, to: echoDescriptor) }
    }

    private static func write(bytes: [UInt8]) {
        guard !outputClosed else { return }
        advanceColumn(over: bytes)
        outputError = writeAll(bytes, to: STDOUT_FILENO)
    }
}
