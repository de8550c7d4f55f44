import TerminalUI
import Testing

/// What a terminal sends, decoded: whole sequences, whatever the reads split them into.
@Suite struct KeyDecoderTests {
    let start = ContinuousClock.now

    /// Feeds `bytes` in two reads split at `split` (1 ms apart, well inside the Esc timeout), then lets every
    /// timer run out.
    func decode(_ text: String, split: Int? = nil) -> [DecodedInput] {
        var decoder = KeyDecoder()
        let scalars = Array(text.unicodeScalars)
        let cut = split ?? scalars.count
        var out: [DecodedInput] = []
        for (index, scalar) in scalars.enumerated() {
            out += decoder.feed(scalar, at: start + .milliseconds(index < cut ? 0 : 1))
        }
        out += decoder.flush(at: start + .seconds(10))
        return out
    }

    /// Every way of splitting `text` in two reads decodes the same.
    func decodesAtEverySplit(_ text: String, _ expected: [DecodedInput], sourceLocation: SourceLocation = #_sourceLocation) {
        for split in 0...text.unicodeScalars.count {
            #expect(decode(text, split: split) == expected, "split at \(split)", sourceLocation: sourceLocation)
        }
    }

    static let sequences: [(String, String, [DecodedInput])] = [
        ("Alt-b", "\u{1b}b", [.key(.alt("b"))]),
        ("Alt-f", "\u{1b}f", [.key(.alt("f"))]),
        ("Alt-d", "\u{1b}d", [.key(.alt("d"))]),
        ("Alt-Backspace", "\u{1b}\u{7f}", [.key(.altBackspace)]),
        ("Alt-Enter", "\u{1b}\r", [.key(.altEnter)]),
        ("Ctrl-←", "\u{1b}[1;5D", [.key(.wordLeft)]),
        ("Ctrl-→", "\u{1b}[1;5C", [.key(.wordRight)]),
        ("focus in", "\u{1b}[I", [.focus(true)]),
        ("focus out", "\u{1b}[O", [.focus(false)]),
        ("SGR mouse press", "\u{1b}[<0;12;5M", [.mouse(MouseReport(button: 0, column: 12, row: 5, pressed: true))]),
        ("SGR wheel", "\u{1b}[<65;3;4M", [.mouse(MouseReport(button: 65, column: 3, row: 4, pressed: true))]),
        ("SGR release", "\u{1b}[<0;12;5m", [.mouse(MouseReport(button: 0, column: 12, row: 5, pressed: false))]),
        ("X10 mouse", "\u{1b}[M !!", [.mouse(MouseReport(button: 0, column: 1, row: 1, pressed: true))]),
        ("unknown CSI (a position)", "\u{1b}[99999;1H", []),
        ("unknown CSI (Ctrl-F12-like)", "\u{1b}[25;5~", []),
        ("unknown CSI (Ctrl-Shift-Tab)", "\u{1b}[1;5Z", []),
        ("arrows", "\u{1b}[A\u{1b}[B\u{1b}[C\u{1b}[D", [.key(.up), .key(.down), .key(.right), .key(.left)]),
        ("SS3 arrows and F1", "\u{1b}OA\u{1b}OP", [.key(.up), .key(.f1)]),
        ("home, end, delete, pages", "\u{1b}[H\u{1b}[F\u{1b}[3~\u{1b}[5~\u{1b}[6~\u{1b}[1~\u{1b}[4~",
         [.key(.home), .key(.end), .key(.delete), .key(.pageUp), .key(.pageDown), .key(.home), .key(.end)]),
        ("Shift-Tab", "\u{1b}[Z", [.key(.backTab)]),
        ("F2", "\u{1b}OQ", [.key(.f2)]),
        ("bracketed paste", "\u{1b}[200~a\u{1b}b\u{1b}[201~x", [.paste("a\u{1b}b"), .key(.character("x"))]),
        ("UTF-8 and keys", "é\t\r\u{7f}", [.key(.character("é")), .key(.tab), .key(.enter), .key(.backspace)]),
        ("Ctrl-C", "\u{3}", [.key(.control("c"))]),
        ("Esc alone", "\u{1b}", [.key(.escape)]),
        ("Alt-Shift-O", "\u{1b}O", [.key(.alt("O"))]),
        ("Esc O, then an arrow", "\u{1b}O\u{1b}[A", [.key(.alt("O")), .key(.up)]),
        ("an X10 report cut by Ctrl-C", "\u{1b}[M \u{3}", [.key(.control("c"))]),
        ("OSC ended by BEL (a title)", "\u{1b}]2;q\u{7}", []),
        ("OSC ended by ST (a colour reply)", "\u{1b}]11;rgb:0000/0000/0000\u{1b}\\", []),
        ("DCS (a capability reply)", "\u{1b}P1$r0m\u{1b}\\", []),
        ("APC, PM and SOS", "\u{1b}_x\u{1b}\\\u{1b}^y\u{1b}\\\u{1b}Xz\u{1b}\\", []),
        ("C1 OSC and ST", "\u{9d}0;x\u{9c}", []),
        ("C1 CSI", "\u{9b}A", [.key(.up)]),
        ("an OSC, then a key", "\u{1b}]2;xfx\u{7}a", [.key(.character("a"))]),
        ("an OSC cut by Ctrl-C", "\u{1b}]2;ab\u{3}", [.key(.control("c"))]),
        ("an OSC cut by Esc Ctrl-C", "\u{1b}]2;ab\u{1b}\u{3}", [.key(.control("c"))]),
        ("an OSC cut by a new sequence", "\u{1b}]2;ab\u{1b}[A", [.key(.up)]),
        ("an OSC cancelled by CAN", "\u{1b}]2;ab\u{18}z", [.key(.character("z"))]),
        ("Alt-] alone", "\u{1b}]", [.key(.alt("]"))]),
        // Alt as an Esc before a sequence (rxvt, PuTTY, Terminal.app's Option as Meta): it was Esc, which cancelled.
        ("Esc-prefixed Alt-←", "\u{1b}\u{1b}[D", [.key(.wordLeft)]),
        ("Esc-prefixed Alt-→", "\u{1b}\u{1b}[C", [.key(.wordRight)]),
        ("Esc-prefixed SS3 Alt-←", "\u{1b}\u{1b}OD", [.key(.wordLeft)]),
        ("Esc-prefixed Alt-↑ (unused)", "\u{1b}\u{1b}[A", []),
        ("Esc-prefixed Ctrl-← (Ctrl-Alt-←): a word", "\u{1b}\u{1b}[1;5D", [.key(.wordLeft)]),
        ("Shift-← and Shift-→: the arrows", "\u{1b}[1;2D\u{1b}[1;2C", [.key(.left), .key(.right)]),
        ("Ctrl-Shift-← and Ctrl-Alt-→: a word", "\u{1b}[1;6D\u{1b}[1;7C", [.key(.wordLeft), .key(.wordRight)]),
        ("an Esc-prefixed sequence cut by Enter", "\u{1b}\u{1b}[1;\r", [.key(.escape), .key(.enter)]),
        ("an Esc-prefixed SS3 cut by Enter", "\u{1b}\u{1b}O5\r", [.key(.escape), .key(.enter)]),
        // No terminal sends Alt with a paste or a report: an Esc before one is a key, and the paste stays a paste
        // (it came as keys, Enter among them, and its end was lost).
        ("Esc, then a paste", "\u{1b}\u{1b}[200~hi q\r\u{1b}[201~", [.key(.escape), .paste("hi q\r")]),
        ("Esc, then a focus report", "\u{1b}\u{1b}[I", [.key(.escape), .focus(true)]),
        ("Esc, then an SGR click", "\u{1b}\u{1b}[<0;12;5M", [.key(.escape), .mouse(MouseReport(button: 0, column: 12, row: 5, pressed: true))]),
        ("Esc, then an X10 click", "\u{1b}\u{1b}[M !!", [.key(.escape), .mouse(MouseReport(button: 0, column: 1, row: 1, pressed: true))]),
        ("Esc, then a sequence cut short", "\u{1b}\u{1b}[1;", [.key(.escape)]),
        ("Esc Ctrl-Z", "\u{1b}\u{1a}", [.key(.control("z"))]),
        ("an OSC cut by Esc, then Esc [ D", "\u{1b}]2;ab\u{1b}\u{1b}[D", [.key(.left)]),
        ("Esc pressed twice", "\u{1b}\u{1b}", [.key(.escape), .key(.escape)]),
        ("Esc, then Alt-b", "\u{1b}\u{1b}b", [.key(.escape), .key(.alt("b"))]),
        ("Alt-Tab", "\u{1b}\t", []),
        ("Alt-Ctrl-A", "\u{1b}\u{1}", []),
        ("Esc Ctrl-C", "\u{1b}\u{3}", [.key(.control("c"))]),
        // SS3 with parameters (Konsole's Esc O 5 P, older VTE's Esc O 1 ; 5 P): their tails were typed.
        ("SS3 Shift-F1", "\u{1b}O2Px", [.key(.character("x"))]),
        ("SS3 Ctrl-F1", "\u{1b}O1;5Px", [.key(.character("x"))]),
        ("SS3 Ctrl-F1, first number left out", "\u{1b}O;5Px", [.key(.character("x"))]),
        ("SS3 Ctrl-↑", "\u{1b}O5A", []),
        ("SS3 Ctrl-←", "\u{1b}O5D", [.key(.wordLeft)]),
        ("SS3 Alt-→", "\u{1b}O1;3C", [.key(.wordRight)]),
        ("SS3 with an endless parameter", "\u{1b}O1234567890;5Px", [.key(.character("x"))]),
        // The Linux console's function keys: their letters were typed into the field, and F1 did nothing.
        ("Linux console F1 to F4", "\u{1b}[[A\u{1b}[[B\u{1b}[[C\u{1b}[[D", [.key(.f1), .key(.f2), .key(.f3), .key(.f4)]),
        ("Linux console F5 (unused)", "\u{1b}[[Ex", [.key(.character("x"))]),
        ("F6, and Shift-F6", "\u{1b}[17~\u{1b}[17;2~", [.key(.f6)]),
        ("Linux console Alt-F1 (unused)", "\u{1b}\u{1b}[[Ax", [.key(.character("x"))]),
        // A drag and the back and forward buttons acted as left clicks.
        ("SGR drag", "\u{1b}[<32;10;6Mx", [.key(.character("x"))]),
        ("SGR button 8 (back)", "\u{1b}[<128;10;6M\u{1b}[<128;10;6mx", [.key(.character("x"))]),
        ("X10 drag", "\u{1b}[M@!!x", [.key(.character("x"))]),
        ("X10 release", "\u{1b}[M#!!", [.mouse(MouseReport(button: 0, column: 1, row: 1, pressed: false))]),
        // 64 + 3: wheel right, not a wheel up's release (which scrolled).
        ("X10 wheel right", "\u{1b}[Mc!!", [.mouse(MouseReport(button: 67, column: 1, row: 1, pressed: true))]),
        ("SGR Ctrl-click", "\u{1b}[<16;10;6M", [.mouse(MouseReport(button: 0, column: 10, row: 6, pressed: true))]),
    ]

