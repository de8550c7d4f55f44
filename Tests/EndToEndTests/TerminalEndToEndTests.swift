import Foundation
import Testing

/// The real binary in tmux. Serialised: each test has its own tmux server, but they share two cores.
@Suite(.serialized) struct TerminalEndToEndTests {
    /// Home → the given menu entry (by the number of Down presses) → its first prompt.
    func open(_ session: TmuxSession, downs: Int) {
        #expect(session.waitFor("What would you like to do?"))
        for _ in 0..<downs { session.press("Down") }
        session.press("Enter")
    }

    /// Home → Pay with card: fills the card form with `card` (expiry 12/30) and submits it.
    func pay(_ session: TmuxSession, card: String) {
        open(session, downs: 3)
        #expect(session.waitFor("card details"))
        session.type(card)
        session.press("Tab")
        session.type("12/30")
        session.press("Enter", "Enter", "Enter", "Enter")
    }

    /// Home → Activate device, and wait for its first form page.
    func openActivation(_ session: TmuxSession) {
        open(session, downs: 0)
        #expect(session.waitFor("Activate device — step 1 of 2"))
    }

    func activate(_ session: TmuxSession, password: String = "wonderland") {
        openActivation(session)
        session.type("alice")
        session.press("Tab")
        session.type(password)
        session.press("Enter")
    }

    @Test func activationThenLoginWithTheDemoUser() throws {
        let session = try TmuxSession()
        activate(session)
        #expect(session.waitFor("Activate device — step 2 of 2"))
        session.type("123456")
        session.press("Enter")
        #expect(session.waitUntil { $0.contains("✓ Device activated and logged in") && $0.contains("device: logged in as alice") }.0)
        session.press("Enter")
        open(session, downs: 1)
        #expect(session.waitFor("The IdpSdk asks for username, password (client KssIdpLogin)"))
        #expect(session.waitFor("IdpSdk       inputFieldIds=username,password"), "provideCredentials shows the IdpSdk thread")
        // The device's user is filled in (the user list of the MC-SDK's Start names it); the password has the focus.
        #expect(session.waitFor("Username   [alice "), "the login form starts with the activated user")
        session.type("wonderland")
        session.press("Enter")
        // Wait for every text the test checks, in one capture: tmux can show a frame half drawn, and curses
        // redraws only what changed, so a line that stays from the frame before (the help bar) proves nothing.
        // The result and the flow's events can come in one frame (events reach the UI within 5 ms, or with the
        // result), so the log is part of the wait.
        let (done, screen) = session.waitUntil { screen in
            ["✓ Logged in", "help", "⇠ IdP", "astClientId"].allSatisfy { screen.contains($0) }
        }
        #expect(done, "\(screen)")
        #expect(screen.contains("astClientId"))
        #expect(screen.contains("⇠ IdP"), "the IdP's answers are in the log")
    }

    @Test func aCardPaymentWithAOneTimeCodeChallenge() throws {
        let session = try TmuxSession()
        open(session, downs: 3)
        #expect(session.waitFor("Pay with card (3-D Secure) — card details"))
        session.type("4000 0000 0000 2503")
        #expect(session.waitFor("Visa · Luhn ✓"))
        session.press("Tab")
        session.type("12/30")
        session.press("Enter", "Enter", "Enter", "Enter")
        #expect(session.waitFor("Enter the one-time code we sent to your phone"))
        #expect(session.waitFor("3 attempts left · 3 resends left"))
        session.type("9876")
        // The ACS's label (challengeInfoLabel) over the field.
        #expect(session.waitFor("│ Enter the code ") && session.waitFor("│ ›[••••"))
        #expect(!session.screen().contains("9876"))
        session.press("Enter")
        #expect(session.waitFor("wrong code; 2 attempts left"))
        session.type("1234")
        session.press("Enter")
        let (done, screen) = session.waitUntil { screen in
            ["✓ Payment authenticated after a challenge", "Y · ECI 05 — authentication successful",
             "onPayerAuthenticationSuccess", "ACS→DS    RReq"].allSatisfy { screen.contains($0) }
        }
        #expect(done, "\(screen)")
        #expect(screen.contains("Y · ECI 05 — authentication successful"))
        #expect(screen.contains("onPayerAuthenticationSuccess"))
        #expect(screen.contains("ACS→DS    RReq"), "the log shows the 3-D Secure messages")
        session.press("Enter")
        #expect(session.waitFor("What would you like to do?"))
        session.press("q")
        #expect(session.waitForExit() == 0)
        #expect(!session.scrollback().contains("9876"))
    }

