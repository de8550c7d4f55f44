import Foundation
import TerminalUI
import Testing

@Suite struct ThemeTests {
    /// A theme file that is not UTF-8 says where its first invalid byte is, as a scenario file does (it named the file
    /// alone).
    @Test func aThemeFileThatIsNotUTF8SaysWhere() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-utf8-\(UUID().uuidString).theme").path
        try Data("# ok\ntitle = bold \u{1}".utf8.dropLast() + [0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try Theme.resolve(path, environment: [:])
        } throws: { error in
            guard let error = error as? ThemeError else { return false }
            return error.line == 2 && error.column == 14 && error.message == "is not UTF-8 text (an invalid byte)"
        }
    }

    static let themesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Themes")

    @Test(arguments: BuiltInThemes.names)
    func builtInThemesMatchTheFilesInThemes(_ name: String) throws {
        let file = try String(contentsOf: Self.themesDirectory.appendingPathComponent("\(name).theme"), encoding: .utf8)
        let fromFile = try Theme.parse(file, source: name)
        let builtIn = try #require(Theme.builtIn(name))
        #expect(fromFile.styles == builtIn.styles)
        #expect(Set(builtIn.styles.keys) == Set(Role.allCases), "a built-in theme sets every role")
    }

    @Test func aThemeFileParses() throws {
        let theme = try Theme.parse("""
            # comment
            title = bold underline bright-yellow on 17
            error = red   # trailing comment
            text = none
            """, source: "mine.theme")
        #expect(theme.style(.title) == Style(foreground: .index(11), background: .index(17), attributes: [.bold, .underline]))
        #expect(theme.style(.error) == Style(foreground: .index(1)))
        #expect(theme.style(.text) == Style())
    }

