import Foundation
import Testing

/// Plain mode typed at a terminal with its output going elsewhere (`> log`, `| tee log`): the typing is echoed on
/// the terminal, as the terminal itself echoes a line, and the transcript gets each answer as a piped session
/// writes it. The editor wrote its echo into the output: a whole card number and an erase sequence for every
/// Backspace in the file, and nothing at all on the terminal while typing under `> log`.
@Suite(.serialized) struct PlainRedirectedOutputTests {
    @Test func typingShowsOnTheTerminalAndTheTranscriptHasTheAnswersAsAPipeWritesThem() throws {
        let folder = NSTemporaryDirectory() + "idp-tui-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/log"
        let session = try TmuxSession(command: [
            "sh", "-c", "trap '' INT; \"$0\" --plain --ephemeral > \"$1\"; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _",
            TmuxSession.binary, log,
        ])
        func logText() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        func waitForLog(_ text: String) -> Bool {
            let deadline = ContinuousClock.now + .seconds(15)
            while !logText().contains(text) {
                if ContinuousClock.now > deadline { Issue.record("\"\(text)\" not in the log:\n\(logText())"); return false }
                usleep(20_000)
            }
            return true
        }
        #expect(waitForLog("Choose 1-7"))
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
}