    /// What terminals send for Alt (Option) keys, the mouse, focus and keys idp-tui has no use for leaves the form
    /// and its text as they were: nothing cancels the flow and nothing is typed; Alt keys edit by word; a paste
    /// that never ends stops swallowing keys, and Ctrl-C still quits.
    @Test func escapeSequencesNeitherCancelNorType() throws {
        let session = try TmuxSession()
        openActivation(session)
        session.type("alice smith")
        #expect(session.waitFor("alice smith"))
        for sequence in ["\u{1b}[99999;1H", "\u{1b}[25;5~", "\u{1b}[1;5Z", "\u{1b}[M !!", "\u{1b}[<0;3;4M", "\u{1b}[<65;3;4M",
                         "\u{1b}[I", "\u{1b}[O", "\u{1b}\r",
                         // Modified F1 and arrows in SS3 form (Konsole, older VTE); Alt-Tab and an Esc-prefixed Alt-↑.
                         "\u{1b}O2P", "\u{1b}O1;5P", "\u{1b}O;5P", "\u{1b}O5A", "\u{1b}\t", "\u{1b}\u{1b}[A",
                         // A terminal's late answers to colour and capability queries: control strings, dropped whole.
                         "\u{1b}]2;q\u{7}", "\u{1b}]11;rgb:0000/0000/0000\u{1b}\\", "\u{1b}P1$r0m\u{1b}\\"] {
            session.send(bytes: sequence)
        }
        session.send(bytes: "\u{1b}b")  // Alt-B: to the start of "smith"
        session.type("j ")
        #expect(session.waitFor("alice j smith"), "\(session.screen())")
        session.send(bytes: "\u{1b}\u{7f}")  // Alt-Backspace: deletes "j "
        session.send(bytes: "\u{1b}\u{1b}[D")  // Alt-← as rxvt and PuTTY send it: to the start of "alice"
        session.send(bytes: "\u{1b}[1;5C")  // Ctrl-→: to the end of "alice"
        session.send(bytes: "\u{1b}[1;5D")  // Ctrl-←: back to its start
        session.send(bytes: "\u{1b}d")  // Alt-D: deletes "alice"
        session.type("bob")
        let (edited, screen) = session.waitUntil { $0.contains("bob smith") }
        #expect(edited, "\(screen)")
        #expect(screen.contains("Activate device — step 1 of 2"))
        #expect(!screen.contains("cancelled") && !screen.contains("!!") && !screen.contains("rgb") && !screen.contains("$r0m"))
        // A paste whose end never comes gives the keyboard back, and Ctrl-C quits.
        session.press("End")
        session.send(bytes: "\u{1b}[200~ jr")
        #expect(session.waitFor("bob smith jr"))
        session.press("C-c")
        #expect(session.waitForExit() != nil)
    }

