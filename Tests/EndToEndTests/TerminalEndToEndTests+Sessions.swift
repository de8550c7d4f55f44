import Foundation
import Testing

// More of the suite (one serialised suite: its tests share two cores): plain mode chosen by itself, payments,
// scenarios, state, Q2, cancel, paste, help, suspend, wide characters, themes (signals: +Signals).
extension TerminalEndToEndTests {
    /// Answers piped in while the output is a terminal: plain mode by itself, not an error.
    @Test func answersPipedIntoTheTerminalUIArePlainMode() throws {
        let session = try TmuxSession(command: [
            "sh", "-c", "printf '10\\nq\\n' | \"$0\" --ephemeral; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _", TmuxSession.binary,
        ])
        #expect(session.waitFor("! choose a number from 1 to \(PlainMenu.count), f (faults), h (history), ? (help) or q"))
        #expect(session.waitForExit() == 0)
    }

    /// One Visa card per Cardinal test case, paid in the terminal: each result screen shows the case's values,
    /// its callback and the next step (the short timers of docs/scenarios/payments-qa.json keep case 8 short).
    @Test(arguments: [
        ("4000000000002701", false, ["Y · ECI 05", "onPayerAuthenticationFrictionless", "Authorise with the CAVV"]),
        ("4000000000002925", false, ["N · ECI 07", "onPayerAuthenticationUnavailable", "Do not authorise"]),
        ("4000000000002719", false, ["A · ECI 06", "onPayerAuthenticationFrictionless", "Authorise with the CAVV"]),
        ("4000000000002313", false, ["U · ECI 07", "onPayerAuthenticationUnavailable", "May authorise, without liability"]),
        ("4000000000002537", false, ["R · ECI 07", "onPayerAuthenticationUnavailable", "Do not authorise"]),
        ("4000000000002990", false, ["U authentication unavailable at lookup · ECI 07", "101 from the directory server", "May authorise"]),
        ("4000000000002446", false, ["U authentication unavailable at lookup · ECI 07", "101 from the directory server", "May authorise"]),
        ("4000000000002354", false, ["U authentication unavailable at lookup · ECI 07", "402 from the 3DS Server", "May authorise"]),
        ("4000000000002503", true, ["Y · ECI 05", "onPayerAuthenticationSuccess", "Authorise with the CAVV"]),
        ("4000000000002370", true, ["N · ECI 07", "onPayerAuthenticationFailure", "Do not authorise"]),
        ("4000000000002420", true, ["U · ECI 07", "onPayerAuthenticationFailure", "Run 3-D Secure again"]),
        ("4000000000002644", true, ["U · ECI 07", "403 from the ACS", "May authorise, without liability"]),
        ("4000000000002560", false, ["B authentication bypassed · ECI 07", "onPayerAuthenticationUnavailable", "May authorise"]),
    ])
    func everyCardinalCaseShowsItsValuesAndNextStep(card: String, challenge: Bool, expected: [String]) throws {
        let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/scenarios/payments-qa.json").path
        let session = try TmuxSession(arguments: ["--scenario", scenario])
        pay(session, card: card)
        if challenge {
            #expect(session.waitFor("Enter the one-time code"))
            session.type("1234")
            session.press("Enter")
        }
        let (done, screen) = session.waitUntil { screen in expected.allSatisfy { screen.contains($0) } }
        #expect(done, "\(card): \(screen)")
    }

    /// Cardinal's Test Case 7 (error on lookup): no ARes, the directory server's Erro, and what to do next.
    @Test func aLookupErrorShowsTheErroAndTheNextStep() throws {
        let session = try TmuxSession()
        pay(session, card: "5200000000002037")
        let (done, screen) = session.waitUntil { screen in
            ["not authenticated — AUTHENTICATION_UNAVAILABLE", "Enrolled", "U authentication unavailable at lookup · ECI 00",
             "Erro", "101 from the directory server: Message Received Invalid",
             "next step", "May authorise, without liability shift", "DS→Drops  Erro"].allSatisfy { screen.contains($0) }
        }
        #expect(done, "\(screen)")
    }

    @Test func escOnTheChallengeIsACancelNotAFailure() throws {
        let session = try TmuxSession()
        pay(session, card: "4000000000002503")
        #expect(session.waitFor("Enter the one-time code"))
        session.press("Escape")
        let (done, screen) = session.waitUntil { screen in
            ["⊘ Pay with card (3-D Secure) cancelled", "01 the cardholder selected Cancel"].allSatisfy { screen.contains($0) }
        }
        #expect(done, "\(screen)")
        #expect(screen.contains("01 the cardholder selected Cancel"))
        #expect(!screen.contains("failed"))
    }

