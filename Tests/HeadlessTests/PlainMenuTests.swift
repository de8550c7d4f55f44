import Foundation
import Testing

/// Plain mode's menu: what it takes, Esc, and the terminal UI's `h` and `f` (the history and the faults as questions).
@Suite struct PlainMenuTests {
    @Test func aWrongChoiceSaysWhatItTakes() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "10\nq\n")
        #expect(run.stdout.contains("! choose a number from 1 to \(PlainMenu.count), f (faults), h (history), ? (help) or q"))
        #expect(run.status == 0)
    }

    /// Esc at the menu says there is nothing to cancel (it asked again without a word); in the faults question it
    /// goes back to the menu.
    @Test func escAtTheMenuSaysWhatQuits() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "\u{1b}\nf\n\u{1b}\nq\n")
        #expect(run.stdout.contains("! Esc cancels a flow; there is none here: q quits"), "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "\(PlainMenu.question)").count == 4, "the menu asked again after the faults' Esc: \(run.stdout)")
        #expect(run.status == 0)
    }

    /// `h` at the menu is the terminal UI's history as a question: the past flows listed, an ID prints that flow's
    /// transcript (as `idp-tui history show` does), Enter goes back. It pointed to `idp-tui history`, which a
    /// session with --ephemeral has no file for.
    @Test func theHistoryIsAQuestionAtTheMenu() throws {
        let state = freshStatePath()
        // A flow from another process first: the list is the file's, not only this session's.
        let earlier = try BinaryRun.run(["run", "logout", "--state", state], stdin: "")
        #expect(earlier.status == 0, "\(earlier.stderr)")
        let password = "Wr0ng-pl41n-h1st0ry"
        let run = try BinaryRun.run(["--state", state], stdin: "1\nalice\n\(password)\n\n\nh\n02\n9\nx\nH\n\nq\n")
        #expect(run.stdout.contains("  h History: past flows, each with its events\n"), "\(run.stdout)")
        // The result names its flow's id in the history, as the terminal UI's log rule does.
        #expect(run.stdout.contains("\n  history: flow 2 (h shows it)\nEnter goes back"), "\(run.stdout)")
        // Piped, 80 columns: the time shows, its zone in its column's head (the heading said it where it did not).
        #expect(run.stdout.contains("\nHistory: past flows, newest first\n  ID  TIME (UTC)"), "\(run.stdout)")
        let list = try #require(run.stdout.components(separatedBy: "History: past flows, newest first\n").dropFirst().first)
        let rows = list.split(separator: "\n").prefix(3).map(String.init)
        #expect(rows.count == 3 && rows[1].hasPrefix("  2 ") && rows[1].contains("activate  alice  failure  WRONG_CREDENTIALS")
            && rows[2].hasPrefix("  1 ") && rows[2].contains("logout"), "\(rows)")
        // `02` is taken as 2, and shown so, as the menu shows a number.
        #expect(run.stdout.contains("Enter goes back): 2\nflow 2: activate · alice · failure WRONG_CREDENTIALS · "), "\(run.stdout)")
        #expect(run.stdout.contains("\nerror 513/4011: wrong username or password"), "\(run.stdout)")
        #expect(run.stdout.contains("  provideCredentials  [IdpSdk]  answered  "), "\(run.stdout)")
        // A number past the newest flow, or junk, is not said back: it may be a code meant for a flow that ended.
        #expect(run.stdout.contains("Enter goes back): (not an answer here)\n! no flow with that ID in the history; h lists them"), "\(run.stdout)")
        #expect(run.stdout.contains("Enter goes back): (not an answer here)\n! type a flow's ID, h to list them, or Enter to go back"), "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "  ID  TIME").count == 3, "H listed them again: \(run.stdout)")
        // Back at the menu, its line is printed again with the device read again.
        #expect(run.stdout.hasSuffix("What would you like to do? (device: not activated; Enter lists the choices)\n\(PlainMenu.question) (q quits): q\n"),
                "\(run.stdout)")
        #expect(!(run.stdout + run.stderr).contains(password))
        #expect(run.status == 1, "the activation failed: \(run.stderr)")
    }

    /// The menu's lines after its first line.
    private var menuLines: String {
        ["Activate device", "Log in", "Log out", "Pay with card (3-D Secure)", "Q2 login", "Activate device (KSSIDP)", "Log in (KSSIDP)",
         "KSSIDP comparison", "Quit"]
            .enumerated().map { "  \($0.offset + 1) \($0.element)\n" }.joined()
            + "  f Faults: switch them on and off (the terminal UI's panel)\n  h History: past flows, each with its events\n"
            + "  ? Help: the keys at every question\n"
    }

    /// `?` at the menu lists plain mode's keys (they were only in docs/terminal.md, not installed; `?` said "(not an
    /// answer here)"), and the menu is asked again under them.
    @Test func aQuestionMarkAtTheMenuListsTheKeys() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "?\nq\n")
        #expect(run.stdout.contains("(q quits): ?\nKeys at every question:\n  Enter answers;"), "\(run.stdout)")
        #expect(run.stdout.contains("\nAt the menu: a number, f faults, h history, q quits; Enter alone lists the choices. Ctrl-C quits from anywhere.\n\(PlainMenu.question)"),
                "\(run.stdout)")
        // What Ctrl-D and Esc do at a result, as docs/terminal.md says it (the help named only the menu's Ctrl-D).
        #expect(run.stdout.contains("Ctrl-D on an empty line (at the menu or a result it quits; at the faults or the history question it goes back)\n"),
                "\(run.stdout)")
        #expect(run.stdout.contains("\nAt a result: Enter or Esc goes back to the menu, h opens the history, q or Ctrl-D quits.\n"), "\(run.stdout)")
        #expect(run.status == 0)
    }

    /// An empty history says so and asks nothing; the list holds the newest 20, says how many there are and which
    /// IDs are older, and an older flow is shown by its ID all the same.
    @Test func theHistoryQuestionListsTheNewest() throws {
        // `h` from the faults question opens the history, as from the menu.
        let empty = try BinaryRun.run(["--ephemeral"], stdin: "f\nh\nq\n")
        #expect(empty.stdout.contains("Enter goes back): h\n"), "\(empty.stdout)")
        #expect(empty.stdout.contains("\nNo flows yet: the flows you run are kept here until idp-tui exits (--ephemeral).\n\(PlainMenu.question)"), "\(empty.stdout)")
        #expect(!empty.stdout.contains("Show which flow?"), "\(empty.stdout)")
        #expect(empty.status == 0)
        // 22 logouts of a device never activated (each a result at once, Enter back to the menu; from the last, `h`
        // opens the history, as the terminal UI's result takes it).
        let many = try BinaryRun.run(["--ephemeral"], stdin: String(repeating: "3\n\n", count: 21) + "3\nh\n1\n\u{1b}\nq\n")
        #expect(many.stdout.contains("Enter goes back (h history; q quits): h\n\nHistory: past flows"), "\(many.stdout)")
        let list = try #require(many.stdout.components(separatedBy: "The newest 20 of 22 flows; an older one's ID shows it too (1 to 2):\n").dropFirst().first)
        let rows = list.split(separator: "\n").prefix(while: { $0.hasPrefix("  ") })
        #expect(rows.count == 21 && rows[1].hasPrefix("  22 ") && rows[20].hasPrefix("  3 "), "\(rows)")
        #expect(many.stdout.contains("\nflow 1: logout · none · success OK · "), "\(many.stdout)")
        #expect(many.stdout.contains("\nnothing to log out: this device is not activated\n"), "\(many.stdout)")
        #expect(many.stdout.hasSuffix("Enter lists the choices)\n\(PlainMenu.question) (q quits): q\n"), "Esc went back to the menu: \(many.stdout)")
        #expect(many.status == 0)
    }

    /// Under a locale that is not UTF-8 a user name cut at 16 ends in "...", and the columns after it stay under their
    /// headings (the "…" was spelled "..." after the row was laid out, two columns wider).
    @Test func theHistoryListKeepsItsColumnsInASCII() throws {
        let state = freshStatePath()
        let q2 = try BinaryRun.run(["run", "q2-login", "logout", "--state", state],
                                   stdin: #"[{"username":"a-very-long-user-name-indeed","password":"nope"},{}]"#)
        #expect(q2.status == 1, "\(q2.stderr)")
        let run = try BinaryRun.run(["--state", state], stdin: "h\n\nq\n", environment: ["LC_ALL": "C"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("  ID ") })
        let column = try #require(header.range(of: "OUTCOME")).lowerBound.utf16Offset(in: header)
        let rows = lines.filter { $0.contains("q2-login") || $0.contains("logout  ") }
        let cut = rows.contains { $0.contains("a-very-long-u...") }
        #expect(rows.count == 2 && cut, "\(rows)")
        for row in rows {
            let outcome = try #require(row.range(of: "failure") ?? row.range(of: "success"))
            #expect(outcome.lowerBound.utf16Offset(in: row) == column, "\(header)\n\(row)")
        }
        let ascii = run.stdout.unicodeScalars.allSatisfy(\.isASCII)
        #expect(ascii)
    }

    /// `f` at the menu is the faults panel as a question: the switches listed, a number switches one and says what
    /// it did, and the next flow meets it (it pointed to a scenario file: a screen reader's user had to quit).
    @Test func faultsAreSwitchedFromTheMenu() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "f\n1\n\n1\nalice\nwonderland\n\nq\n")
        #expect(run.stdout.contains("\n  1   off  network unavailable\n"), "\(run.stdout)")
        #expect(run.stdout.contains("\nswitched on: network unavailable\n"), "\(run.stdout)")
        // The menu's question counts the faults on, as the terminal UI's status line does.
        #expect(run.stdout.contains("\n\(PlainMenu.question) (1 fault on; q quits): 1\n"), "\(run.stdout)")
        #expect(run.stdout.contains("faults on") && run.stdout.contains("NOT_REACHABLE"), "\(run.stdout)")
        #expect(run.status == 1, "the activation failed: \(run.stderr)")
        let wrong = try BinaryRun.run(["--ephemeral"], stdin: "f\n99\n\nq\n")
        #expect(wrong.stdout.contains("! choose a fault from 1 to 19, f to list them, or Enter to go back"), "\(wrong.stdout)")
        #expect(wrong.status == 0)
    }

    /// Either case, as the terminal UI takes its keys: `F` opened the faults after "(not an answer here)", `Q` was
    /// refused; q in the faults question goes back, as in the panel; Enter at the menu is no stray answer either.
    @Test func theMenuTakesEitherCaseAndEnterIsNoStrayAnswer() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "F\nq\n\nQ\n")
        #expect(!run.stdout.contains("(not an answer here)"), "\(run.stdout)")
        #expect(run.stdout.contains("Faults (identity"), "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "\(PlainMenu.question)").count == 4, "q went back to the menu: \(run.stdout)")
        #expect(run.status == 0)
    }

    /// The menu is listed once; after that it comes back as its one line that changes, the device, and Enter alone
    /// lists the choices again, as bash's `select` does (its 13 lines came back after every result, history visit
    /// and faults question, and Enter alone was refused). Every number still works.
    @Test func theMenuIsListedOnceAndEnterListsItAgain() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "3\n\nf\n\n\n3\n\nq\n")
        let line = "\nWhat would you like to do? (device: not activated; Enter lists the choices)\n\(PlainMenu.question) (q quits): "
        #expect(run.stdout.contains("Enter goes back (h history; q quits): \n" + line + "f\n"), "after a result: \(run.stdout)")
        #expect(run.stdout.contains("Enter goes back): \n" + line + "\n" + menuLines + "\(PlainMenu.question) (q quits): 3\n"),
                "after the faults, Enter listed the choices: \(run.stdout)")
        #expect(run.stdout.components(separatedBy: "  1 Activate device\n").count == 3, "listed at the start and on Enter: \(run.stdout)")
        #expect(run.stdout.components(separatedBy: "Nothing to log out").count == 3, "\(run.stdout)")
        #expect(!run.stdout.contains("! choose a number"), "\(run.stdout)")
        #expect(run.status == 0)
    }

    /// A fault with several values lists them, in the order its number moves to them, and each switch says the next
    /// (the list read `19  off  3DS: ACS answers normally`, and each entry moved it on to a value unsaid).
    @Test func aFaultWithSeveralValuesSaysThem() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "f\n19\n19\n\nq\n")
        #expect(run.stdout.contains("\n  19  off  3DS: ACS answers normally · next: unreachable, slow (+5 s), timing out, answering with an Erro message, "
            + "answering HTTP 500, answering a malformed message, then off\n"), "\(run.stdout)")
        #expect(run.stdout.contains("\nnow 3DS: ACS unreachable · next: slow (+5 s)\n"), "\(run.stdout)")
        #expect(run.stdout.contains("\nnow 3DS: ACS slow (+5 s) · next: timing out\n"), "\(run.stdout)")
        // A switch that is on or off says no more.
        #expect(run.stdout.contains("\n  1   off  network unavailable\n"), "\(run.stdout)")
        #expect(run.status == 0)
    }

    /// The KSSIDP comparison's other variants are run from its question, as the terminal UI's 1, 2 and 3 run them: `2`
    /// there was `(not an answer here)`.
    @Test func theComparisonRunsItsOtherVariants() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "\(PlainMenu.comparison)\n2\n3\n\nq\n")
        #expect(run.stdout.contains("\nCompare again: 1 guide, 2 as written, 3 wrong (docs/migration.md has them)\n"
            + "Enter goes back (1-3 compares again; h history; q quits): 2\n"), "\(run.stdout)")
        #expect(run.stdout.contains("Migration parity: IdpSdk orchestration (guide-as-written:"), "\(run.stdout)")
        #expect(run.stdout.contains("Migration parity: IdpSdk orchestration (enrollment-client-for-login:"), "\(run.stdout)")
        #expect(!run.stdout.contains("(not an answer here)"), "\(run.stdout)")
        #expect(run.status == 0)
    }
}
