import Foundation
import Testing

/// Plain mode typed at a terminal with its output going elsewhere (`> log`, `| tee log`): the typing is echoed on
/// the terminal, as the terminal itself echoes a line, and the transcript gets each answer as a piped session
/// writes it. The editor wrote its echo into the output: a whole card number and an erase sequence for every
/// Backspace in the file, and nothing at all on the terminal while typing under `> log`.
@Suite(.serialized) struct PlainRedirectedOutputTests {
    /// Plain mode at a terminal with its output in a file, and the file's text.
    private func redirected(_ arguments: [String] = []) throws -> (TmuxSession, String, () -> String) {
        let folder = NSTemporaryDirectory() + "idp-tui-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let log = folder + "/log"
        let session = try TmuxSession(command: [
            "sh", "-c", "trap '' INT; \"$0\" --plain --ephemeral \"$@\" > \"\(log)\"; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _",
            TmuxSession.binary,
        ] + arguments)
        return (session, folder, { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" })
    }

    private func waitFor(_ text: String, in logText: () -> String) -> Bool {
        let deadline = ContinuousClock.now + .seconds(15)
        while !logText().contains(text) {
            if ContinuousClock.now > deadline { Issue.record("\"\(text)\" not in the log:\n\(logText())"); return false }
            usleep(20_000)
        }
        return true
    }

    @Test func typingShowsOnTheTerminalAndTheTranscriptHasTheAnswersAsAPipeWritesThem() throws {
        let (session, folder, logText) = try redirected()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func waitForLog(_ text: String) -> Bool { waitFor(text, in: logText) }
        #expect(waitForLog("\(PlainMenu.question)"))
        session.type("4")
        session.press("Enter")
        #expect(waitForLog("Card number:"))
        session.type("40000000000027019")
        session.press("BSpace")
        #expect(session.waitFor("4000000000002701"), "the typing shows where the user types")
        session.press("Enter")
        #expect(waitForLog("Expiry"))
        session.press("Escape")
        #expect(waitForLog("Enter goes back"))
        session.type("q")
        session.press("Enter")
        #expect(session.waitForExit() == 0)
        let text = logText()
        #expect(!text.contains("4000000000002701"), "\(text)")
        #expect(!text.contains("\u{8}"), "no erase sequences in a file")
        #expect(text.contains("•••• 2701"), "the answer as a piped session writes it:\n\(text)")
    }

    /// A line the output breaks (a warning before the prompt times out) is not the terminal's typing line: what was
    /// typed showed twice ("aliali"). And an answer not echoed (a password) still ends its line on the terminal: the
    /// next answer's typing ran on after it.
    @Test func theTypingShowsOnceAndEachAnswerEndsItsLine() throws {
        let (session, folder, logText) = try redirected(["--prompt-timeout", "32"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(waitFor("\(PlainMenu.question)", in: logText))
        session.type("1")
        session.press("Enter")
        #expect(waitFor("Username", in: logText))
        session.type("ali")
        #expect(waitFor("s left to answer", in: logText))
        session.type("ce")
        session.press("Enter")
        #expect(waitFor("Password", in: logText))
        session.type("wonderland")
        session.press("Enter")
        #expect(waitFor("Activation code", in: logText))
        session.type("123456")
        session.press("Enter")
        #expect(waitFor("Enter goes back", in: logText))
        session.type("xyz")
        #expect(session.waitFor("xyz"))
        let lines = session.screen().components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("alice") && !session.screen().contains("aliali"), "\(session.screen())")
        #expect(lines.contains("xyz"), "the typing after two secrets starts a line of its own: \(session.screen())")
        for secret in ["wonderland", "123456"] { #expect(!session.scrollback().contains(secret) && !logText().contains(secret)) }
    }
}