    /// The faults panel's 3-D Secure entries reach a payment: the directory server answering with an Erro ends
    /// the lookup without an ARes.
    @Test func aDirectoryServerFaultFromThePanelEndsTheLookup() throws {
        let session = try TmuxSession()
        #expect(session.waitFor("What would you like to do?"))
        session.press("f")
        #expect(session.waitFor("Faults — space switches"))
        for _ in 0..<17 { session.press("Down") }
        for _ in 0..<4 { session.press("Space") }
        #expect(session.waitFor("directory server answering with an Erro message"))
        session.press("Escape")
        // The panel gone first: the menu's question, its title, shows under it, and an arrow sent with the Esc reads as Alt.
        #expect(session.waitUntil { !$0.contains("Faults — space switches") }.0)
        pay(session, card: "4000000000002701")
        let (done, screen) = session.waitUntil { screen in
            ["not authenticated — AUTHENTICATION_UNAVAILABLE", "404 from the directory server: Permanent System Failure", "May authorise"]
                .allSatisfy { screen.contains($0) }
        }
        #expect(done, "\(screen)")
    }

    @Test func anUnknownTerminalTypeIsOneLineAndExitTwo() throws {
        // tmux sets TERM for its panes: the shell in front of the binary changes it.
        let session = try TmuxSession(command: [
            "sh", "-c", "TERM=nosuchterm \"$0\"; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _", TmuxSession.binary,
        ])
        #expect(session.waitForExit() == 2)
        let screen = session.screen()
        #expect(screen.contains("idp-tui: the terminal type \"nosuchterm\" (TERM) is unknown"), "\(screen)")
        #expect(!screen.contains("Error opening terminal"))
        // A long one is named by its start and its length (3,000 characters were echoed whole).
        let long = try TmuxSession(command: [
            "sh", "-c", "TERM=$(printf 'x%.0s' $(seq 300)) \"$0\"; echo \"\(TmuxSession.exitMarker)$?]\"; read -r _", TmuxSession.binary,
        ])
        #expect(long.waitForExit() == 2)
        let said = long.screen()
        #expect(said.contains("the terminal type \"" + String(repeating: "x", count: 40) + "… (300 bytes"), "\(said)")
        #expect(!said.contains(String(repeating: "x", count: 41)), "\(said)")
    }

    /// Test data at hand: F4 fills the demo user on both activation pages, and picks a test card.
    @Test func f4FillsTheFormsWithTestData() throws {
        let session = try TmuxSession()
        openActivation(session)
        session.press("F4")
        #expect(session.waitFor("filled in demo user alice"))
        session.press("Enter", "Enter")
        #expect(session.waitFor("step 2 of 2"))
        session.press("F4", "Enter")
        #expect(session.waitFor("✓ Device activated and logged in"))
        // The same events as a sequence diagram, and back.
        session.press("v")
        let (drawn, diagram) = session.waitUntil { ["Sequence — flow 1: Activate device", "─POST /token─", "▶│"].allSatisfy($0.contains) }
        #expect(drawn, "\(diagram)")
        session.press("v")
        #expect(session.waitFor("tab: read them"))
        session.press("Enter")
        open(session, downs: 3)
        #expect(session.waitFor("card details"))
        session.press("F4")
        #expect(session.waitFor("enter fills the form, esc closes"))
        session.press("Enter", "Enter")
        #expect(session.waitFor("✓ Payment authenticated without a challenge"))
        session.press("v")
        #expect(session.waitFor("Sequence — flow 2: Pay with card (3-D Secure)"))
        #expect(session.waitFor("SafepayDrops"))
    }

