import FlowRecords
import PaymentFlows
import TerminalUI
import Testing
import ThreeDSecure

@Suite struct TestDataTests {
    @Test func f4FillsTheDemoUsersInTurnAndTheActivationWorks() throws {
        let driver = AppDriver()
        driver.openActivation()
        #expect(driver.app.render().text.contains("F4 demo user"))
        driver.press(.f4)
        guard case .form(let form) = driver.app.state.screen else { Issue.record("no form"); return }
        #expect(form.inputs.first?.text == "alice")
        #expect(driver.app.render().text.contains("filled in demo user alice"))
        #expect(!driver.app.render().text.contains("wonderland"), "the password is masked")
        driver.press(.f4)
        guard case .form(let next) = driver.app.state.screen else { Issue.record("no form"); return }
        #expect(next.inputs.first?.text == "bob")
        // F4 leaves the focus on Submit: one Enter sends the page (the focus stayed on the username, and the first
        // Enter only moved it on).
        driver.press(.f4, .enter)
        driver.pump { _ in
            if case .form(let page) = driver.app.state.screen { return page.prompt.page == 2 }
            return false
        }
        driver.press(.f4, .enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.outcome == .success)
        #expect(driver.result?.user == "alice")
    }

    /// F4 then Enter signs in, on Q2's sign-in screen as on the IdP's form (its focus on the first field, as Q2's
    /// form opens, left Enter to move to the password).
    @Test func f4ThenEnterSubmitsTheQ2SignIn() throws {
        let driver = AppDriver()
        driver.openQ2()
        driver.press(.f4, .enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.outcome == .success, "\(driver.app.render().text)")
    }

    /// With 1,000 users on a tenant, stepping through them is no way to reach one: a demo user's name typed, F4
    /// fills in that user, and the next F4 goes on from there.
    @Test func f4FillsInTheDemoUserWhoseNameIsTyped() throws {
        let driver = AppDriver()
        driver.openActivation()
        driver.press(.character("b"), .character("o"), .character("b"), .f4)
        guard case .form(let form) = driver.app.state.screen else { Issue.record("no form"); return }
        #expect(form.inputs.map(\.text) == ["bob", "builder"])
        #expect(driver.app.render().text.contains("filled in demo user bob, the name typed (F4: the next one)"))
        driver.press(.f4)
        guard case .form(let next) = driver.app.state.screen else { Issue.record("no form"); return }
        #expect(next.inputs.first?.text == "alice", "the next one after bob")
    }

    /// The name F4 has just filled in, erased and typed again: that user, as any name typed (F4 went on to the
    /// next user, taking the retyped name for its own fill).
    @Test func f4FillsInANameRetypedAfterItsOwnFill() throws {
        let driver = AppDriver()
        driver.openActivation()
        // Back to the username (F4 left the focus on Submit).
        driver.press(.f4, .backTab, .backTab)
        driver.press(.backspace, .backspace, .backspace, .backspace, .backspace)
        driver.press(.character("a"), .character("l"), .character("i"), .character("c"), .character("e"), .f4)
        guard case .form(let form) = driver.app.state.screen else { Issue.record("no form"); return }
        #expect(form.inputs.first?.text == "alice")
        #expect(driver.app.render().text.contains("filled in demo user alice, the name typed (F4: the next one)"))
        driver.press(.f4)
        guard case .form(let next) = driver.app.state.screen else { Issue.record("no form"); return }
        #expect(next.inputs.first?.text == "bob", "F4 again, the name untouched: the next one")
    }

    /// On a login the form already has the device's user: F4 fills that user in and says so, not that the name
    /// was typed.
    @Test func f4OnALoginSaysTheNameWasTheForms() throws {
        let driver = AppDriver()
        driver.activate()
        driver.press(.enter, .character("2"), .enter)
        #expect(driver.pump { _ in driver.isForm })
        driver.press(.f4)
        #expect(driver.app.render().text.contains("filled in demo user alice, the name the form had (F4: the next one)"))
    }

    @Test func f4OnActivationsSecondPageFillsTheCodeOfTheUserTheFirstPageNamed() throws {
        let driver = AppDriver()
        driver.openActivation()
        driver.press(.f4, .f4)
        guard case .form(let form) = driver.app.state.screen else { Issue.record("no form"); return }
        #expect(form.inputs.first?.text == "bob")
        driver.press(.enter, .enter)
        f4OnTheSecondPageActivatesBob(driver)
    }

