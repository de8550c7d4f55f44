import Foundation
import Testing

/// The plain front end, as a script or a screen reader's user meets it: standard output is not a terminal, so
/// `idp-tui` speaks line by line.
@Suite struct PlainModeTests {
    @Test func withoutATerminalTheUIIsPlainAndActivatesLogsInAndPays() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "1\nalice\nwonderland\n123456\n\n2\nalice\nwonderland\n\n4\n4000000000002503\n1230\n\n\n\n9876\n1234\n\nq\n")
        #expect(run.status == 0, "\(run.stderr)")
        for text in ["What would you like to do?", "\(PlainMenu.question) (q quits): ", "Activate device — step 1 of 2", "Password (hidden; ? fills in alice's password): ",
                     "✓ Device activated and logged in", "✓ Logged in", "3 attempts left · 3 resends left",
                     "wrong code; 2 attempts left · 3 resends left",
                     "✓ Payment authenticated after a challenge", "next step: Authorise with the CAVV"] {
            #expect(run.stdout.contains(text), "no \(text)")
        }
        // Events are printed as they happen, one line each, with no cursor addressing or box drawing.
        #expect(run.stdout.contains("→ MC-SDK  Start"))
        #expect(!run.stdout.contains("\u{1b}[") && !run.stdout.contains("┌"))
        // Long step names whole: a line has no width to keep to.
        #expect(run.stdout.contains(" safepay-inframe__messages-processed "))
        #expect(!run.stdout.contains("safepay-inframe__messages-p…"))
        for secret in ["wonderland", "123456", "9876"] { #expect(!run.stdout.contains(secret), "\(secret) was printed") }
        // The IdpSdk's event lines line up: the thread starts in one column on every line (each step was padded
        // to its own width: "Start    idp-tui.flow", "getAuthorizationCode idp-tui.flow").
        let idp = run.stdout.split(separator: "\n").map(Array.init).filter { line in
            ["  → MC-SDK", "  ← MC-SDK", "  → IdpSdk", "  ← IdpSdk", "  ⇢ IdP", "  ⇠ IdP"].contains { line.starts(with: Array($0)) }
        }
        let threads = idp.map { String($0[33...].prefix { $0 != " " }) }
        #expect(idp.count > 20 && idp.allSatisfy { $0[32] == " " }, "\(idp.map { String($0) })")
        #expect(Set(threads).isSubset(of: ["idp-tui.flow", "MC-SDK", "IdpSdk"]), "\(threads)")
    }

    /// The second payment of a session offers the first one's card, masked; Enter keeps it.
    @Test func theNextPaymentOffersTheLastCardMasked() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "4\n4000000000002701\n12/30\n\n\n\n\n4\n\n\n\n\n\n\nq\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("The last card used is filled in: Enter keeps it, another number replaces it.\nCard number [•••• 2701]: \nExpiry (MM/YY) [12/30]: "),
                "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "✓ Payment authenticated without a challenge").count == 3, "paid twice: \(run.stdout)")
        #expect(!run.stdout.contains("0000 2701") && !run.stdout.contains("0002701"), "the whole number was printed")
    }

    /// A scenario's own one-time code is its secret: the code screen says where it is set, never what it is (it
    /// said "1234", the published test value, which that scenario's ACS refuses); the default still names 1234.
    @Test func aScenariosOwnCodeIsNotShownAndNot1234() throws {
        let input = "4\n4000000000002503\n12/30\n\n\n\n777777\n\nq\n"
        let run = try BinaryRun.run(["--ephemeral", "--scenario", scenarioPath("bank-qa")], stdin: input)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\n(the scenario's own code (its challenge.oneTimeCode))\n"), "\(run.stdout)")
        #expect(run.stdout.contains("(Visa 4000 0000 0000 2503 asks for a code)\n"))
        #expect(!run.stdout.contains("1234") && !run.stdout.contains("777777"))
        #expect(run.stdout.contains("✓ Payment authenticated after a challenge"))
        let demo = try BinaryRun.run(["--ephemeral"], stdin: input.replacingOccurrences(of: "777777", with: "1234"))
        #expect(demo.stdout.contains("\n(the simulated issuer's code is 1234)\n") && demo.stdout.contains("asks for a code, 1234)"), "\(demo.stdout)")
    }

    /// Under a locale that is not UTF-8 (`LC_ALL=C`, or none set) every symbol is spelled in ASCII; under a UTF-8
    /// one (or one named UTF-8 that is not installed here) they are the symbols.
    @Test func aLocaleThatIsNotUTF8GetsASCII() throws {
        let input = "1\nalice\nwrongpass\n123456\n\n4\n4000000000002701\n12/30\n\n\n\n\n5\nalice\nwonderland\n\nq\n"
        let faults = "1\nalice\nwonderland\n123456\n\nq\n"
        for environment in [["LC_ALL": "C"], ["LC_ALL": "POSIX"], ["LANG": ""], ["LANG": "C.UTF-8", "LC_CTYPE": "C"],
                            ["LC_ALL": "xx_XX.ISO-8859-1"]] {
            let run = try BinaryRun.run(["--ephemeral"], stdin: input, environment: environment)
            #expect(run.status == 1, "\(environment): \(run.stderr)")
            let other = run.stdout.unicodeScalars.filter { !$0.isASCII }
            #expect(other.isEmpty, "\(environment): \(String(String.UnicodeScalarView(other)))")
            for text in ["idp-tui (plain) - tenant demo", "Events, seen from the app: -> sent to, <- received from, ~> <~ SDK-IdP, ! fault",
                         // The columns named once, over the event lines (the thread column read as a destination).
                         "\n(A->B: between two others; * within one; thread: where the event ran)\n  who        step                 thread       status - took - detail\n",
                         "\n  -> MC-SDK  Start                idp-tui.flow StartEvent\n", "\n  <- MC-SDK  Start                MC-SDK       OK ",
                         "\n  ~> IdP     POST /authorize      IdpSdk       ", "\n  <~ IdP     POST /authorize      IdpSdk       400 ", "Activate device -- step 1 of 2",
                         "working... (Esc or Ctrl-D cancels)", "\nx Activate device failed -- WRONG_CREDENTIALS\n", "Card number: **** 2701",
                         "\nok Payment authenticated without a challenge\n", "\n  Q2 SDK->Q2 Core "] {
                #expect(run.stdout.contains(text), "\(environment): no \(text)")
            }
            let fault = try BinaryRun.run(["--ephemeral", "--scenario", scenarioPath("faults")], stdin: faults, environment: environment)
            #expect(fault.stdout.contains("\n  simulator  faults on            idp-tui.flow added latency +800 ms, server error\n"),
                    "\(environment): \(fault.stdout)")
        }
        for environment in [["LC_ALL": "C.UTF-8"], ["LANG": "C.UTF-8"], ["LC_ALL": "xx_XX.UTF-8"]] {
            let run = try BinaryRun.run(["--ephemeral"], stdin: input, environment: environment)
            for text in ["Events, seen from the app: → sent to · ← received from · ⇢ ⇠ SDK–IdP · ⚡ fault", "\n  → MC-SDK  Start                idp-tui.flow",
                         "\n  ⇢ IdP     POST /authorize", "\n✗ Activate device failed — WRONG_CREDENTIALS\n", "Card number: •••• 2701",
                         "\n✓ Payment authenticated without a challenge\n"] {
                #expect(run.stdout.contains(text), "\(environment): no \(text)")
            }
        }
    }

    @Test func q2EventsNameBothPartiesWhole() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "5\nalice\nwonderland\n\nq\n")
        #expect(run.stdout.contains("Q2 SDK→Q2 Core "), "\(run.stdout)")
        #expect(!run.stdout.contains("Q2 SDK→Q…"))
    }

    /// A second Q2 login asks what to do with the saved credential, as a numbered question: Enter continues with it,
    /// 2 another account (an empty form), 3 forgets it; the answers are in the log, the passwords nowhere.
    @Test func aSavedQ2CredentialIsANumberedChoice() throws {
        let input = "5\nalice\nwonderland\n\n5\n\n\n5\n2\nbob\nbuilder\n\n5\nx\n3\nalice\nnope\n\nq\n"
        let run = try BinaryRun.run(["--ephemeral"], stdin: input)
        for text in ["Welcome back, alice — not you?\n  1 Continue as alice (saved credential)\n  2 Use another account\n"
                        + "  3 Forget alice's saved credential\nChoose 1-3 (Enter: 1): \n",
                     "✓ Signed in to Q2 with the saved credential",
                     "No auto-login as alice: you chose another account (the saved credential is kept).\nUsername (? lists demo users): bob\n",
                     " another account ", "Welcome back, bob — not you?",
                     "Choose 1-3 (Enter: 1): (not an answer here)\n! give a number from 1 to 3 (Enter: 1, continue as bob)\nChoose 1-3 (Enter: 1): 3\n",
                     " credential forgotten ", "bob's saved credential is forgotten: sign in with a username and password.\nUsername (? lists demo users): alice\n",
                     "failed — INVALID_CREDENTIALS"] {
            #expect(run.stdout.contains(text), "no \(text): \(run.stdout)")
        }
        for secret in ["wonderland", "builder", "nope"] { #expect(!run.stdout.contains(secret), "\(secret) was printed") }
    }

    /// `--launch deep-link`: the banner the platform sets is said over the sign-in form, first as on the saved
    /// credential's choice, as the terminal UI shows it over both; not only in the event's detail.
    @Test func aDeepLinksBannerIsSaidOverTheSignInForm() throws {
        let run = try BinaryRun.run(["--ephemeral", "--launch", "deep-link"], stdin: "5\nalice\nwonderland\n\n5\n2\nbob\nbuilder\n\nq\n")
        for text in ["Q2 login — sign in\n⚠ Please sign in to continue\nUsername (? lists demo users): alice\n",
                     "Q2 login — sign in\n⚠ Please sign in to continue\nWelcome back, alice — not you?\n",
                     "Q2 login — sign in\n⚠ Please sign in to continue\nNo auto-login as alice: you chose another account"] {
            #expect(run.stdout.contains(text), "no \(text): \(run.stdout)")
        }
    }

    @Test func escOnALineCancelsTheFlowAndTheEndOfInputQuits() throws {
        let run = try BinaryRun.run(["--plain", "--ephemeral"], stdin: "1\nalice\n\u{1b}\n")
        #expect(run.status == 3, "piped in, a cancelled flow gives run's exit status")
        #expect(run.stdout.contains("⊘ Activate device cancelled"))
        #expect(run.stdout.contains("User cancelled"))
    }

    @Test func theEndOfInputAtAPromptCancels() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "4\n4000000000002503\n")
        #expect(run.stdout.contains("⊘ Pay with card (3-D Secure) cancelled"))
        #expect(run.status == 3)
    }

    @Test func aQuestionMarkAtTheCardNumberListsTheTestCards() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "4\n?\n4000000000002701\n12/30\n\n\n\n\nq\n")
        #expect(run.stdout.contains("Test cards: ? lists them"))
        #expect(run.stdout.contains("Card number: ?\nTest cards (type a number"))
        #expect(run.stdout.contains("\n  4000 0000 0000 2503  Visa              Test Case 9   challenge → Y          Successful step-up"),
                "a challenge card, its case named: \(run.stdout)")
        #expect(run.stdout.components(separatedBy: "\n  ").filter { $0.hasPrefix("4000 0000 0000") }.count >= 13)
        #expect(run.stdout.components(separatedBy: "Card number: ").count - 1 >= 2, "asked again after the list")
        #expect(run.stdout.contains("✓ Payment authenticated without a challenge"))
        #expect(run.status == 0)
    }

    /// `? TEXT` lists only the test cards whose number, case, brand, outcome or name contains TEXT (any case), as
    /// typing in the terminal UI's picker does.
    @Test func aQuestionMarkWithTextListsTheMatchingTestCards() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "4\n? test case 9\n? zzz\n\u{1b}\n\nq\n")
        let listing = try #require(run.stdout.components(separatedBy: "Card number: ? test case 9\n").dropFirst().first)
        let cards = listing.components(separatedBy: "Card number: ").first?.split(separator: "\n").filter { $0.hasPrefix("  4") } ?? []
        #expect(!cards.isEmpty && cards.allSatisfy { $0.contains("Test Case 9 ") }, "\(listing)")
        #expect(cards.contains { $0.contains("4000 0000 0000 2503") })
        #expect(run.stdout.contains("Card number: ? zzz\nNo test card matches \"zzz\"; ? lists them all."), "\(run.stdout)")
    }

    /// The test cards' columns line up, in UTF-8 (`→`, one column) and in ASCII (`->`, two): each starts at the
    /// same column on every line, the heading's too.
    @Test func theTestCardsAreListedInAlignedColumns() throws {
        for environment in [["LANG": "C.UTF-8"], ["LC_ALL": "C"]] {
            let run = try BinaryRun.run(["--ephemeral"], stdin: "4\n?\n\u{1b}\n\nq\n", environment: environment)
            let listing = try #require(run.stdout.components(separatedBy: "Test cards (type a number").dropFirst().first)
            let lines = listing.split(separator: "\n").dropFirst().prefix { $0.hasPrefix("  ") }
            #expect(lines.first?.hasPrefix("  number               brand             case          outcome") == true, "\(environment)")
            #expect(lines.count > 50, "\(environment): \(listing)")
            // Cells are separated by two spaces or more, and hold single spaces only: where each one starts.
            let starts = Set(lines.map { line in
                let characters = Array(line)
                return characters.indices.filter { $0 >= 2 && characters[$0] != " " && characters[$0 - 1] == " " && characters[$0 - 2] == " " }
            })
            #expect(starts.count == 1, "\(environment): columns start at \(starts)")
            #expect(starts.first?.count == 5, "\(environment): number, brand, case, outcome and name")
            if environment["LC_ALL"] == "C" {
                #expect(lines.contains("  4000 0000 0000 2644  Visa              Test Case 12  challenge -> U (error)  Error on authentication"))
            }
        }
    }

    /// `?` at the user name or the activation code lists the demo users by number (F4 of the terminal UI); the one
    /// chosen fills the form, its password and activation code straight into the fields, so that no output of
    /// the session holds a secret of any demo user.
    /// A demo user is chosen by name too (a tester typed "alice" and was refused); a line that is no name is not said
    /// back (it may be a password meant for the next question).
    @Test func aDemoUserIsChosenByName() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "1\n?\nWr0ngPl4ce\nbob\n\n\nq\n")
        #expect(run.stdout.contains("Demo user (1-2 or a name; Enter for none): (not an answer here)\n"), "\(run.stdout)")
        #expect(run.stdout.contains("Demo user (1-2 or a name; Enter for none): bob\nFilled in demo user bob: username, password (not shown)."),
                "\(run.stdout)")
        #expect(!run.stdout.contains("Wr0ngPl4ce"))
    }

    @Test func aQuestionMarkFillsInADemoUserWithoutShowingItsSecrets() throws {
        let input = "1\n?\n9\n1\n\n?\n\n\n2\n?\n\n?\n1\n\n\nq\n"
        for environment in [["LANG": "C.UTF-8"], ["LC_ALL": "C"]] {
            let run = try BinaryRun.run(["--ephemeral"], stdin: input, environment: environment)
            #expect(run.status == 0, "\(environment): \(run.stderr)")
            // The heading fits 80 columns (it took 92): a screen reader's line, a terminal's row.
            let listing = "Demo users of tenant demo, by number (no password or code is shown):\n  1  alice\n  2  bob\n"
            for text in ["Username (? lists demo users): ?\n" + listing, "! choose a demo user from 1 to 2, or by name, or Enter for none\n",
                         "Demo user (1-2 or a name; Enter for none): 1\nFilled in demo user alice: username, password (not shown).\nSubmit? (Enter; Esc cancels) \n",
                         // The second page's `?` fills the code of the user of the first, as F4 does.
                         "Activation code (hidden; ? fills in alice's code): \nFilled in demo user alice: activation code (not shown).\nSubmit?",
                         // The login form offers the device's user; `?` still lists the demo users.
                         "Demo user (1-2 or a name; Enter for none): \nUsername (? lists demo users) [alice]: ?\n", "Logged in\n  user: alice@demo"] {
                #expect(run.stdout.contains(text), "\(environment): no \(text)\n\(run.stdout)")
            }
            #expect(run.stdout.contains("✓ Device activated and logged in") || run.stdout.contains("ok Device activated and logged in"))
            #expect(!run.stdout.contains("Password (hidden"), "the password was filled in, not asked for")
            for secret in Answers.secrets {
                #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret), "\(environment): \(secret) was printed")
            }
        }
    }

    /// After `?` fills a form, a script's next line (often the code it would have typed) falls on Submit: it is
    /// neither shown nor taken as Enter. Any line but Enter is refused there, `n` included; so are a repeated
    /// option number and a line at an HTML challenge's "Enter tells the ACS".
    @Test func aQuestionThatTakesEnterRefusesAnyOtherLineUnseen() throws {
        let filled = try BinaryRun.run(["--ephemeral"], stdin: "1\n?\n1\n\n?\n1\n123456\nn\n\nq\n")
        #expect(filled.status == 0, "\(filled.stderr)")
        let refused = "Submit? (Enter; Esc cancels) (not an answer here)\n! Enter submits; Esc cancels\n"
        #expect(filled.stdout.contains(refused + refused + "Submit? (Enter; Esc cancels) \n"), "\(filled.stdout)")
        #expect(filled.stdout.contains("✓ Device activated and logged in"))
        for secret in Answers.secrets { #expect(!filled.stdout.contains(secret) && !filled.stderr.contains(secret), "\(secret) was printed") }

        // `n` at Submit and then the end of input: the flow is cancelled, not submitted.
        let declined = try BinaryRun.run(["--ephemeral"], stdin: "1\n?\n1\nn\n")
        #expect(declined.status == 3, "\(declined.stdout)")
        #expect(declined.stdout.contains(refused) && !declined.stdout.contains("Activate device — step 2"), "\(declined.stdout)")

        let options = try BinaryRun.run(["--ephemeral"], stdin: "4\n4000009900000020\n12/30\n\n\n\n1,1\n\u{1b}\n\nq\n")
        #expect(options.stdout.contains("Choose all that apply (e.g. 1,3): 1,1\n! give option numbers from 1 to 4, each once\n"), "\(options.stdout)")
        #expect(options.stdout.contains("⊘ Pay with card (3-D Secure) cancelled") && !options.stdout.contains("1 attempt"), "\(options.stdout)")

        let html = try BinaryRun.run(["--ephemeral"], stdin: "4\n4000009900000046\n12/30\n\n\n\nn\n\u{1b}\n\nq\n")
        #expect(html.stdout.contains("Not shown here; Enter tells the ACS (U, challengeCancel 06): (not an answer here)\n! Enter tells the ACS this device cannot show it; Esc cancels\n"), "\(html.stdout)")
        #expect(html.stdout.contains("⊘ Pay with card (3-D Secure) cancelled"), "\(html.stdout)")
    }

    /// A scenario file whose demo tenant has 30 users, `PREFIX01` … `PREFIX30` (passwords `pw01` …, codes `100001` …).
    static func thirtyUsers(named prefix: String, in folderName: String) throws -> String {
        let folder = scratchPath(folderName)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let users = (1...30).map { String(format: #"{"username": "%@%02d", "password": "pw%02d", "activationCode": "1000%02d"}"#, prefix, $0, $0, $0) }
        let path = folder + "/thirty.json"
        try Data(#"{"scenario": 1, "identityProvider": {"tenants": [{"id": "demo", "users": [\#(users.joined(separator: ", "))]}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A tenant of many users: `?` lists the first 20 and says how to find the others; `? ` and part of a name lists
    /// those whose name holds it, each by its number in the whole list.
    @Test func aLongListOfDemoUsersIsFoundByPartOfAName() throws {
        let path = try Self.thirtyUsers(named: "u", in: "idp-tui-plain-users")
        let run = try BinaryRun.run(["--ephemeral", "--scenario", path], stdin: "1\n?\n\n? U2\n25\n\n? 25\n25\n\nq\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  20  u20\n  … 10 more: type ? and part of a name to list fewer (? u2)\n"), "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "… 10 more").first?.contains("u21") == false, "20 at most at first")
        #expect(run.stdout.contains(#"Demo users of tenant demo whose name holds "U2", by number:"# + "\n  20  u20\n  21  u21\n"), "\(run.stdout)")
        #expect(run.stdout.contains("Demo user (1-30 or a name; Enter for none): 25\nFilled in demo user u25: username, password (not shown)."), "\(run.stdout)")
        #expect(run.stdout.contains("Activated and logged in") || run.stdout.contains("Device activated and logged in"), "\(run.stdout)")
        #expect(run.stdout.contains("user: u25@demo"), "\(run.stdout)")
        #expect(!run.stdout.contains("pw25") && !run.stdout.contains("100025"))
    }

    /// Names that share their start (`user01` … `user30`): the hint names what lists the first one not shown, with
    /// 20 names at most (`? user2`), not a start every name holds (`? user` listed the same 30).
    @Test func theHintForMoreDemoUsersListsFewer() throws {
        let path = try Self.thirtyUsers(named: "user", in: "idp-tui-plain-users-hint")
        let run = try BinaryRun.run(["--ephemeral", "--scenario", path], stdin: "1\n?\n\n? user2\n25\n\nq\n")
        #expect(run.stdout.contains("  20  user20\n  … 10 more: type ? and part of a name to list fewer (? user2)\n"), "\(run.stdout)")
        #expect(run.stdout.contains(#"whose name holds "user2", by number:"# + "\n  20  user20\n"), "\(run.stdout)")
        #expect(run.stdout.contains("  29  user29\n  30  user30\n") == false, "user30 does not hold user2")
        #expect(run.stdout.components(separatedBy: "… 10 more").count == 2, "the filtered list has no more: \(run.stdout)")
    }

    /// A first page typed by hand: the second page's `?` fills in that user's code, not a list of every user's.
    @Test func theSecondPagesQuestionMarkFillsTheCodeOfTheUserTyped() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "1\nbob\nbuilder\n?\n\nq\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Activation code (hidden; ? fills in bob's code): \nFilled in demo user bob: activation code (not shown).\n"), "\(run.stdout)")
        #expect(run.stdout.contains("user: bob@demo"), "\(run.stdout)")
        for secret in Answers.secrets { #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret), "\(secret) was printed") }
    }

    /// The hint's `? user2` is taken where the hint is printed, at "Demo user", as well as at the user name.
    @Test func theHintForMoreDemoUsersIsTakenWhereItIsGiven() throws {
        let path = try Self.thirtyUsers(named: "user", in: "idp-tui-plain-users-hint-here")
        let run = try BinaryRun.run(["--ephemeral", "--scenario", path], stdin: "1\n?\n? user2\n25\n\nq\n")
        #expect(run.stdout.contains("(? user2)\nDemo user (1-30 or a name; Enter for none): ? user2\n"), "\(run.stdout)")
        #expect(run.stdout.contains(#"whose name holds "user2", by number:"# + "\n  20  user20\n"), "\(run.stdout)")
        #expect(run.stdout.contains("Demo user (1-30 or a name; Enter for none): 25\nFilled in demo user user25: username, password (not shown)."), "\(run.stdout)")
        #expect(!run.stdout.contains("! choose a demo user"), "\(run.stdout)")
    }

    @Test func eventsKeepComingAfterTheLogsLimitAndCardsAreMasked() throws {
        // 250 cancelled activations make about 2,500 events: more than the 2,000 the app keeps.
        let input = String(repeating: "1\nalice\n\u{1b}\n\n", count: 250) + "4\n4000000000002701\n12/30\n\n\n\n\nq\n"
        let run = try BinaryRun.run(["--ephemeral"], stdin: input)
        #expect(run.status == 3, "250 cancelled flows and a payment")
        #expect(run.stdout.components(separatedBy: "→ MC-SDK  Start").count - 1 == 250, "every flow's events are printed")
        #expect(run.stdout.contains("✓ Payment authenticated without a challenge"))
        #expect(run.stdout.contains("Card number: •••• 2701"))
        #expect(!run.stdout.contains("4000000000002701") && !run.stdout.contains("4000 0000 0000 2701"))
    }

    /// Piped in, the session's exit status is `run`'s: a script can tell that a flow failed. The answers meant for
    /// the failed flow fall on later questions, and a question that takes a choice does not print them.
    @Test func aFailedFlowSetsTheExitStatusAndMisplacedAnswersAreNotPrinted() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "1\nalice\nwrongpass\n123456\n")
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stdout.contains("✗ Activate device failed"))
        #expect(run.stdout.contains("Enter goes back (h history; q quits): (not an answer here)"))
        for secret in ["wrongpass", "123456"] { #expect(!run.stdout.contains(secret), "\(secret) was printed") }
        #expect(try BinaryRun.run(["--ephemeral"], stdin: "1\nalice\nwonderland\n123456\n\nq\n").status == 0)
    }

    /// Arrow keys typed into a line (a terminal's line editing cannot move the cursor) are not a cancel: the line
    /// is refused, saying why, and piped, the refusal ends the session (2, not a cancel's 3).
    @Test func arrowKeysInALineAreRefusedRatherThanACancel() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "1\nalce\u{1b}[D\u{1b}[D\u{1b}[Di\nalice\n\u{1b}\n\nq\n")
        #expect(run.stdout.contains("! arrow and editing keys do not move the cursor here"), "\(run.stdout)")
        #expect(!run.stdout.contains("⊘ Activate device cancelled"), "\(run.stdout)")
        #expect(run.status == 2, "\(run.stderr)")
    }

    /// At a result only Enter goes back (and q quits): any other line went back too, silently.
    @Test func aResultTakesOnlyEnterOrQ() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "3\nxyz\n\nq\n")
        #expect(run.stdout.contains("Enter goes back (h history; q quits): (not an answer here)\n! Enter goes back; h shows the history; q quits\nEnter goes back (h history; q quits): "),
                "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "What would you like to do?").count - 1 == 2, "\(run.stdout)")
        #expect(run.status == 0)
    }

    /// The KSSIDP comparison is printed whole, one side under the other in lines an 80-column terminal keeps whole
    /// (side by side, 94 columns wide, they wrapped mid-word and a screen reader read them mixed), its heading
    /// once; and the menu says the device's state.
    @Test func theComparisonIsPrintedAndTheMenuSaysTheDevice() throws {
        let run = try BinaryRun.run(["--ephemeral"], stdin: "\(PlainMenu.comparison)\n\nq\n")
        #expect(run.stdout.contains("What would you like to do? (device: not activated)"))
        #expect(run.stdout.components(separatedBy: "\nKSSIDP comparison\n").count - 1 == 1, "\(run.stdout)")
        #expect(!run.stdout.contains("this screen is the terminal UI's"), "\(run.stdout)")
        #expect(run.stdout.contains(
            "Migration parity: IdpSdk orchestration (guide: the guide's steps,\n  SetAuthorisationCode sent only with a code) against the KSSIDP wrapper"),
            "\(run.stdout)")
        #expect(run.stdout.contains("  ✓ login against legacy-login: agrees\n    IdpSdk: success OK; SetAuthorisationCode OK"), "\(run.stdout)")
        #expect(run.stdout.contains("    KSSIDP: success OK; SetAuthorisationCode OK"), "\(run.stdout)")
        // A wrapped line's rest two more in, and the calls labelled: both went on flush with the next item.
        #expect(run.stdout.contains("    IdpSdk: failure WRONG_CREDENTIALS; SetAuthorisationCode not sent; error\n      513/4011; not activated;"),
                "\(run.stdout)")
        // Where each side asks for credentials: the IdpSdk's provideCredentials per page of the form, a KSSIDP app's own
        // form before its call to the wrapper (the sequences showed neither).
        #expect(run.stdout.contains("\n      steps: Start → GetAstClientData → GET /authorize → provideCredentials\n        → POST /authorize\n"),
                "\(run.stdout)")
        #expect(run.stdout.contains("\n      steps: Start → credential form → KssIdpWrapper.activate\n"), "\(run.stdout)")
        // A message sequence breaks between messages, never inside one ("→ POST" / "/authorize").
        #expect(!run.stdout.contains("→ POST\n") && !run.stdout.contains("→ GET\n"), "\(run.stdout)")
        let report = run.stdout.components(separatedBy: "Migration parity").last ?? ""
        #expect(report.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(report)")
        #expect(run.status == 0)
    }
}
