import Foundation
import Testing

/// What plain mode writes to the terminal as it echoes an answer, byte by byte.
@Suite struct PlainEchoTests {
    /// A choice that shows as typed is not erased and written again at Enter: every menu answer sent `1\b \b1`, so
    /// backspaces reached a terminal without them (TERM=dumb) and a screen reader. A card number still is, masked.
    @Test func anAnswerThatShowsAsTypedIsNotRewritten() throws {
        let session = try TmuxSession.plain([])
        #expect(session.waitFor("\(PlainMenu.question) (q quits):"))
        let raw = NSTemporaryDirectory() + "idp-tui-raw-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        _ = try session.tmux(["pipe-pane", "-o", "cat >> '\(raw)'"], capture: false)
        session.type("4")
        session.press("Enter")
        #expect(session.waitFor("Card number"))
        session.type("4000000000002701")
        session.press("Enter")
        #expect(session.waitFor("Expiry"))
        let bytes = try String(decoding: Data(contentsOf: URL(fileURLWithPath: raw)), as: UTF8.self)
        #expect(bytes.hasPrefix("4\r\n") || bytes.hasPrefix("4\n"), "\(bytes.debugDescription)")
        #expect(bytes.contains("\u{8} \u{8}•••• 2701"), "the card number is still masked: \(bytes.debugDescription)")
    }
}