    @Test(arguments: sequences.indices)
    func everySequenceDecodesWholeAtEverySplit(_ index: Int) {
        let (_, text, expected) = Self.sequences[index]
        decodesAtEverySplit(text, expected)
    }

    @Test func anUnknownSequenceIsDroppedWholeAndTheNextKeyCounts() {
        #expect(decode("\u{1b}[25;5~a\u{1b}[99999;1Hb") == [.key(.character("a")), .key(.character("b"))])
        #expect(decode("\u{1b}[M !!a") == [.mouse(MouseReport(button: 0, column: 1, row: 1, pressed: true)), .key(.character("a"))])
    }

    @Test func escAloneIsAKeyOnlyOnceItsTimeoutPasses() {
        var decoder = KeyDecoder()
        let fed = decoder.feed("\u{1b}", at: start)
        #expect(fed.isEmpty)
        #expect(decoder.deadline == start + KeyDecoder.escapeTimeout)
        let early = decoder.flush(at: start + .milliseconds(10))
        #expect(early.isEmpty)
        let due = decoder.flush(at: start + KeyDecoder.escapeTimeout)
        #expect(due == [.key(.escape)])
        #expect(decoder.deadline == nil)
        #expect(KeyDecoder.escapeTimeout <= .milliseconds(50))
    }

