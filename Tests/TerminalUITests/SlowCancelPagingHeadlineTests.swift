import DropsWeb
import FlowCatalog
import FlowRecords
import TerminalUI
import Testing

/// A cancel its SDK takes a while to carry out: a payment cancelled at its challenge sends the ACS a CReq with
/// challengeCancel 01 and waits for its answer, which a slow ACS gives 5 s later. The working screen said
/// "cancelling…" all that time, with no time and a hint ("Esc cancels the flow.") that no longer said what Esc did.
extension AppDriver {
    /// A payment whose challenge is shown by a slow ACS (5 s late on the manual clock, moved on until it shows).
    func challengeFromASlowACS() throws {
        environment.world.bridgeFaults = BridgeFaults(threeDS: ThreeDSFaults(acs: .slow))
        openPayment()
        type("4000000000002503")
        press(.tab)
        type("12/30")
        press(.enter, .enter, .enter, .enter)
        #expect(pump { _ in
            if self.clock.pendingTimerCount > 0 { self.clock.advance(by: .seconds(5)) }
            return self.challenge != nil || self.isResult
        })
        try #require(challenge != nil, "\(app.render().text)")
    }
}

@Suite struct CancelWaitTests {
    @Test func aSlowCancelCountsItsTimeAndASecondEscEndsItNow() throws {
        let driver = AppDriver()
        try driver.challengeFromASlowACS()

        let cancelledAfter = driver.app.state.log.last?.sequence ?? 0
        driver.press(.escape)
        #expect(driver.pump { _ in driver.clock.pendingTimerCount > 0 }, "the cancel's CReq waits for the slow ACS")
        let since = try #require(driver.app.state.cancellingSince)
        // Quiet for its first second: most cancels end within it.
        #expect(driver.app.tickInterval(at: since) == .seconds(1))
        #expect(!driver.app.render().text.contains("the SDK is ending the flow"))
        #expect(driver.app.render().text.contains("Esc again ends it at once"))
        // The help bar says it too: it still said "esc cancel flow".
        let bar = driver.app.render().text.components(separatedBy: "\n").last ?? ""
        #expect(bar.contains("esc end now") && !bar.contains("cancel flow"), "\(bar)")
        driver.app.tick(now: since + .milliseconds(2_500))
        let text = driver.app.render().text
        #expect(text.contains("cancelling… the SDK is ending the flow · 2.5 s"), "\(text)")
        #expect(text.contains("Esc again ends it at once, without the SDK's answer."), "\(text)")
        #expect(driver.app.tickInterval(at: since + .milliseconds(2_500)) == .milliseconds(250))
        // The fault that struck the cancel's CReq says why it waits, as one on any call waited on does (a tester watched
        // the cancel's time count with nothing saying why).
        #expect(driver.pump { app in app.state.log.contains { $0.step == .fault && $0.sequence > cancelledAfter } })
        driver.app.tick(now: since + .milliseconds(2_500))
        #expect(driver.app.render().text.contains("⚡ the ACS answers 5 s late"), "\(driver.app.render().text)")

        // The second Esc does not wait for the ACS: the flow ends cancelled now, the clock left where it was.
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.outcome == .cancelled)
        #expect(driver.app.tickInterval == nil)
    }
}

/// While the 3DS Method never completes (a fault), the page waits its 10 s timer: the screen and a cancel named
/// the card form, answered before the wait ("waiting for Drops (card form entered)", "Cancelled while card form was
/// in flight"), as the Method was logged only after it.
@Suite struct MethodWaitTests {
    @Test func theWaitForTheMethodNamesTheMethod() throws {
        let driver = AppDriver()
        driver.environment.world.bridgeFaults = BridgeFaults(threeDS: ThreeDSFaults(methodTimeout: true))
        driver.openPayment()
        driver.type("4000000000002701")
        driver.press(.tab)
        driver.type("12/30")
        driver.press(.enter, .enter, .enter, .enter)
        #expect(driver.pump { _ in driver.clock.pendingTimerCount > 0 && driver.app.state.log.contains { $0.step.rawValue == "3DS Method" } })
        let text = driver.app.render().text
        #expect(text.contains("Drops→ACS 3DS Method"), "\(text)")
        driver.press(.escape)
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.error?.message.contains("while 3DS Method was in flight") == true, "\(String(describing: driver.result?.error))")
        driver.clock.advance(by: .seconds(60))  // The page's thread ends its wait.
    }
}

extension AppDriver {
    /// The KSSIDP comparison on screen, if it is.
    var comparison: ComparisonState? {
        if case .comparison(let comparison) = app.state.screen { return comparison }
        return nil
    }
}