    /// Activation's second page, once the first is submitted: F4 fills in bob's code, and the device is activated.
    private func f4OnTheSecondPageActivatesBob(_ driver: AppDriver) {
        driver.pump { _ in
            if case .form(let page) = driver.app.state.screen { return page.prompt.page == 2 }
            return false
        }
        driver.press(.f4)
        #expect(driver.app.render().text.contains("filled in demo user bob's code"))
        driver.press(.enter)
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.outcome == .success)
        #expect(driver.result?.user == "bob")
    }

    /// The first page typed by hand, not filled in: F4 on the second gives the code of the user typed (it gave
    /// the first demo user's, and the wrong code cost an attempt).
    @Test func f4OnActivationsSecondPageFillsTheCodeOfTheUserTypedOnTheFirst() throws {
        let driver = AppDriver()
        driver.openActivation()
        driver.press(.character("b"), .character("o"), .character("b"), .tab)
        driver.press(.character("b"), .character("u"), .character("i"), .character("l"), .character("d"), .character("e"), .character("r"))
        driver.press(.enter)
        f4OnTheSecondPageActivatesBob(driver)
    }

    @Test func at60ColumnsThePickerShowsTheFocusedCardWhole() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.openPayment()
        driver.press(.f4)
        let index = try #require(CardCatalog.defaults.firstIndex { $0.source == "Test Case 5" })
        for _ in 0..<index { driver.press(.down) }
        // Under the list on two lines: "Test Case 5: Rejected frictionless authentication by" / "the issuer — …".
        let text = driver.app.render().text
        #expect(text.contains("Test Case 5: Rejected frictionless authentication by") && text.contains("the issuer — frictionless R"), "\(text)")
        // The list's rows leave the name out rather than cut it to three letters ("Suc…", "Rej…").
        let rows = text.split(separator: "\n").filter { $0.contains("0000 0000") || $0.contains("000000 0") }
        #expect(!rows.isEmpty && rows.allSatisfy { !$0.contains("…") && !$0.contains("Successful") }, "\(rows)")
    }

    /// At 60 columns the picker's "no card matches" line wraps whole; it was cut ("widens the li").
    @Test func at60ColumnsThePickerSaysWhollyThatNoCardMatches() throws {
        let driver = AppDriver(width: 60, height: 18)
        driver.openPayment()
        driver.press(.f4, .character("z"), .character("z"), .character("z"))
        let text = driver.app.render().text
        #expect(text.contains("No test card matches; backspace or esc widens the") && text.contains("list."), "\(text)")
    }

    /// After End, ↑ moves the focus up the cards shown; the list stays (it scrolled under a focus pinned to its
    /// last row on every key).
    @Test func upAfterEndInThePickerMovesTheFocusNotTheList() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.f4, .end)
        func shown() -> [String] {
            let text = driver.app.render().text
            return text.split(separator: "\n").compactMap { line in line.firstMatch(of: /[0-9]{4} [0-9]{4} [0-9]{4} [0-9]{3,4}/).map { String($0.output) } }
        }
        let atEnd = shown()
        #expect(atEnd.count > 3)
        driver.press(.up, .up, .up)
        #expect(shown() == atEnd)
        #expect(driver.app.render().text.contains("Test card \(CardCatalog.defaults.count - 3) of"))
    }

    @Test func f4OnTheCardFormPicksACardinalCase() throws {
        let driver = AppDriver()
        driver.openPayment()
        #expect(driver.app.render().text.contains("F4 test cards"))
        driver.press(.f4)
        var text = driver.app.render().text
        #expect(text.contains("Test card 1 of \(CardCatalog.defaults.count) — type to filter, enter fills the form"))
        // The focused card whole under the list, as the columns cut its name.
        #expect(text.contains("Test Case 1: Successful frictionless authentication — frictionless Y"))
        #expect(text.contains("4000 0000 0000 2701  TC1   frictionless Y         Successful frictionle…"), "\(text)")
        // Down to Test Case 7's Visa card: error on lookup.
        let index = try #require(CardCatalog.defaults.firstIndex { $0.number == "4000000000002446" })
        for _ in 0..<index { driver.press(.down) }
        text = driver.app.render().text
        #expect(text.contains("› 4000 0000 0000 2446  TC7   lookup: Enrolled U     Error on lookup"), "\(text)")
        driver.press(.enter)
        #expect(driver.app.state.cardPicker == nil)
        // Filled in whole; shown masked, the focus being on Pay (the full number only in the field being typed).
        #expect(driver.app.render().text.contains("[•••• 2446"), "\(driver.app.render().text)")
        if case .payment(let form) = driver.screen { #expect(form.inputs[0].text == "4000 0000 0000 2446") }
        driver.press(.enter)  // Pay has focus
        driver.pump { _ in driver.isResult }
        #expect(driver.result?.payment?.enrolled == "U")
        #expect(driver.result?.payment?.errorCode == "101")
    }

    /// The outcome column is as wide as the longest outcome: Test Case 12's "challenge → U, Erro" was cut to
    /// "challenge → U, Err" with no "…".
    @Test func theOutcomeColumnHoldsTheLongestOutcomeWhole() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.f4)
        driver.type("tc12")
        let text = driver.app.render().text
        #expect(text.contains("TC12  challenge → U (error)  Error on authenticati…"), "\(text)")
        // The focused card's whole name, under the list.
        #expect(text.contains("Test Case 12: Error on authentication — challenge → U (error)"), "\(text)")
    }

    /// The picker's outcome column says what the card ends in: the HTML challenge, which a terminal cannot show,
    /// ends U (it said "HTML → Y", the ACS's verdict had it been shown).
    @Test func thePickerSaysTheHTMLChallengeEndsInU() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.f4)
        driver.type("html")
        #expect(driver.app.render().text.contains("HTML → U"), "\(driver.app.render().text)")
        let paying = AppDriver()
        paying.pay(card: "4000009900000046")
        if paying.challenge != nil {
            paying.press(.enter)
            paying.pump { _ in paying.isResult }
        }
        #expect(paying.result?.status == "AUTHENTICATION_UNAVAILABLE", "\(paying.app.render().text)")
    }

    /// Typing narrows the picker to the cards whose line contains what was typed; Esc clears, then closes.
    @Test func typingFiltersTheTestCards() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.f4)
        driver.type("multi")
        var text = driver.app.render().text
        // The multi-select challenges (their outcome column says so), and any card whose name says "multi".
        let multi = CardCatalog.defaults.filter { card in
            if case .challenge(let design) = card.scenario, design.uiType == .multiSelect { return true }
            return card.title.lowercased().contains("multi")
        }
        #expect(!multi.isEmpty)
        #expect(text.contains("Test cards matching “multi”: \(multi.count) of \(CardCatalog.defaults.count) match"), "\(text)")
        #expect(text.contains("› " + PaymentForm.formatCardNumber(multi[0].number)), "\(text)")
        // Any case; j and k are part of a filter once one is being typed.
        driver.press(.escape)
        driver.type("2503")
        text = driver.app.render().text
        #expect(text.contains("matching “2503”: 1 of"), "\(text)")
        driver.press(.backspace, .backspace, .backspace, .backspace)
        // Emptied, the filter is still being typed: the title says all are shown, not that all match “”.
        text = driver.app.render().text
        #expect(text.contains("Type to filter all \(CardCatalog.defaults.count) test cards — esc stops filtering") && !text.contains("“”"), "\(text)")
        driver.type("zzzz")
        #expect(driver.app.render().text.contains("No test card matches"))
        driver.press(.enter)
        #expect(driver.app.state.cardPicker != nil, "Enter with nothing matched fills nothing")
        driver.press(.escape)
        #expect(driver.app.state.cardPicker?.filter == "", "the first Esc clears the filter")
        #expect(driver.app.state.cardPicker?.focus == 0, "no card matched: the first is focused")
        driver.press(.character("j"))
        #expect(driver.app.state.cardPicker?.focus == 1, "with no filter j moves")
        driver.press(.escape)
        #expect(driver.app.state.cardPicker == nil, "the next Esc closes")
        // A filter, Enter: the form has the first match, and the picker opens on it next time.
        driver.press(.f4)
        driver.type("test case 4")
        driver.press(.enter)
        let chosen = try #require(CardCatalog.defaults.first { $0.source == "Test Case 4" })
        #expect(driver.app.render().text.contains("•••• " + chosen.number.suffix(4)))
        driver.press(.f4)
        let picker = try #require(driver.app.state.cardPicker)
        #expect(picker.matches[picker.focus].number == chosen.number, "the picker opens on the card it filled in last")
    }

    /// The filters take readline's deleting keys at their end, as gum's filter does: Ctrl-W and Alt-Backspace the last
    /// word, Ctrl-U the whole filter (only Backspace, one character at a time, emptied one).
    @Test func theFiltersTakeReadlinesDeletingKeys() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.f4)
        driver.type("test case 4")
        driver.press(.control("w"))
        #expect(driver.app.state.cardPicker?.filter == "test case ")
        driver.press(.altBackspace)
        #expect(driver.app.state.cardPicker?.filter == "test ")
        driver.press(.control("u"))
        #expect(driver.app.state.cardPicker?.filter == "")
        #expect(driver.app.state.cardPicker?.editingFilter == true, "still typing a filter: j and k are its letters")
        // The picker's filter cleared, the picker closed, the payment cancelled: its result's log takes Tab.
        driver.press(.escape, .escape, .escape)
        #expect(driver.pump { _ in driver.isResult })
        driver.press(.tab, .character("/"))
        driver.type("Start Res")
        driver.press(.control("w"))
        #expect(driver.app.state.logFocus?.filter == "Start ")
        driver.press(.control("u"))
        #expect(driver.app.state.logFocus?.filter == "")
        #expect(driver.app.state.logFocus?.editingFilter == true)
        // A kept filter: `/` opens it again at its end, to be refined (it was thrown away).
        driver.type("Start")
        driver.press(.enter, .character("/"))
        driver.type("Ev")
        #expect(driver.app.state.logFocus?.filter == "StartEv")
    }

    /// Esc clears the picker's filter and keeps the card it found focused among them all (it went back to card 1).
    @Test func clearingThePickersFilterKeepsTheCardItFound() throws {
        let driver = AppDriver()
        driver.openPayment()
        driver.press(.f4)
        driver.type("2503")
        driver.press(.escape)
        let picker = try #require(driver.app.state.cardPicker)
        #expect(picker.filter.isEmpty && picker.focus > 0)
        #expect(picker.matches[picker.focus].number == "4000000000002503")
    }
}
