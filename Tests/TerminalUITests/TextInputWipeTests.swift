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
}