    @Test func aScenarioFileSetsTheTenantUsersAndIdP() throws {
        let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/scenarios/bank-qa.json").path
        let session = try TmuxSession(arguments: ["--scenario", scenario])
        #expect(session.waitFor("tenant retail · idp.bank.example"))
        openActivation(session)
        session.type("carol")
        session.press("Tab")
        session.type("correct horse")
        session.press("Enter")
        #expect(session.waitFor("Activate device — step 2 of 2"))
        session.type("900100")
        session.press("Enter")
        #expect(session.waitUntil { $0.contains("✓ Device activated and logged in") && $0.contains("carol@retail") }.0)
    }

    @Test func aFaultSwitchedOnInThePanelAndTheHistoryOfFlows() throws {
        let session = try TmuxSession()
        #expect(session.waitFor("What would you like to do?"))
        session.press("F2")
        #expect(session.waitFor("Faults — space switches, esc closes"))
        session.press("Space")
        #expect(session.waitFor("[x] network unavailable"))
        session.press("Escape")
        // The panel closed (the status line says "⚡ 1 fault on" while it is open too, beside its notice).
        #expect(session.waitUntil { $0.contains("⚡ 1 fault on") && !$0.contains("Faults — space switches") }.0)
        session.press("Enter")
        let (failed, screen) = session.waitUntil { screen in ["failed — NOT_REACHABLE", "⚡ fault"].allSatisfy { screen.contains($0) } }
        #expect(failed, "\(screen)")
        #expect(screen.contains("⚡ fault"), "the log shows the fault")
        session.press("h")
        #expect(session.waitFor("History — 1 flow"))
        session.press("Enter")
        // The transcript: the result's error under its header, then the events; PgDn to the fault's.
        #expect(session.waitFor("error 511/4: the network is unavailable"))
        session.press("PageDown")
        // The transcript's row (inset: "│ ⚡"), not the live log's ("│⚡").
        let (paged, shown) = session.waitUntil { screen in
            screen.split(separator: "\n").contains { $0.contains("│ ⚡ fault") && $0.contains("FAULT network unavailable") }
        }
        #expect(paged, "\(shown)")
    }

    @Test func aDamagedStateFileEndsTheUIWithItsErrorAndTheTerminalBack() throws {
        let folder = NSTemporaryDirectory() + "idp-tui-damaged-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = folder + "/state.sqlite"
        try Data(repeating: 0x5a, count: 4096).write(to: URL(fileURLWithPath: state))
        let session = try TmuxSession(arguments: ["--state", state])
        let (exited, screen) = session.waitUntil { $0.contains(TmuxSession.exitMarker) }
        #expect(exited, "\(screen)")
        // The line wraps in the 80-column pane.
        let joined = screen.replacingOccurrences(of: "\n", with: "")
        #expect(joined.contains("idp-tui: the state file \(state) is damaged or not an idp-tui state file"), "\(screen)")
        #expect(screen.contains(TmuxSession.exitMarker + "2]"))
        #expect(session.format("#{alternate_on}") == "0", "the terminal left curses mode")
    }

    @Test func aQ2SignInAfterADeepLinkShowsTheBanner() throws {
        let session = try TmuxSession(arguments: ["--launch", "deep-link"])
        open(session, downs: 4)
        #expect(session.waitFor("⚠ Please sign in to continue"))
        #expect(session.waitFor("Q2 login — sign in"))
        session.type("alice")
        session.press("Tab")
        session.type("wonderland")
        #expect(session.waitFor("••••••••••"))
        session.press("Enter")
        let (done, screen) = session.waitUntil { $0.contains("✓ Signed in to Q2") && $0.contains("help") }
        #expect(done, "\(screen)")
        #expect(!screen.contains("wonderland"))
    }

    /// After a Q2 login the next one asks "Welcome back, alice — not you?" rather than signing in at once: another
    /// account gets the empty form (bob signs in), and the choice is in the log.
    @Test func aSavedQ2CredentialAsksBeforeSigningIn() throws {
        let session = try TmuxSession()
        open(session, downs: 4)
        #expect(session.waitFor("Q2 login — sign in"))
        session.type("alice")
        session.press("Tab")
        session.type("wonderland")
        session.press("Enter")
        #expect(session.waitFor("✓ Signed in to Q2"))
        session.press("Enter")
        open(session, downs: 0)
        #expect(session.waitFor("Welcome back, alice — not you?"))
        #expect(session.waitFor("▸ 1 Continue as alice (saved credential)"))
        session.press("2")
        #expect(session.waitFor("▸ 2 Use another account"))
        session.press("Enter")
        #expect(session.waitFor("No auto-login as alice: you chose another account"))
        // The app's answer at the sign-in screen, in the log.
        let (logged, form) = session.waitUntil { $0.split(separator: "\n").contains { $0.contains("sign-in screen") && $0.contains("another account") } }
        #expect(logged, "\(form)")
        session.type("bob")
        session.press("Tab")
        session.type("builder")
        session.press("Enter")
        let (done, screen) = session.waitUntil { $0.contains("✓ Signed in to Q2") && $0.contains("help") }
        #expect(done, "\(screen)")
        #expect(screen.split(separator: "\n").contains { $0.contains("│ user ") && $0.contains(" bob ") }, "\(screen)")
        #expect(!screen.contains("wonderland") && !screen.contains("builder"))
    }

