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
        let before = input.bufferBytesForTesting()
        #expect(before.contains(UInt8(ascii: "z")), "the removed characters are still in the buffer before the wipe")
        input.reformat(counting: { _ in true }) { _ in "ok" }
        #expect(input.text == "ok")
        input.clear()
        let after = input.bufferBytesForTesting()
        #expect(after.count == before.count, "the wipe keeps the same buffer")
        for byte in "hunter2xyzok".utf8 { #expect(!after.contains(byte), "\(Character(UnicodeScalar(byte)))") }
    }

    /// A copy of the field (what every key does to the screen's state) keeps its value; the field typed into gets a
    /// buffer of its own with room for the longest value, and the copy's buffer, with the text so far in it, is
    /// wiped when the copy goes (an array shared that way was copied at the next key and the old one freed as it was).
    @Test func aCopysBufferIsWipedWhenTheCopyGoes() throws {
        var input = TextInput(maximumBytes: 64)
        input.insert("hunter")
        var copy: TextInput? = input
        input.insert("2")
        #expect(copy?.text == "hunter" && input.text == "hunter2")
        // At least: an array's capacity is what malloc gave it, which is sometimes a little more than asked (65 once).
        #expect(input.bufferBytesForTesting().count >= 64 * MemoryLayout<Character>.stride)
        #if DEBUG
            let old = try #require(copy?.bufferForTesting)
            #expect(old != input.bufferForTesting)
            #expect(!TextInput.wipedForTesting.withLock { $0.contains(old) })
            copy = nil
            #expect(TextInput.wipedForTesting.withLock { $0.contains(old) }, "the copy's buffer was wiped as it went")
        #endif
        _ = copy
    }
}