    /// A sequence split by a slow link (ssh) well past Esc's timeout: its tail was typed into the field.
    @Test(arguments: ["\u{1b}[3~", "\u{1b}[1;5C", "\u{1b}[97;5u", "\u{1b}OH", "\u{1b}[<65;20;18M", "\u{1b}[M`!!"])
    func aSequenceSplitBySlowReadsIsStillWhole(_ sequence: String) {
        let whole = decode(sequence)
        let scalars = Array(sequence.unicodeScalars)
        for cut in 2..<scalars.count {
            var decoder = KeyDecoder()
            var out = decoder.feed(String(String.UnicodeScalarView(scalars[..<cut])), at: start)
            out += decoder.flush(at: start + .milliseconds(200))
            out += decoder.feed(String(String.UnicodeScalarView(scalars[cut...])), at: start + .milliseconds(200))
            out += decoder.flush(at: start + .seconds(10))
            #expect(out == whole, "cut at \(cut): \(out)")
            #expect(!out.contains { if case .key(.character) = $0 { true } else { false } })
        }
        // Esc alone is still Esc after its 50 ms.
        var decoder = KeyDecoder()
        _ = decoder.feed("\u{1b}", at: start)
        #expect(decoder.flush(at: start + KeyDecoder.escapeTimeout) == [.key(.escape)])
    }

