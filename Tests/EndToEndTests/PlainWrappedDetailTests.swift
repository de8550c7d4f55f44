import Foundation
import Testing

/// Plain mode at an 80-column terminal wraps an event's long JSON detail between its pieces, never inside a key.
@Suite(.serialized) struct PlainWrappedDetailTests {
    /// A frictionless payment: the bridge's long step names leave a few columns of the first row, and the detail
    /// started there was cut inside its first key (`{"reques` / `t_id":"req_…"`, session 51). It starts on the
    /// next row, indented, its first piece whole.
    @Test func aJSONDetailAfterALongStepStartsOnARowOfItsOwn() throws {
        let session = try TmuxSession.plain(["--seed", "1"])
        #expect(session.waitFor("\(PlainMenu.question) ("))
        session.type("4")
        session.press("Enter")
        #expect(session.waitFor("Card number:"))
        for (answer, next) in [("4000000000002701", "Expiry"), ("12/30", "Amount"), ("", "Currency"), ("", "Merchant"),
                               ("", "✓ Payment authenticated without a challenge")] {
            session.type(answer)
            session.press("Enter")
            #expect(session.waitFor(next), "\(session.scrollback())")
        }
        let rows = session.scrollback().components(separatedBy: "\n")
        let step = try #require(rows.firstIndex { $0.contains("safepay-inframe__enrollment__frictionless") }, "\(rows)")
        #expect(rows[step].hasSuffix("DropsPage.payment"), "\(rows[step])")
        #expect(rows[step + 1].hasPrefix(#"    {"request_id":"req_"#), "\(rows[step + 1])")
        // No row of a JSON detail ends inside a key or a value: each ends after a comma, a colon or a brace.
        let detail = rows[(step + 1)...].prefix { $0.hasPrefix("    ") }
        #expect(detail.count > 2 && detail.dropLast().allSatisfy { [",", ":", "{", "["].contains($0.last.map(String.init) ?? "") }, "\(detail)")
        session.press("C-c")
        #expect(session.waitForExit() == 130)
    }
}