    /// Found by fuzzing (Fuzz/corpus/theme/crlf.theme): a file with CRLF line ends was read as one line.
    @Test func aThemeFileWithCRLFLineEndsReadsAsWithLF() throws {
        let lf = "# comment\ntitle = bold white on blue\n\nerror = red # why\n"
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try Theme.parse(crlf, source: "crlf.theme").styles == Theme.parse(lf, source: "lf.theme").styles)
        #expect(try Theme.parse(crlf, source: "crlf.theme").style(.error) == Style(foreground: .index(1)))
        #expect {
            _ = try Theme.parse("title = bold\r\n\r\ntitle = dim\r\n", source: "t.theme")
        } throws: { error in
            (error as? ThemeError)?.description == "theme t.theme:3:1: key \"title\": set twice"
        }
    }

    @Test(arguments: [
        // Every error names a column (these two named none).
        ("  title bold", "theme t.theme:1:3: expected \"role = style\""),
        ("tittle = bold", "theme t.theme:1:1: unknown key; did you mean \"title\"?; keys: "),
        ("  s3cr3t-typo = bold", "theme t.theme:1:3: unknown key"),
        ("title = bold purpel", "theme t.theme:1:14: key \"title\": unknown colour or attribute; attributes: bold"),
        ("title = red on", "theme t.theme:1:13: key \"title\": \"on\" needs a background colour"),
        ("title = red on mauve", "theme t.theme:1:16: key \"title\": unknown colour; a colour is one of"),
        ("title = red blue", "theme t.theme:1:13: key \"title\": unexpected word"),
        ("title =", "theme t.theme:1:8: key \"title\": no style given"),
        ("\n\ntitle = bold\n  title = dim", "theme t.theme:4:3: key \"title\": set twice"),
        ("title = 256", "theme t.theme:1:9: key \"title\": unknown colour or attribute"),
        ("title = none bold", "theme t.theme:1:9: key \"title\": \"none\" stands alone"),
        ("title = bold none", "theme t.theme:1:14: key \"title\": \"none\" stands alone"),
    ])
    func badThemeFilesNameTheLineAndTheKey(_ text: String, _ message: String) {
        #expect {
            _ = try Theme.parse(text, source: "t.theme")
        } throws: { error in
            (error as? ThemeError)?.description.hasPrefix(message) == true
        }
    }

    /// Every problem of a file is reported at once, in the file's order (six mistakes took six runs), and a key that
    /// runs on past a known one is told that one (`statusbar`, `log.warning`: no suggestion was given).
    @Test func everyProblemOfAThemeFileIsReportedAtOnce() {
        let text = "text = purple\nstatusbar = bold\ntitle = bold\nlog.warning = red\ntitle = dim\nhint = red on"
        do {
            _ = try Theme.parse(text, source: "t.theme")
            Issue.record("the file was taken")
        } catch {
            let lines = error.lines
            #expect(lines.count == 5, "\(lines)")
            #expect(lines.map { $0.prefix(16) } == ["theme t.theme:1:", "theme t.theme:2:", "theme t.theme:4:", "theme t.theme:5:", "theme t.theme:6:"], "\(lines)")
            #expect(lines[1].hasPrefix(#"theme t.theme:2:1: unknown key; did you mean "status"?"#), "\(lines[1])")
            #expect(lines[2].hasPrefix(#"theme t.theme:4:1: unknown key; did you mean "log.warn"?"#), "\(lines[2])")
            #expect(lines[3] == #"theme t.theme:5:1: key "title": set twice"#, "\(lines[3])")
        }
    }

    /// A lone CR ends a line (the whole file read as line 1, its later problems unsaid), and a key is read in any
    /// case, as its words are (`Status = red` was an unknown key).
    @Test func aLoneCREndsALineAndKeysAreReadInAnyCase() throws {
        let theme = try Theme.parse("Title = bold\rStatus = red", source: "t.theme")
        #expect(theme.style(.title).attributes.contains(.bold))
        do {
            _ = try Theme.parse("title = bold\rstatusbar = red\rhint = purple\r", source: "t.theme")
        } catch {
            #expect(error.lines.map { $0.prefix(16) } == ["theme t.theme:2:", "theme t.theme:3:"], "\(error.lines)")
        }
    }

    /// Twenty problems are listed, then how many more (a 64 KiB text named as a theme gave thousands of lines).
    @Test func aThemeFilesProblemsAreListedTwentyAtMost() {
        let text = Array(repeating: "wonderland = bold", count: 30).joined(separator: "\n")
        do {
            _ = try Theme.parse(text, source: "t.theme")
        } catch {
            #expect(error.lines.count == 21 && error.lines.last == "theme t.theme: 10 more problems", "\(error.lines)")
        }
    }

    /// Tabs part words as spaces do ("bold<TAB>cyan" was one unknown word, while a tab before "=" was fine), and a
    /// byte-order mark is no part of the first key ("title" was an unknown key).
    @Test func tabsAndAByteOrderMarkReadAsAnEditorWritesThem() throws {
        let expected = Style(foreground: .index(6), attributes: .bold)
        for text in ["title = bold\tcyan", "title\t=\tbold \t cyan\t", "\u{FEFF}title = bold cyan"] {
            #expect(try Theme.parse(text, source: "t.theme").style(.title) == expected, "\(text.debugDescription)")
        }
    }

    @Test(arguments: ["wonderland = bold", "title = wonderland", "title = red on wonderland", "title = red blue wonderland"])
    func anErrorPointsAtTheWordItRefusesWithoutQuotingIt(_ text: String) {
        #expect {
            _ = try Theme.parse(text, source: "t.theme")
        } throws: { error in
            let description = (error as? ThemeError)?.description ?? ""
            return description.hasPrefix("theme t.theme:1:") && !description.contains("wonderland")
        }
    }

    @Test func noColorSelectsMonochromeUnlessAThemeIsNamed() throws {
        #expect(try Theme.resolve(nil, environment: ["NO_COLOR": "1"]).name == "monochrome")
        #expect(try Theme.resolve(nil, environment: ["NO_COLOR": ""]).name == "default")
        #expect(try Theme.resolve(nil, environment: [:]).name == "default")
        #expect(try Theme.resolve("high-contrast", environment: ["NO_COLOR": "1"]).name == "high-contrast")
        #expect(throws: ThemeError.self) { try Theme.resolve("/nonexistent.theme", environment: [:]) }
    }

    @Test func aUserThemeInheritsWhatItLeavesOut() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("partial-\(UUID()).theme")
        try "title = bold magenta\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let theme = try Theme.resolve(file.path, environment: [:])
        #expect(theme.style(.title) == Style(foreground: .index(5), attributes: [.bold]))
        #expect(theme.style(.fieldFocused) == Theme.builtIn("default")?.style(.fieldFocused))
    }
}