    @Test func escThenAKeyAfterTheTimeoutIsEscThenTheKey() {
        var decoder = KeyDecoder()
        _ = decoder.feed("\u{1b}", at: start)
        let late = decoder.feed("b", at: start + .milliseconds(60))
        #expect(late == [.key(.escape), .key(.character("b"))])
    }

    @Test func anUnterminatedPasteEndsAfterItsTimeoutAndCtrlCAlwaysCounts() {
        var decoder = KeyDecoder()
        let opened = decoder.feed("\u{1b}[200~hello", at: start)
        #expect(opened.isEmpty)
        let early = decoder.flush(at: start + .milliseconds(100))
        #expect(early.isEmpty)
        let due = decoder.flush(at: start + KeyDecoder.pasteTimeout)
        #expect(due == [.paste("hello")])
        let next = decoder.feed("q", at: start + .seconds(1))
        #expect(next == [.key(.character("q"))])

        var open = KeyDecoder()
        let interrupted = open.feed("\u{1b}[200~abc\u{3}", at: start)
        #expect(interrupted == [.paste("abc"), .key(.control("c"))])
    }

    /// A paste's text fed in blocks (the reader's path for a read of many bytes: taken whole up to the next Esc)
    /// decodes as the same text fed a character at a time: kept up to the paste limit, the end found after it,
    /// Ctrl-C still counting.
    @Test(arguments: [10, 70_000])
    func pastedTextTakenWholeIsThePasteFedACharacterAtATime(size: Int) {
        let body = String(repeating: "é日a", count: size / 6 + 1)
        var one = KeyDecoder()
        var whole = KeyDecoder()
        var byCharacter: [DecodedInput] = []
        for scalar in ("\u{1b}[200~" + body + "\u{1b}[201~x").unicodeScalars { byCharacter += one.feed(scalar, at: start) }
        var taken = whole.feed("\u{1b}[200~", at: start)
        // In three blocks, as reads of the terminal may split it.
        let scalars = Substring(body).unicodeScalars
        let third = scalars.index(scalars.startIndex, offsetBy: scalars.count / 3)
        let twoThirds = scalars.index(third, offsetBy: scalars.count / 3)
        for part in [scalars[..<third], scalars[third..<twoThirds], scalars[twoThirds...]] { taken += whole.feed(String(part), at: start) }
        taken += whole.feed("\u{1b}[201~x", at: start)
        #expect(taken == byCharacter)
        if case .paste(let text)? = taken.first { #expect(text.utf8.count <= KeyDecoder.maximumPaste + 3) }
        var interrupted = KeyDecoder()
        _ = interrupted.feed("\u{1b}[200~", at: start)
        let before = interrupted.feed("abc", at: start)
        #expect(before.isEmpty && interrupted.feed("\u{3}", at: start) == [.paste("abc"), .key(.control("c"))])
    }

    @Test func aControlStringSplitAcrossSlowReadsIsStillDroppedWhole() {
        // A terminal's answer split by a slow link: its tail must not become keys ("q" would quit).
        var decoder = KeyDecoder()
        #expect(decoder.feed("\u{1b}]2;", at: start).isEmpty)
        #expect(decoder.deadline == start + KeyDecoder.pasteTimeout)
        #expect(decoder.flush(at: start + .milliseconds(100)).isEmpty)
        #expect(decoder.feed("qx\u{7}", at: start + .milliseconds(100)).isEmpty)
        #expect(decoder.feed("a", at: start + .milliseconds(110)) == [.key(.character("a"))])
    }

    @Test func anUnterminatedControlStringIsDroppedAfterThePasteTimeoutAndTheNextKeyCounts() {
        var decoder = KeyDecoder()
        let opened = decoder.feed("\u{1b}]11;rgb:00", at: start)
        #expect(opened.isEmpty)
        let due = decoder.flush(at: start + KeyDecoder.pasteTimeout)
        #expect(due.isEmpty)
        let next = decoder.feed("q", at: start + KeyDecoder.pasteTimeout + .milliseconds(10))
        #expect(next == [.key(.character("q"))])
        // Its introducer alone is an Alt key once the Esc timeout passes.
        var alt = KeyDecoder()
        #expect(alt.feed("\u{1b}]", at: start).isEmpty)
        #expect(alt.deadline == start + KeyDecoder.escapeTimeout)
    }

    @Test func aHugePasteIsCutAtItsLimit() {
        let text = String(repeating: "x", count: KeyDecoder.maximumPaste + 10)
        #expect(decode("\u{1b}[200~\(text)\u{1b}[201~") == [.paste(String(repeating: "x", count: KeyDecoder.maximumPaste))])
    }

    @Test func anEndlessSequenceIsDroppedWholeUpToItsFinalByte() {
        let long = "\u{1b}[" + String(repeating: "1;", count: 200) + "Hz"
        #expect(decode(long) == [.key(.character("z"))])
    }

    @Test func textFieldsEditByWord() {
        var input = TextInput("alpha beta gamma")
        var handled = [input.apply(.alt("b"))]
        #expect(input.cursor == 11)
        handled.append(input.apply(.wordLeft))
        #expect(input.cursor == 6)
        handled.append(input.apply(.alt("d")))
        #expect(input.text == "alpha  gamma")
        handled.append(input.apply(.wordRight))
        #expect(input.cursor == 12)
        handled.append(input.apply(.altBackspace))
        #expect(input.text == "alpha  ")
        handled.append(input.apply(.alt("b")))
        #expect(input.cursor == 0)
        handled.append(input.apply(.alt("f")))
        #expect(input.cursor == 5)
        #expect(handled.allSatisfy { $0 })
    }

    /// A masked field's words are not shown: the word keys take its text as one word, so neither the cursor's stop
    /// nor what a deletion takes says where its spaces are (Alt-Backspace on "ab cd" drew 5 dots, then 3).
    @Test func aMaskedFieldIsOneWord() {
        var password = TextInput("ab cd ef", masked: true)
        _ = password.apply(.alt("b"))
        #expect(password.cursor == 0)
        _ = password.apply(.wordRight)
        #expect(password.cursor == 8)
        _ = password.apply(.left)
        _ = password.apply(.left)
        _ = password.apply(.alt("d"))
        #expect(password.text == "ab cd ")
        _ = password.apply(.altBackspace)
        #expect(password.text.isEmpty)
        var code = TextInput("12 34", masked: true)
        _ = code.apply(.control("w"))
        #expect(code.text.isEmpty)
    }

    /// On the activation form, Alt-Backspace takes the whole password typed, and in the user name one word.
    @Test func theFormsPasswordIsOneWordAndItsUserNameIsNot() {
        let driver = AppDriver()
        driver.openActivation()
        driver.type("al ice")
        driver.press(.altBackspace, .tab)
        driver.type("ab cd")
        driver.press(.altBackspace)
        guard case .form(let form) = driver.screen else {
            Issue.record("no form")
            return
        }
        #expect(form.inputs.map(\.text) == ["al ", ""])
    }

    /// A combining mark typed after its letter joins it, as it shows: ← stopped between them, Backspace took the accent
    /// alone, and a letter typed between them took the accent.
    @Test func aMarkTypedAfterItsLetterJoinsIt() {
        var input = TextInput()
        for key: Key in [.character("e"), .character("\u{301}"), .character("z")] { _ = input.apply(key) }
        #expect(input.text == "e\u{301}z" && input.characters.count == 2 && input.cursor == 2)
        _ = input.apply(.left)
        _ = input.apply(.left)
        #expect(input.cursor == 0)
        _ = input.apply(.right)
        _ = input.apply(.character("Q"))
        #expect(input.text == "e\u{301}Qz")
        _ = input.apply(.backspace)
        _ = input.apply(.backspace)
        #expect(input.text == "z")
        // A letter typed before a mark takes it: one character, one dot in a password.
        var before = TextInput()
        for key: Key in [.character("\u{301}"), .home, .character("e")] { _ = before.apply(key) }
        #expect(before.characters == ["e\u{301}"] && before.cursor == 1)
        for key: Key in [.character("x"), .left, .left] { _ = before.apply(key) }
        #expect(before.cursor == 0 && before.text == "e\u{301}x")
        // A skin tone and a joiner typed one by one make one emoji too.
        var emoji = TextInput()
        for scalar in ["👍", "\u{1F3FD}", "x"] { _ = emoji.apply(.character(Character(scalar))) }
        #expect(emoji.characters == ["👍🏽", "x"])
    }
}