/// PgDn on the KSSIDP comparison moves a page of what is shown, less one line kept in view: it moved 8 lines at
/// every height, under half of the 34 rows at 120×40.
@Suite struct ComparisonPagingTests {
    @Test func aPageIsTheRowsShownLessOne() {
        let driver = AppDriver(width: 120, height: 40)
        driver.openComparison()
        func scroll() -> Int? { driver.comparison?.scroll }
        driver.press(.pageDown)
        let first = scroll() ?? 0
        driver.press(.pageDown)
        let second = scroll() ?? 0
        driver.press(.pageUp)
        #expect(first > 8, "a page at 120×40 moved \(first) lines")
        #expect(scroll() == max(0, second - first), "PgUp goes back the same page")
    }

    /// At 60 columns the help bar keeps the keys of the variants not on screen (it kept "1 guide", the one shown, and
    /// dropped the two that lead elsewhere).
    @Test func theHelpBarNamesTheOtherVariantsAt60Columns() {
        let driver = AppDriver(width: 60, height: 18)
        driver.openComparison()
        #expect(driver.pump { _ in driver.comparison?.running == false })
        let bar = driver.app.render().text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(bar.contains("2 as written") && !bar.contains("1 guide"), "\(bar)")
        #expect(bar.contains("esc back") && bar.contains("F1 help"), "\(bar)")
    }

    /// 1, 2 and 3 run the check again with another variant, as `compare --variant` does: the guide's code as
    /// written differs from KSSIDP, which only the command line showed.
    @Test func digitsRunTheOtherVariants() {
        let driver = AppDriver()
        driver.openComparison()
        func shown() -> ComparisonState? { driver.comparison }
        #expect(shown()?.variant == .guide && shown()?.differences == 0)
        #expect(driver.app.render().text.contains("─ KSSIDP comparison — the orchestrations agree ─"))
        for (digit, variant, word) in [("2", ParityCheck.Variant.guideAsWritten, "as written"), ("3", .enrollmentClientForLogin, "wrong")] {
            driver.press(.character(Character(digit)))
            #expect(driver.pump { _ in shown()?.running == false }, "\(digit)")
            #expect(shown()?.variant == variant && shown()?.report?.variant == variant.rawValue)
            let differences = shown()?.differences ?? 0
            #expect(differences > 0, "\(variant) differs")
            #expect(driver.app.render().text.contains("─ KSSIDP comparison · \(digit) \(word) — \(differences) differences ─"),
                    "\(driver.app.render().text)")
        }
        driver.press(.character("1"))
        #expect(driver.pump { _ in shown()?.running == false })
        #expect(shown()?.variant == .guide && shown()?.differences == 0)
        // Another asked for before the first came: the first's report, when it comes late, is not shown for it.
        driver.press(.character("2"), .character("1"))
        #expect(driver.pump { _ in shown()?.running == false })
        #expect(shown()?.variant == .guide && shown()?.report?.variant == "guide" && shown()?.differences == 0)
    }

    /// j and k move a line, space and b a page, as in less and the other lists (j did nothing here).
    @Test func jKSpaceAndBScrollAsInLess() {
        let driver = AppDriver(width: 60, height: 18)
        driver.openComparison()
        func scroll() -> Int? { driver.comparison?.scroll }
        driver.press(.character("j"), .character("j"))
        #expect(scroll() == 2)
        driver.press(.character("k"))
        #expect(scroll() == 1)
        driver.press(.character(" "))
        let paged = scroll() ?? 0
        #expect(paged > 3, "space pages: \(paged)")
        driver.press(.character("b"))
        #expect(scroll() == 1, "b goes back the same page")
        #expect(driver.app.render().text.contains("j k scroll"), "the bar names them")
    }
}

/// A failure's headline too long for the panel wraps onto the blank row under it: cut, it lost its end, which is
/// the status ("✗ Pay with card (3-D Secure) failed — AUTHENTICATION_UN…" at 60×18).
@Suite struct ResultHeadlineTests {
    @Test func aLongHeadlineKeepsItsStatusAt60Columns() {
        let driver = AppDriver(width: 60, height: 18)
        driver.pay(card: "4000000000002313")
        #expect(driver.pump { _ in driver.isResult })
        #expect(driver.result?.status == "AUTHENTICATION_UNAVAILABLE")
        let text = driver.app.render().text
        #expect(text.contains("AUTHENTICATION_UNAVAILABLE") && !text.contains("AUTHENTICATION_UN…"), "\(text)")
    }
}

/// The live sequence view's hint for a cut label names Tab only where Tab opens the log: under a challenge's form Tab
/// moves between its fields (the hint said "tab lists them whole" there).
@Suite struct SequenceHintTests {
    @Test func underAFormTheHintDoesNotOfferTab() {
        let driver = AppDriver(width: 80, height: 40)
        driver.press(.character("v"))
        driver.pay(card: "4000000000002503")
        #expect(driver.challenge != nil)
        let text = driver.app.render().text
        #expect(text.contains("a label is cut"), "\(text)")
        #expect(!text.contains("a label is cut: tab"), "\(text)")
    }
}
