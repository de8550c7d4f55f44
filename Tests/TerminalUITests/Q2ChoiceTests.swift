import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import TerminalUI
import Testing

extension AppDriver {
    /// Signs in as alice, back home, and opens Q2 login again: the saved credential's choice.
    func openQ2WithASavedCredential() {
        signInQ2()
        press(.enter)
        openQ2()
    }

    /// The log's answers of the app at the sign-in screen (their statuses).
    var signInAnswers: [String] {
        app.state.log.filter { $0.step.rawValue == "sign-in screen" && $0.from == .app }.compactMap(\.status)
    }

    var formNote: String? {
        if case .form(let form) = app.state.screen { return form.note }
        return nil
    }

    var formUsername: String? {
        if case .form(let form) = app.state.screen { return form.inputs.first?.text }
        return nil
    }
}

/// "Welcome back, alice — not you?": with a saved credential that `shouldAllowAutoLogin()` lets sign in, the Q2
/// sign-in screen asks first (continue, another account, forget it), so that a tester can reach the form again.
@Suite struct Q2ChoiceTests {
    @Test func aSavedCredentialAsksWhoSignsInWithContinueFocused() throws {
        let driver = AppDriver()
        driver.openQ2WithASavedCredential()
        #expect(driver.isChoice)
        let screen = driver.app.render()
        for text in ["Welcome back, alice — not you?", "▸ 1 Continue as alice (saved credential)", "  2 Use another account",
                     "  3 Forget alice's saved credential", "enter select", "esc cancel"] {
            #expect(screen.text.contains(text), "no \(text): \(screen.text)")
        }
        #expect(!screen.text.contains("wonderland"))
        Snapshot.check(screen, "q2-choice-80x24")
        #expect(driver.signInAnswers == ["answered"], "nothing answered yet: \(driver.signInAnswers)")
    }