/// A 256-colour theme on a terminal of 8 or 16 colours: each colour drawn as the nearest the terminal has.
@Suite struct ColorFittingTests {
    /// Colour 208 (orange) was drawn black (208 mod 8) and made the title vanish; 196 (red) blue; 22 (dark green)
    /// cyan.
    @Test(arguments: [(208, 8, 3), (196, 8, 1), (46, 8, 2), (226, 8, 3), (21, 8, 4), (231, 8, 7), (16, 8, 0), (244, 8, 7),
                      (196, 16, 9), (208, 16, 3), (244, 16, 8), (250, 8, 7), (236, 8, 0), (12, 8, 4), (4, 8, 4), (100, 256, 100)])
    func aColourTheTerminalLacksIsDrawnAsTheNearestItHas(index: Int, palette: Int, expected: Int) {
        #expect(ThemeColor.fitted(index, palette: palette) == expected)
    }

    /// On a terminal without colours a named theme's backgrounds that marked something are reverse video:
    /// high-contrast's focused and other buttons were both bold on a vt100, so Tab showed nothing.
    @Test func withoutColoursABackgroundThatMarksAStyleIsReverseVideo() throws {
        let theme = try #require(Theme.builtIn("high-contrast")).withoutColours
        for role in [Role.buttonFocused, .menuFocused, .status, .error, .success] {
            #expect(theme.style(role).attributes.contains(.reverse), "\(role)")
        }
        for role in [Role.buttonBlurred, .text, .fieldFocused, .fieldBlurred, .label] {
            #expect(!theme.style(role).attributes.contains(.reverse), "\(role)")
        }
    }

    /// Theme words as people write them: any case (`Bold Red` was refused), a misspelt or other name of a colour
    /// answered with the one meant, and a hex colour told apart from a missing style (`#` starts a comment: "no
    /// style given" did not say why).
    @Test func themeWordsAsPeopleWriteThem() throws {
        #expect(try Theme.parse("title = Bold Red ON Black\n", source: "t").style(.title)
            == Style(foreground: .index(1), background: .index(0), attributes: .bold))
        func message(_ text: String) -> String {
            do {
                _ = try Theme.parse(text, source: "t")
                return ""
            } catch { return error.message }
        }
        for line in ["title = #ff0000\n", "title = bold #ff0000\n", "title = white on #000000\n"] {
            #expect(message(line) == "# starts a comment: a colour is a name or a number from 0 to 255, not #rrggbb", "\(line)")
        }
        #expect(message("title = # the title\n") == "no style given")
        #expect(message("title = purple\n").hasPrefix("unknown colour or attribute; did you mean \"magenta\"?"))
        #expect(message("title = bold brightred\n").hasPrefix("unknown colour or attribute; did you mean \"bright-red\"?"))
        #expect(message("title = red on grey\n").hasPrefix("unknown colour; did you mean \"bright-black\"?"))
        #expect(message("title = bold zzzzzz\n").hasPrefix("unknown colour or attribute; attributes:"))
        // A theme author's tries: blink read "did you mean black?", and "bright red" had no hint.
        #expect(message("title = blink\n").hasPrefix("unknown colour or attribute; blink is not offered"))
        #expect(message("title = bright red\n").hasPrefix("unknown colour or attribute; a bright colour is one word, as bright-red"))
    }
}