    /// With a latency fault on, the working screen names the call in flight and its time ticks.
    @Test func aLatencyFaultShowsTheCallInFlightTicking() throws {
        let session = try TmuxSession()
        #expect(session.waitFor("What would you like to do?"))
        session.press("f", "Down", "Space", "Escape")
        // The panel closed (the status line says "⚡ 1 fault on" while it is open too, beside its notice).
        #expect(session.waitUntil { $0.contains("⚡ 1 fault on") && !$0.contains("Faults — space switches") }.0)
        session.press("Enter")
        func elapsed(_ screen: String) -> String? {
            guard let range = screen.range(of: #"waiting for [^·]+ · [0-9]+\.[0-9] s"#, options: .regularExpression) else { return nil }
            return String(screen[range])
        }
        let (first, screen) = session.waitUntil { elapsed($0) != nil }
        #expect(first, "\(screen)")
        // The same call, a later time, seen on two screens in a row: the screen ticks while nothing else happens.
        var last: String?
        func ticked(_ now: String) -> Bool {
            let line = elapsed(now)
            defer { last = line }
            guard let line, let last else { return false }
            return line != last && line.components(separatedBy: " · ").first == last.components(separatedBy: " · ").first
        }
        var (ticks, later) = session.waitUntil(timeout: .seconds(5)) { ticked($0) }
        if !ticks {
            // A loaded machine saw the first call's wait once only, near its end: the next page's calls wait as long.
            session.press("F4", "Enter")
            (ticks, later) = session.waitUntil { ticked($0) }
        }
        #expect(ticks, "the time did not move: \(later)")
    }

    /// A click on a menu item starts it, a click on Cancel cancels; the terminal reports the mouse only while
    /// idp-tui runs, and not at all with --no-mouse.
    @Test func clicksWorkAndMouseReportingEndsWithTheProgram() throws {
        let session = try TmuxSession()
        #expect(session.waitFor("What would you like to do?"))
        #expect(session.format("#{mouse_any_flag}") == "1", "idp-tui asks for mouse reports")
        #expect(session.format("#{cursor_flag}") == "0", "no cursor on the menu")
        // "▸ 1 Activate device" is on row 3, from column 3 (under the panel's title, the menu's question).
        session.send(bytes: "\u{1b}[<0;6;3M\u{1b}[<0;6;3m")
        #expect(session.waitFor("Activate device — step 1 of 2"))
        #expect(session.format("#{cursor_flag}") == "1", "the cursor shows in the form's field")
        let screen = session.screen().split(separator: "\n").map(String.init)
        let row = try #require(screen.firstIndex { $0.contains("[ Cancel ]") })
        let column = try #require(screen[row].range(of: "[ Cancel ]")).lowerBound
        let x = screen[row][..<column].count + 3
        session.send(bytes: "\u{1b}[<0;\(x);\(row + 1)M\u{1b}[<0;\(x);\(row + 1)m")
        #expect(session.waitFor("Activate device cancelled"))
        session.press("Enter", "q")
        #expect(session.waitForExit() == 0)
        #expect(session.format("#{mouse_any_flag}") == "0", "mouse reporting is off again after the exit")

        let plain = try TmuxSession(arguments: ["--no-mouse"])
        #expect(plain.waitFor("What would you like to do?"))
        #expect(plain.format("#{mouse_any_flag}") == "0")
        // A report that arrives anyway (another program asked for them) is not a click; the key after it counts.
        plain.send(bytes: "\u{1b}[<0;6;3M\u{1b}[<0;6;3m")
        plain.press("j")
        let (moved, after) = plain.waitUntil { $0.contains("▸ 2 Log in") }
        #expect(moved && !after.contains("step 1 of 2"), "\(after)")
    }

    /// The event log at 80×24: Tab into it, filter, and read one 3-D Secure message whole.
    @Test func theLogShowsAnEventWhole() throws {
        let session = try TmuxSession()
        pay(session, card: "4000000000002701")
        #expect(session.waitFor("✓ Payment authenticated without a challenge"))
        session.press("Tab")
        #expect(session.waitFor("↑↓ select · enter details"))
        session.type("/ARes")
        session.press("Enter", "Enter")
        let (done, screen) = session.waitUntil { screen in
            ["Event — esc closes", "from → to DS → Drops", "\"messageType\": \"ARes\"", "\"dsTransID\""]
                .allSatisfy { screen.contains($0) }
        }
        #expect(done, "\(screen)")
        // The rest of the message is a scroll away.
        session.press("PageDown")
        let (scrolled, end) = session.waitUntil { $0.contains("\"transStatus\": \"Y\"") && $0.contains("}") }
        #expect(scrolled, "\(end)")
        session.press("Escape", "Escape")
        #expect(session.waitFor("tab: read them"))
    }
}
