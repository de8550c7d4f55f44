import JSONText
import Testing

@Suite struct JSONParserTests {
    @Test func valuesKeepTheirPositions() throws {
        let root = try JSONParser.parse("{\n  \"a\": [1, 2.5e1, -0],\n  \"b\": {\"c\": \"x\\u00e9\\ud83d\\ude00\"},\n  \"d\": null, \"e\": true\n}")
        #expect(root.position == TextPosition(line: 1, column: 1))
        #expect(root["a"]?.position == TextPosition(line: 2, column: 8))
        #expect(root["a"]?.array?.map(\.number) == [1, 25, 0])
        #expect(root["a"]?.array?.first?.integer == 1)
        #expect(root["a"]?.array?[1].integer == nil, "2.5e1 is not written as a whole number")
        #expect(root["b"]?["c"]?.string == "xé😀")
        #expect(root["b"]?["c"]?.position == TextPosition(line: 3, column: 14))
        #expect(root["d"]?.value == .null)
        #expect(root["e"]?.bool == true)
        #expect(root.members?.map(\.key) == ["a", "b", "d", "e"])
    }

    @Test(arguments: [
        // A trailing comma and a comment are named (they said "expected a key in double quotes" and "an unexpected
        // character where a value should be").
        ("{\"a\": 1,}", "a comma before }, which JSON does not allow (a trailing comma)", 1, 9),
        ("[1, 2, ]", "a comma before ], which JSON does not allow (a trailing comma)", 1, 8),
        ("{,}", "expected a key in double quotes", 1, 2),
        ("// the demo\n{}", "a comment, which JSON does not allow", 1, 1),
        ("{\"a\": 1 /* one */}", "a comment, which JSON does not allow", 1, 9),
        ("[1, # one\n2]", "a comment, which JSON does not allow", 1, 5),
        ("{} // end", "a comment, which JSON does not allow", 1, 4),
        ("[1, /x/]", "an unexpected character where a value should be", 1, 5),
        ("{\"a\": 1, \"a\": 2}", "a key appears twice in one object (the second time here)", 1, 10),
        ("[1 2]", "expected , or ] after an array element", 1, 4),
        ("{\n  \"a\": tru\n}", "unquoted text where a value should be (a string goes in double quotes)", 2, 8),
        ("\"abc", "the text ends inside a string", 1, 5),
        ("01", "a number may not start with 0", 1, 2),
        ("[1.]", "expected digits after the decimal point", 1, 4),
        ("\"a\tb\"", "a control character inside a string (escape it)", 1, 3),
        ("\"\\ud800\"", "a lone UTF-16 surrogate in a \\u escape", 1, 8),
        ("{} x", "unexpected text after the JSON value", 1, 4),
        ("", "the text ends where a value should be", 1, 1),
        ("1e999", "a number beyond what a double holds (about 1.8e308)", 1, 1),
        ("\"\\q\"", "an unknown escape in a string (after a backslash JSON takes \" \\ / b f n r t or u)", 1, 4),
        // Found by fuzzing (Fuzz/corpus/answers/escaped-newline.json): a control character after a backslash was
        // printed, and the error was no longer one line.
        ("\"\\\u{07}\"", "an unknown escape in a string (after a backslash JSON takes \" \\ / b f n r t or u)", 1, 4),
        ("\u{9B}", "a control character where a value should be", 1, 1),
        // Found by comparing with the previous parser: a line end after a backslash moves to the next line.
        ("{\n  \"a\": \"x\\\n\"}", "an unknown escape in a string (after a backslash JSON takes \" \\ / b f n r t or u)", 3, 1),
        ("\u{FEFF}[\"é\", tru]", "unquoted text where a value should be (a string goes in double quotes)", 1, 7),
        // Nothing of the text is quoted back: a password written without its quotes, or with a bad escape, is a secret.
        ("{\"password\":LeakPw0006}", "unquoted text where a value should be (a string goes in double quotes)", 1, 13),
        // A password that starts as false, true or null does: not "expected false".
        ("{\"password\":fish}", "unquoted text where a value should be (a string goes in double quotes)", 1, 13),
        ("[1, 'x']", "an unexpected character where a value should be", 1, 5),
        ("{\"p\":\"x\\q\"}", "an unknown escape in a string (after a backslash JSON takes \" \\ / b f n r t or u)", 1, 10),
        // At the number's start, as every value's place is (it was the character after it).
        ("[12345678901234567890e400]", "a number beyond what a double holds (about 1.8e308)", 1, 2),
    ])
    func syntaxErrorsSayWhatAndWhere(text: String, message: String, line: Int, column: Int) {
        // The message and the place (a number out of range is also marked as such: ``JSONSyntaxError/isNumberOutOfRange``).
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.message == message && error.position == TextPosition(line: line, column: column)
                && error.isNumberOutOfRange == message.hasPrefix("a number beyond")
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    }