    @Test func escAtTheFlowPromptCancels() throws {
        let session = try TmuxSession()
        activate(session)
        #expect(session.waitFor("Activate device — step 2 of 2"))
        session.press("Escape")
        // The result's headline, not "cancelled" alone: the log's "User cancelled" comes first, and matched while
        // the working screen was still up (a failure in the full suite under load).
        let (done, screen) = session.waitUntil { $0.contains("⊘ Activate device cancelled") && $0.contains("device: not activated") }
        #expect(done, "\(screen)")
        #expect(!screen.contains("failed"))
        #expect(!screen.contains("SetAuthorisationCode"))
    }

    @Test func aWrongPasswordShowsTheFailureScreen() throws {
        let session = try TmuxSession()
        activate(session, password: "not-the-password")
        let (done, screen) = session.waitUntil { screen in
            ["failed — WRONG_CREDENTIALS", "513/4011", "what to try"].allSatisfy { screen.contains($0) }
        }
        #expect(done, "\(screen)")
        #expect(screen.contains("513/4011"))
        #expect(screen.contains("what to try"))
    }

    @Test func theTypedPasswordIsNeverOnScreenNorInTheScrollbackAfterExit() throws {
        let session = try TmuxSession()
        openActivation(session)
        session.type("alice")
        session.press("Tab")
        session.type("wonderland")
        #expect(session.waitFor("••••••••••"))
        #expect(!session.screen().contains("wonderland"))
        session.press("Enter")
        #expect(session.waitFor("step 2 of 2"))
        session.type("123456")
        #expect(session.waitFor("••••••"))
        #expect(!session.screen().contains("123456"))
        session.press("Enter")
        #expect(session.waitFor("✓ Device activated"))
        session.press("Enter")
        #expect(session.waitFor("What would you like to do?"))
        session.press("q")
        #expect(session.waitForExit() == 0)
        let after = session.scrollback()
        #expect(!after.contains("wonderland"))
        #expect(!after.contains("123456"))
        #expect(session.format("#{alternate_on}") == "0")
    }

    @Test func aResizeKeepsTheTypedUsername() throws {
        let session = try TmuxSession()
        openActivation(session)
        session.type("alice")
        #expect(session.waitFor("[alice"))
        session.resize(width: 100, height: 30)
        // One capture must show both: a frame may be caught half drawn.
        let (wide, screen) = session.waitUntil { text in
            text.split(separator: "\n").first { $0.hasPrefix("┌─ Activate") }?.count == 100 && text.contains("[alice")
        }
        #expect(wide, "\(screen)")
        session.resize(width: 50, height: 12)
        #expect(session.waitFor("terminal too small (need 60×18"))
        session.resize(width: 80, height: 24)
        #expect(session.waitFor("[alice"))
    }

    @Test func pastedTextGoesIntoTheFieldOnceAndDoesNotSubmit() throws {
        let session = try TmuxSession()
        openActivation(session)
        session.paste("alice\n")
        let (pasted, screen) = session.waitUntil { $0.contains("[alice") && $0.contains("F1 help") }
        #expect(pasted)
        #expect(!screen.contains("alicealice"))
        #expect(screen.contains("step 1 of 2"), "the paste must not submit")
    }

    /// A paste of 200,000 two-byte characters (400 KB, read in blocks that split characters in two): the field
    /// keeps its limit's worth of whole characters, and the keys after it count at once (a paste was read a byte a
    /// system call, and 2 MB held every key, Ctrl-C included, for 13 s).
    @Test func aLargePasteOfTwoByteCharactersFillsTheFieldAndTheNextKeysCount() throws {
        let session = try TmuxSession()
        openActivation(session)
        // Too large for a tmux command: loaded from a file.
        let file = NSTemporaryDirectory() + "idp-tui-paste-\(UUID().uuidString)"
        try String(repeating: "é", count: 200_000).write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try session.tmux(["load-buffer", "-b", "big", file], capture: false)
        try session.tmux(["paste-buffer", "-p", "-b", "big", "-t", session.target], capture: false)
        #expect(session.waitFor("paste cut at"))
        session.press("Tab")
        session.type("zz")
        let (typed, screen) = session.waitUntil { $0.contains("[zz") || $0.contains("[••") }
        #expect(typed, "\(screen)")
        let field = screen.split(separator: "\n").first { $0.contains("Username") } ?? ""
        #expect(field.contains("éééé") && !field.contains("\u{FFFD}"), "\(field)")
    }

