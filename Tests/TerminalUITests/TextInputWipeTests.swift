import Secrets
import Testing
import TerminalUI

/// Text fields let go of what was typed: taking a value or clearing a field leaves nothing behind in it.
@Suite struct TextInputWipeTests {
    @Test func takeGivesTheValueAsASecretAndEmptiesTheField() {
        var input = TextInput(maximumBytes: 64)
        input.insert("wönderland")
        let secret = input.take()
        #expect(secret.reveal() == "wönderland")
        #expect(input.isEmpty && input.cursor == 0 && input.text.isEmpty)
        #expect("\(secret)".contains("wönderland") == false)
    }

    /// Backspace, Ctrl-W and a card number's reformatting each leave characters past the end of the array's
    /// buffer; the wipe clears the whole buffer, and typing never moves the field to a new one.
    @Test func clearingLeavesNoByteOfWhatWasTypedAnywhereInTheBuffer() {
        var input = TextInput(maximumBytes: 64)
        input.insert("hunter2 xyzzy")
        for key: Key in [.backspace, .backspace, .control("w"), .left, .delete] { _ = input.apply(key) }
        #expect(input.text == "hunter2")
        input.reformat(counting: { _ in true }) { _ in "ok" }
        #expect(input.text == "ok")
        let before = input.bufferBytesForTesting()
        #expect(before.contains(UInt8(ascii: "z")), "the removed characters are still in the buffer before the wipe")
        input.clear()
        let after = input.bufferBytesForTesting()
        #expect(after.count == before.count, "the wipe keeps the same buffer")
        for byte in "hunter2xyzok".utf8 { #expect(!after.contains(byte), "\(Character(UnicodeScalar(byte)))") }
    }
}