    /// Lines ended by a CR alone are lines for an invalid byte's place too, as they are for every other error.
    @Test func anInvalidBytesLineCountsALoneCR() {
        #expect {
            _ = try JSONParser.parse(Array("{\r\"scenario\": 1,\r\"name\": \"a".utf8) + [0xFF] + Array("\"\r}".utf8))
        } throws: { error in
            (error as? JSONSyntaxError)?.position == TextPosition(line: 3, column: 11)
        }
    }

    @Test func invalidUTF8IsRefusedWhereItIs() {
        #expect(throws: JSONSyntaxError(message: "the text is not UTF-8 (an invalid byte)", position: TextPosition(line: 1, column: 2))) {
            try JSONParser.parse([0x22, 0xff, 0x22])
        }
        // Columns count characters: é is two bytes and one column; a truncated sequence is found at its first byte.
        // A byte-order mark is not a column, before an invalid byte as before anything else.
        #expect(throws: JSONSyntaxError(message: "the text is not UTF-8 (an invalid byte)", position: TextPosition(line: 1, column: 7))) {
            try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{\"a\":\"".utf8) + [0xFF] + Array("\"}".utf8))
        }
        let text = Array("{\n  \"é\": \"".utf8) + [0xE2, 0x82] + Array("\"}".utf8)
        #expect(throws: JSONSyntaxError(message: "the text is not UTF-8 (an invalid byte)", position: TextPosition(line: 2, column: 9))) {
            try JSONParser.parse(text)
        }
        // UTF-16, either byte order, is said as such (a Windows editor's file read as "an invalid byte" at 1:1).
        for mark: [UInt8] in [[0xFF, 0xFE], [0xFE, 0xFF]] {
            #expect(throws: JSONSyntaxError(message: "the text is UTF-16, not UTF-8 (save it as UTF-8)", position: TextPosition(line: 1, column: 1))) {
                try JSONParser.parse(mark + [0x7B, 0x00, 0x7D, 0x00])
            }
        }
    }

    @Test func columnsCountCharactersOnALongLine() throws {
        // One line, as a minified file is: positions are counted in characters, not bytes, however far along.
        let items = (0..<2_000).map { "{\"naïve😀\": \"é\($0)\"}" }
        let root = try JSONParser.parse(Array("[\(items.joined(separator: ","))]".utf8))
        let last = try #require(root.array?.last)
        let before = "[" + items.dropLast().joined(separator: ",") + ","
        #expect(last.position == TextPosition(line: 1, column: before.unicodeScalars.count + 1))
        #expect(last["naïve😀"]?.string == "é1999")
        #expect(last["naïve😀"]?.position == TextPosition(line: 1, column: last.position.column + 11))
    }

    @Test func aDuplicateKeyIsFoundInALargeObject() {
        let members = (0..<40).map { "\"k\($0)\": \($0)" } + ["\"k33\": 0"]
        #expect(throws: JSONSyntaxError(message: "a key appears twice in one object (the second time here)", position: TextPosition(line: 1, column: 382))) {
            try JSONParser.parse("{" + members.joined(separator: ",") + "}")
        }
    }

    @Test func escapesAndPlainRunsMix() throws {
        let root = try JSONParser.parse(#"["a\nb\u00e9c\ud83d\ude00d\"e\\", "\/x", "ü\tü"]"#)
        #expect(root.array?.map(\.string) == ["a\nbéc😀d\"e\\", "/x", "ü\tü"])
    }

    @Test func theWriterRoundTripsThroughTheParser() throws {
        let output = JSONNode.object([
            ("name", .string("quote \" backslash \\ newline \n tab \t bell \u{07}")), ("n", .int(-3)), ("x", .number(0.5)),
            ("list", .array([.bool(true), .null])), ("nested", .object([("empty", .array([])), ("o", .object([]))])),
        ])
        for pretty in [true, false] {
            let parsed = try JSONParser.parse(output.text(pretty: pretty))
            #expect(parsed["name"]?.string == "quote \" backslash \\ newline \n tab \t bell \u{07}")
            #expect(parsed["n"]?.integer == -3)
            #expect(parsed["x"]?.number == 0.5)
            #expect(parsed["list"]?.array?.count == 2)
            #expect(parsed["nested"]?["empty"]?.array?.isEmpty == true)
        }
    }
}

@Suite struct KeySuggestionTests {
    /// A word that runs on a little past a known key is told that key (`statusbar`: status); one that merely starts
    /// with a short known word is told nothing (`cardholder` is no `card`, `erroneous` no `erro`).
    @Test func aKeyThatRunsOnPastAKnownOneIsAnsweredWithIt() {
        #expect(KeySuggestion.closest(to: "statusbar", among: ["status", "title"]) == "status")
        #expect(KeySuggestion.closest(to: "log.warning", among: ["log.warn", "log.error"]) == "log.warn")
        #expect(KeySuggestion.closest(to: "cardholder", among: ["card", "expiry"]) == nil)
        #expect(KeySuggestion.closest(to: "erroneous", among: ["erro", "timeout"]) == nil)
    }

    @Test func aKeyCloseToOneKnownKeyIsAnsweredWithThatKey() {
        let known = ["username", "password", "activation-code", "cancel", "faults"]
        #expect(KeySuggestion.closest(to: "pasword", among: known) == "password")
        #expect(KeySuggestion.closest(to: "UserName", among: known) == "username")
        #expect(KeySuggestion.closest(to: "activationCode", among: known) == "activation-code", "case, and a dash")
        #expect(KeySuggestion.closest(to: "pass", among: known) == nil, "four letters away")
        #expect(KeySuggestion.closest(to: "wonderland", among: known) == nil)
        #expect(KeySuggestion.closest(to: "ca", among: known) == nil, "four letters away")
        // A word of two letters is one letter off at most (two off a short word is any word); of one, no guess.
        #expect(KeySuggestion.closest(to: "rn", among: ["run", "reset", "history"]) == "run")
        #expect(KeySuggestion.closest(to: "ab", among: ["no", "pin"]) == nil)
        #expect(KeySuggestion.closest(to: "r", among: ["run", "no"]) == nil)
        // Two known keys equally close: no guess.
        #expect(KeySuggestion.closest(to: "cart", among: ["card", "cars"]) == nil)
    }
}