    @Test func helpOpensAndClosesWithTheSameKey() throws {
        let session = try TmuxSession()
        #expect(session.waitFor("What would you like to do?"))
        session.type("?")
        #expect(session.waitFor("Keys — ? or F1 closes"))
        session.type("?")
        let (closed, _) = session.waitUntil { !$0.contains("Keys — ? or F1 closes") }
        #expect(closed)
    }

    /// idp-tui started from an interactive bash, as a job the shell can stop and bring back.
    func startInAShell() throws -> TmuxSession {
        let shell = try TmuxSession(command: ["bash", "--norc", "--noprofile", "-i"], environment: ["PS1": "shell$ "])
        #expect(shell.waitFor("shell$"))
        shell.type("\(TmuxSession.binary)")
        shell.press("Enter")
        #expect(shell.waitFor("What would you like to do?"))
        return shell
    }

    @Test func ctrlZSuspendsAndFgRedraws() throws {
        let shell = try startInAShell()
        shell.press("C-z")
        #expect(shell.waitFor("Stopped"))
        #expect(shell.format("#{alternate_on}") == "0")
        shell.type("fg")
        shell.press("Enter")
        #expect(shell.waitFor("What would you like to do?"))
        #expect(shell.waitFor("device: not activated"))
        shell.press("q")
        #expect(shell.waitUntil { $0.filter { $0 == "$" }.count >= 3 }.0)
    }

    /// A SIGTSTP from outside (a job-control tool, `kill -TSTP`) turns mouse reporting and bracketed paste off in
    /// the shell the job stops back to, as Ctrl-Z does; they stayed on (a click in the shell typed "\e[<0;…M").
    @Test func aStopSignalFromOutsideLeavesTheShellWithoutMouseReporting() throws {
        let shell = try startInAShell()
        #expect(shell.format("#{mouse_any_flag}") == "1")
        let pid = shell.binaryPID()
        #expect(!pid.isEmpty)
        _ = try Spawn.run(["kill", "-TSTP", pid], capture: false)
        #expect(shell.waitFor("Stopped"))
        #expect(shell.format("#{alternate_on}") == "0")
        #expect(shell.format("#{mouse_any_flag}") == "0" && shell.format("#{mouse_sgr_flag}") == "0")
        shell.type("fg")
        shell.press("Enter")
        #expect(shell.waitFor("What would you like to do?"))
        let (back, _) = shell.waitUntil { _ in shell.format("#{mouse_any_flag}") == "1" }
        #expect(back, "mouse reporting is on again after fg")
        shell.press("q")
        #expect(shell.waitUntil { $0.filter { $0 == "$" }.count >= 3 }.0)
    }

    @Test func aFatalErrorStillRestoresTheTerminal() throws {
        // Without a prompt from the Swift backtracer, which would otherwise wait for a key on the terminal.
        let session = try TmuxSession(
            environment: ["IDP_TUI_FAULT": "crash-after-first-frame", "SWIFT_BACKTRACE": "interactive=no"])
        let status = session.waitForExit()
        #expect(status.map { $0 > 128 } == true, "died of a signal, got \(String(describing: status))")
        #expect(session.format("#{alternate_on}") == "0")
        #expect(session.format("#{cursor_flag}") == "1")
        #expect(session.scrollback().contains("Program crashed"), "the crash report reaches the normal screen")
    }

    @Test func wideCharactersAreTypedAndShownWhole() throws {
        let session = try TmuxSession()
        openActivation(session)
        session.type("日本語")
        let (shown, screen) = session.waitUntil { $0.contains("[日本語") && $0.contains("F1 help") }
        #expect(shown, "\(screen)")
        session.press("BSpace")
        #expect(session.waitUntil { $0.contains("[日本 ") || $0.contains("[日本]") }.0)
    }

    @Test func monochromeThemeAndNoColorStart() throws {
        let session = try TmuxSession(environment: ["NO_COLOR": "1"])
        #expect(session.waitFor("What would you like to do?"))
        session.press("q")
        #expect(session.waitForExit() == 0)
    }
}