    @Test func anotherAccountShowsTheEmptyFormAndKeepsTheSavedCredential() throws {
        let driver = AppDriver()
        driver.openQ2WithASavedCredential()
        driver.press(.character("2"))
        #expect(driver.app.render().text.contains("▸ 2 Use another account"), "a digit moves to that entry")
        driver.press(.enter)
        driver.pump { _ in driver.isForm }
        #expect(driver.formUsername == "", "the form's username is empty")
        #expect(driver.formNote == "No auto-login as alice: you chose another account (the saved credential is kept).")
        #expect(driver.app.render().text.contains("No auto-login as alice: you chose another account"))
        #expect(driver.signInAnswers.last == "another account")
        let event = try #require(driver.app.state.log.last { $0.status == "another account" })
        #expect(event.detail.contains("alice") && !event.detail.contains("wonderland"))
        #expect(driver.service.q2.savedCredential?.username == "alice")
        // bob can sign in, and his credential is the saved one next time.
        driver.type("bob")
        driver.press(.tab)
        driver.type("builder")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.q2?.username == "bob" && driver.result?.q2?.autoLogin == false)
        driver.press(.enter)
        driver.openQ2()
        #expect(driver.app.render().text.contains("Welcome back, bob — not you?"))
    }

    @Test func aWrongPasswordCanBeTriedAgainAfterASuccessfulLogin() throws {
        let driver = AppDriver()
        driver.openQ2WithASavedCredential()
        driver.press(.down)
        driver.press(.enter)
        driver.pump { _ in driver.isForm }
        driver.type("alice")
        driver.press(.tab)
        driver.type("nope")
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.status == "INVALID_CREDENTIALS")
        #expect(driver.app.render().text.contains("invalid user id or password (2 attempts left)"))
    }

    @Test func forgettingTheSavedCredentialClearsItAndLogsIt() throws {
        let driver = AppDriver()
        driver.openQ2WithASavedCredential()
        driver.press(.character("j"), .character("j"))
        #expect(driver.app.render().text.contains("▸ 3 Forget alice's saved credential"))
        driver.press(.enter)
        driver.pump { _ in driver.isForm }
        #expect(driver.service.q2.savedCredential == nil)
        #expect(driver.formUsername == "")
        #expect(driver.formNote == "alice's saved credential is forgotten: sign in with a username and password.")
        #expect(driver.signInAnswers.last == "credential forgotten")
        #expect(!driver.app.state.log.contains { $0.detail.contains("wonderland") })
        // Cancelled here, the next sign-in has no saved credential: the plain form, no choice. The result says so
        // (the cancel does not undo the Forget; only the log said it).
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        let text = driver.app.render().text.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }
            .joined(separator: " ")
        #expect(text.contains("The saved credential for alice was forgotten in this flow: the next sign-in asks for a password."), "\(text)")
        driver.press(.enter)
        driver.openQ2()
        #expect(driver.isForm && driver.formNote == nil && driver.formUsername == "")
    }

    @Test func escAtTheChoiceCancelsTheFlow() {
        let driver = AppDriver()
        driver.openQ2WithASavedCredential()
        driver.press(.escape)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.outcome == .cancelled)
        #expect(driver.app.render().text.contains("Cancelled at the sign-in screen"))
        #expect(driver.service.q2.savedCredential?.username == "alice", "a cancel keeps the saved credential")
    }

    /// Tab moves round the choice, so the bar names F6 for the log, as a form's does; Esc gives the choice back.
    @Test func f6ReadsTheLogFromTheChoiceAndTheBarSaysSo() {
        let driver = AppDriver()
        driver.openQ2WithASavedCredential()
        driver.press(.down)
        #expect(driver.app.render().text.contains("F6 log"), "\(driver.app.render().text)")
        driver.press(.f6)
        #expect(driver.app.state.logFocus != nil, "F6 goes into the log")
        #expect(driver.isChoice, "the choice waits under the log")
        driver.press(.escape)
        #expect(driver.app.state.logFocus == nil && driver.isChoice)
        #expect(driver.app.render().text.contains("▸ 2 Use another account"), "the choice keeps its selection")
    }

    @Test func kAndTheArrowsMoveRoundAndAClickChooses() throws {
        let driver = AppDriver()
        driver.openQ2WithASavedCredential()
        driver.press(.character("k"))
        #expect(driver.app.render().text.contains("▸ 3 Forget"), "up from the first wraps to the last")
        driver.press(.down)
        #expect(driver.app.render().text.contains("▸ 1 Continue"))
        let lines = driver.app.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.contains("Use another account") })
        let column = try #require(lines[row].range(of: "Use another account")).lowerBound.utf16Offset(in: lines[row])
        driver.app.handleMouse(MouseReport(button: 0, column: column + 1, row: row + 1, pressed: true))
        driver.pump { _ in driver.isForm }
        #expect(driver.signInAnswers.last == "another account")
    }

    @Test func theChoiceIsWholeAt60x18() {
        let driver = AppDriver(width: 60, height: 18)
        driver.openQ2WithASavedCredential()
        let text = driver.app.render().text
        for line in ["Auto-login allowed; a credential is saved.", "Welcome back, alice — not you?", "▸ 1 Continue as alice (saved credential)",
                     "3 Forget alice's saved credential", "esc cancel"] {
            #expect(text.contains(line), "no \(line): \(text)")
        }
    }

    @Test func aDeepLinksBannerStaysOnTheChoice() {
        var configuration = FlowConfiguration()
        configuration.q2.launch = .deepLink
        let driver = AppDriver(configuration: configuration)
        driver.openQ2WithASavedCredential()
        let text = driver.app.render().text
        #expect(text.contains("⚠ Please sign in to continue") && text.contains("Welcome back, alice"), "\(text)")
    }

    /// A deep link's banner takes the first row over the form; the note of another account, too long for the one
    /// row left, takes two, whole, and the fields move down into the blank row above the buttons (80×24, 60×18).
    @Test func underABannerTheNoteOfAnotherAccountIsWhole() throws {
        for (width, height) in [(80, 24), (60, 18)] {
            var configuration = FlowConfiguration()
            configuration.q2.launch = .deepLink
            let driver = AppDriver(width: width, height: height, configuration: configuration)
            driver.openQ2WithASavedCredential()
            driver.press(.character("2"))
            driver.press(.enter)
            driver.pump { _ in driver.isForm }
            let screen = driver.app.render()
            let rows = screen.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let panel = rows.prefix { !$0.contains("SDK events") }.joined(separator: "\n")
            #expect(panel.contains("⚠ Please sign in to continue"), "\(width)×\(height): \(panel)")
            #expect(panel.contains("kept).") && !panel.contains("…"), "\(width)×\(height): the note is cut: \(panel)")
            let username = try #require(rows.firstIndex { $0.contains("Username") })
            #expect(rows[username - 1].contains("kept)."), "\(width)×\(height): the note's end is just above the fields")
            #expect(rows[username + 2].contains("[ Submit ]"), "\(width)×\(height): \(panel)")
            #expect(screen.cursor?.row == username, "\(width)×\(height): the cursor is in the username field")
        }
    }
}
