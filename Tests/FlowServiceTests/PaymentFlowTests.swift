import Determinism
import DropsWeb
import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import PaymentFlows
import Q2Flows
import SafepayDropsSDK
import Secrets
import Simulation
import Testing
import ThreeDSecure

/// A front end that fills the card form with `card` and answers each challenge screen with the next action.
/// Screens beyond the script stay open.
func paying(_ card: String, expiry: String = "12/30", actions: [PromptAnswer] = []) -> RecordingFrontEnd {
    var remaining = actions
    return RecordingFrontEnd { prompt in
        switch prompt.request {
        case let request as PaymentDetailsRequest:
            let defaults = request.defaults
            return (try? PaymentForm.details(card: card, expiry: expiry, amount: defaults.amount, currency: defaults.currency,
                                            merchant: defaults.merchant)).map { .payment($0) } ?? .cancel
        case is ChallengeRequest: return remaining.isEmpty ? nil : remaining.removeFirst()
        default: return .cancel
        }
    }
}

func code(_ text: String) -> PromptAnswer { .challenge(.answer(.code(Secret(text)))) }

extension RecordingFrontEnd {
    var challengeScreens: [ChallengeScreen] {
        prompts.compactMap { ($0.request as? ChallengeRequest)?.screen }
    }

    func steps(of flowID: Int) -> [String] { events(of: flowID).map { "\($0.from.rawValue)→\($0.to.rawValue) \($0.step.rawValue)" } }
}

@Suite struct PaymentFlowTests {
    let clock = ManualClock()

    func service(_ configuration: FlowConfiguration = FlowConfiguration()) -> FlowService {
        FlowService(environment: SimulationEnvironment(clock: clock), configuration: configuration)
    }

    @Test func aFrictionlessCardEndsInFrictionlessWithItsECI() throws {
        let service = service()
        let frontEnd = paying("5200000000002235")
        let result = try #require(service.run(.payerAuth, with: frontEnd))
        #expect(result.outcome == .success)
        #expect(result.status == PaymentStatus.frictionless)
        #expect(result.payment?.callback == "onPayerAuthenticationFrictionless")
        #expect(result.payment?.transStatus == "Y")
        #expect(result.payment?.eci == "02")
        #expect(result.payment?.card == "•••• 2235")
        #expect(result.payment?.brand == "Mastercard")
        #expect(result.payment?.nextAction == .proceedWithLiabilityShift)
        // Mastercard's authentication value is its AAV.
        #expect(result.advice == "Authorise with the AAV, ECI, dsTransID and messageVersion; the issuer carries liability.")
        let steps = frontEnd.steps(of: result.flowID)
        for expected in ["App→SafepayDrops configure", "SafepayDrops→Drops load", "SafepayDrops→Drops safepay-property-update",
                         "Drops→SafepayDrops safepay-inframe__ack", "Drops→App card form", "App→Drops card form", "Drops→ACS 3DS Method",
                         "Drops→DS AReq", "DS→Drops ARes", "SafepayDrops→App onPayerAuthenticationFrictionless"] {
            #expect(steps.contains(expected), "missing \(expected) in \(steps)")
        }
        #expect(steps.firstIndex(of: "Drops→DS AReq")! < steps.firstIndex(of: "DS→Drops ARes")!)
        // The view lives on the main actor, as a UIView does: the app configures it there (logged there: it read
        // idp-tui.flow), it loads the page there and its delegate hears it there. The page, the bridge's messages
        // and 3-D Secure run on threads of their own.
        let onMain = frontEnd.events(of: result.flowID).filter { $0.thread == "main" }.map { "\($0.from.rawValue)→\($0.to.rawValue) \($0.step.rawValue)" }
        #expect(onMain == ["App→SafepayDrops configure", "SafepayDrops→Drops load", "SafepayDrops→App onPayerAuthenticationFrictionless"])
        #expect(frontEnd.events(of: result.flowID).first { $0.step.rawValue == "AReq" }?.thread == "DropsPage.payment")
        // The AReq as EMV 3DS 2.2 spells it: the transaction id an RFC 4122 version 4 UUID, the currency's ISO 4217
        // numeric code and exponent.
        let areq = try #require(frontEnd.events(of: result.flowID).first { $0.step.rawValue == "AReq" }?.message)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(areq.utf8)) as? [String: String])
        #expect(fields["purchaseCurrency"] == "978" && fields["purchaseExponent"] == "2" && fields["purchaseAmount"] == "4999")
        let uuid = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/
        #expect(try uuid.wholeMatch(in: fields["threeDSServerTransID"] ?? "") != nil, "\(fields)")
        let ares = try #require(frontEnd.events(of: result.flowID).first { $0.step.rawValue == "ARes" }?.message)
        let answered = try #require(try JSONSerialization.jsonObject(with: Data(ares.utf8)) as? [String: String])
        for id in ["threeDSServerTransID", "dsTransID", "acsTransID"] {
            #expect(try uuid.wholeMatch(in: answered[id] ?? "") != nil, "\(id): \(answered)")
        }
        // The flow disposes of the view: no bridge timer is left.
        #expect(clock.pendingTimerCount == 0)
    }

    @Test(arguments: [
        ("4000000000002925", "N", "01", "07"), ("4000000000002537", "R", "11", "07"), ("5200000000002268", "U", "22", "00"),
    ])
    func failureBeforeAnyChallengeIsUnavailable(card: String, status: String, reason: String, eci: String) throws {
        let result = try #require(service().run(.payerAuth, with: paying(card)))
        #expect(result.outcome == .failure)
        // N and R: the issuer refused; U: it could not authenticate.
        let refused = status != "U"
        #expect(result.status == (refused ? PaymentStatus.authenticationFailed : PaymentStatus.authenticationUnavailable))
        #expect(result.payment?.nextAction == (refused ? .doNotAuthorise : .proceedWithoutLiabilityShift))
        #expect(result.payment?.callback == "onPayerAuthenticationUnavailable")
        #expect(result.payment?.transStatus == status)
        #expect(result.payment?.transStatusReason == reason)
        #expect(result.payment?.eci == eci)
        #expect(result.error?.message.hasPrefix("transStatus \(status)") == true)
        #expect(result.advice != nil)
    }

    /// The card form's event says the expiry as entered, its year whole (`03/05` read "03/5", `01/2099` "01/99").
    @Test(arguments: [("03/05", "expiry 03/2005"), ("01/2099", "expiry 01/2099"), ("1230", "expiry 12/2030")])
    func theCardFormsEventSaysTheExpiryWhole(expiry: String, said: String) throws {
        let frontEnd = paying("4000000000002701", expiry: expiry)
        let result = try #require(service().run(.payerAuth, with: frontEnd))
        let entered = frontEnd.events(of: result.flowID).first { $0.step.rawValue == "card form" && $0.status == "entered" }
        #expect(entered?.detail.contains(said) == true, "\(entered?.detail ?? "no card form event")")
    }

    @Test func aChallengeAsksThroughThePromptsAndSucceedsAfterAWrongCode() throws {
        let service = service()
        let frontEnd = paying("4000000000002503", actions: [code("W7q9x"), code("1234")])
        let result = try #require(service.run(.payerAuth, with: frontEnd))
        #expect(result.outcome == .success)
        #expect(result.status == PaymentStatus.authenticated)
        #expect(result.payment?.callback == "onPayerAuthenticationSuccess")
        #expect(result.payment?.transStatus == "Y")
        #expect(result.payment?.eci == "05")
        let screens = frontEnd.challengeScreens
        #expect(screens.map(\.attemptsLeft) == [3, 2])
        #expect(screens.map(\.uiType) == [.text, .text])
        #expect(screens.last?.message == "wrong code; 2 attempts left")
        // The log's screen says the attempts once: the message's, then the resends (they were said twice).
        let details = frontEnd.events(of: result.flowID).filter { $0.step.rawValue == "challenge screen" && $0.detail.hasPrefix("text") }.map(\.detail)
        #expect(details.last?.hasSuffix("\"; wrong code; 2 attempts left, 3 resends left") == true, "\(details)")
        #expect(details.first?.hasSuffix("\"; 3 attempts left, 3 resends left") == true, "\(details)")
        // An out-of-band screen spends no attempt, and its event counts none, as its screen does (it said 3).
        let outOfBand = paying("4000009900000038", actions: [.challenge(.decideOnOtherDevice(approve: true))])
        let approved = try #require(service.run(.payerAuth, with: outOfBand))
        let said = outOfBand.events(of: approved.flowID).filter { $0.step.rawValue == "challenge screen" && $0.detail.hasPrefix("out-of-band") }
        #expect(!said.isEmpty && !said.contains { $0.detail.contains("attempt") }, "\(said.map(\.detail))")
        #expect(screens.first?.maskedCard == "•••• 2503")
        #expect(frontEnd.prompts.first?.title == "Pay with card (3-D Secure) — card details")
        let steps = frontEnd.steps(of: result.flowID)
        // The 3DS SDK's first CReq fetches the first screen; then one per answer.
        #expect(steps.filter { $0 == "Drops→ACS CReq" }.count == 3)
        #expect(steps.contains("SafepayDrops→App onPayerAuthenticationRequired"))
        #expect(steps.contains("ACS→DS RReq"))
        // The codes never reach an event or the result.
        let encoder = JSONEncoder()
        let text = try frontEnd.events.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined()
            + String(decoding: try encoder.encode(result), as: UTF8.self)
        // As numbers of their own: the AReq's purchaseDate (20261201234512) may hold 1234.
        #expect(!text.contains("W7q9x") && text.range(of: "(?<![0-9])1234(?![0-9])", options: .regularExpression) == nil
            && !text.contains("4000000000002503"))
    }

    @Test func wrongCodesUntilTheLimitFailWithReason19() throws {
        let frontEnd = paying("4000000000002503", actions: [code("1111"), code("2222"), code("3333")])
        let result = try #require(service().run(.payerAuth, with: frontEnd))
        #expect(result.outcome == .failure)
        #expect(result.status == PaymentStatus.authenticationFailed)
        #expect(result.payment?.callback == "onPayerAuthenticationFailure")
        #expect(result.payment?.transStatus == "N")
        #expect(result.payment?.transStatusReason == "19")
        #expect(result.payment?.eci == "07")
        #expect(result.payment?.challengeCancel == nil)
    }

    @Test func theResendLimitIsShownAndCostsNothing() throws {
        let resend = PromptAnswer.challenge(.answer(.resend))
        let frontEnd = paying("4000000000002503", actions: [resend, resend, resend, resend, code("1234")])
        let result = try #require(service().run(.payerAuth, with: frontEnd))
        #expect(result.status == PaymentStatus.authenticated)
        let screens = frontEnd.challengeScreens
        #expect(screens.map(\.resendsLeft) == [3, 2, 1, 0, 0])
        #expect(screens.last?.message == "no more codes can be sent; enter the last one or cancel (4 more such answers end the challenge)")
        #expect(screens.allSatisfy { $0.attemptsLeft == 3 })
    }

    @Test func cancelOnTheChallengeIsCancelledNotFailed() throws {
        let frontEnd = paying("4000000000002503", actions: [.cancel])
        let result = try #require(service().run(.payerAuth, with: frontEnd))
        #expect(result.outcome == .cancelled)
        #expect(result.status == "USER_CANCEL")
        #expect(result.payment?.callback == "onPayerAuthenticationFailure")
        #expect(result.payment?.challengeCancel == "01")
        #expect(result.payment?.transStatus == "N")
        #expect(result.payment?.transStatusReason == "26", "EMV 3DS requires a reason with N")
        #expect(result.payment?.interactionCounter == 0, "a cancel is no authentication cycle")
        #expect(result.failedStep == .challengeScreen)
    }

    /// The challenge's messages carry what EMV 3DS 2.2 requires of them: the 3DS Server's and the ACS's
    /// transaction ids in the CReq, CRes and RReq (and the directory server's in the RReq), a two-digit
    /// interactionCounter, and oobContinue as the boolean true.
    @Test func theChallengesMessagesCarryTheirTransactionIds() throws {
        let frontEnd = paying("4000009900000038", actions: [.challenge(.decideOnOtherDevice(approve: true))])
        let result = try #require(service().run(.payerAuth, with: frontEnd))
        let messages = try frontEnd.events(of: result.flowID).compactMap { event -> (String, [String: Any])? in
            guard let message = event.message else { return nil }
            return (event.step.rawValue, try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any]))
        }
        let ares = try #require(messages.first { $0.0 == "ARes" }?.1)
        for (type, fields) in messages where ["CReq", "CRes", "RReq"].contains(type) {
            #expect(fields["threeDSServerTransID"] as? String == ares["threeDSServerTransID"] as? String, "\(type)")
            #expect(fields["acsTransID"] as? String == ares["acsTransID"] as? String, "\(type)")
        }
        let rreq = try #require(messages.first { $0.0 == "RReq" }?.1)
        #expect(rreq["dsTransID"] as? String == ares["dsTransID"] as? String && rreq["dsTransID"] != nil)
        #expect(rreq["interactionCounter"] as? String == "01")
        #expect(messages.contains { $0.0 == "CReq" && $0.1["oobContinue"] as? Bool == true })
        // The fields the spec requires of each: category, reference numbers, authentication type, the screen's
        // label, and the directory server's RRes.
        #expect(messages.first { $0.0 == "AReq" }?.1["messageCategory"] as? String == "01")
        #expect(rreq["messageCategory"] as? String == "01" && rreq["authenticationType"] as? String == "02")
        #expect(ares["acsReferenceNumber"] != nil && ares["dsReferenceNumber"] != nil && ares["authenticationType"] as? String == "02")
        #expect(messages.contains { $0.0 == "CRes" && $0.1["oobContinueLabel"] as? String == "Continue" })
        #expect(messages.last { $0.0 == "RRes" }?.1["resultsStatus"] as? String == "01")
    }

    @Test func cancellingTheFlowAtAChallengeSendsTheACSACancel() throws {
        let service = service()
        let frontEnd = paying("4000000000002503")
        let id = service.start(.payerAuth)
        #expect(service.drive(frontEnd) { !frontEnd.challengeScreens.isEmpty })
        service.cancel(flowID: id)
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        #expect(frontEnd.results.first?.outcome == .cancelled)
        #expect(frontEnd.results.first?.payment?.challengeCancel == "01")
    }

    @Test func cancelAtTheCardFormSendsNo3DSMessage() throws {
        let frontEnd = RecordingFrontEnd { _ in .cancel }
        let result = try #require(service().run(.payerAuth, with: frontEnd))
        #expect(result.outcome == .cancelled)
        #expect(result.failedStep == .paymentDetails)
        #expect(result.payment == nil)
        #expect(!frontEnd.steps(of: result.flowID).contains { $0.hasSuffix("AReq") })
    }

    @Test func cancelWhileThePageIsLoadingDisposesTheViewAndLeavesNoTimer() throws {
        let service = service(FlowConfiguration(bridgeFaults: BridgeFaults(readyNeverComes: true)))
        let frontEnd = RecordingFrontEnd()
        let id = service.start(.payerAuth)
        #expect(clock.waitForPendingTimers(atLeast: 1))
        service.cancel(flowID: id)
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        #expect(frontEnd.results.first?.outcome == .cancelled)
        // The cancel names the call the screen showed in flight, the page's load (it said configure).
        #expect(frontEnd.results.first?.failedStep == FlowStep("load"))
        #expect(frontEnd.results.first?.error?.message.contains("while load was in flight") == true)
        // The result screen says it as what it is.
        let said = try #require(frontEnd.results.first?.summary.row("what happened")?.value)
        #expect(said.hasPrefix("Cancelled while the Drops page was loading"), "\(said)")
        #expect(frontEnd.prompts.isEmpty)
        #expect(clock.pendingTimerCount == 0)
    }

    /// Every ack lost: the SDK resends three times, gives up without a word to the app (as Safepay's React Native
    /// host does), and the payment the page goes on with ends as the card's does. It ended in onSafepayError,
    /// dropping the page's own result.
    @Test func whenEveryAckIsLostTheRetriesRunOutAndThePaymentGoesOn() throws {
        let service = service(FlowConfiguration(bridgeFaults: BridgeFaults(loseEveryAck: true)))
        let frontEnd = RecordingFrontEnd()  // leaves the card form open
        let id = service.start(.payerAuth)
        for attempt in 1...4 {
            #expect(service.drive(frontEnd) {
                frontEnd.steps(of: id).filter { $0 == "SafepayDrops→Drops safepay-property-update" }.count >= attempt
            })
            clock.advance(by: .milliseconds(1500))
        }
        // The SDK's own note, on its lane: nothing is sent to the page.
        #expect(service.drive(frontEnd) { frontEnd.steps(of: id).contains("SafepayDrops→SafepayDrops gave up") })
        #expect(frontEnd.results.isEmpty, "nothing ends the payment")
        let prompt = try #require(frontEnd.prompts.first)
        let request = try #require(prompt.request as? PaymentDetailsRequest)
        let details = try PaymentForm.details(card: "4000000000002701", expiry: "12/30", amount: request.defaults.amount,
                                              currency: request.defaults.currency, merchant: request.defaults.merchant)
        service.answer(prompt, with: .payment(details))
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        let result = try #require(frontEnd.results.first)
        #expect(result.outcome == .success)
        #expect(result.payment?.callback == "onPayerAuthenticationFrictionless")
        #expect(frontEnd.steps(of: result.flowID).filter { $0 == "SafepayDrops→Drops safepay-property-update" }.count == 4)
    }

    @Test(arguments: [
        ("4000009900000012", PromptAnswer.challenge(.answer(.select([2]))), "Y", nil as String?),
        ("4000009900000020", .challenge(.answer(.select([0, 2]))), "Y", nil),
        ("4000009900000038", .challenge(.decideOnOtherDevice(approve: true)), "Y", nil),
        ("4000009900000038", .challenge(.decideOnOtherDevice(approve: false)), "N", nil),
        ("4000009900000046", .challenge(.answer(.unsupportedInterface)), "U", "06"),
    ])
    func everyChallengeTypeRunsThroughTheService(card: String, answer: PromptAnswer, status: String, cancel: String?) throws {
        let frontEnd = paying(card, actions: [answer])
        let result = try #require(service().run(.payerAuth, with: frontEnd))
        #expect(result.payment?.transStatus == status)
        #expect(result.payment?.challengeCancel == cancel)
        #expect(result.outcome == (status == "Y" ? .success : .failure))
    }

    @Test func anUnansweredChallengeTimesOutAtTheSDK() throws {
        let service = service(FlowConfiguration(promptTimeout: .seconds(300)))
        let frontEnd = paying("4000000000002503")
        service.start(.payerAuth)
        #expect(service.drive(frontEnd) { !frontEnd.challengeScreens.isEmpty })
        clock.advance(by: .seconds(300))
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        let result = try #require(frontEnd.results.first)
        #expect(result.outcome == .failure)
        #expect(result.status == "PROMPT_TIMEOUT")
        #expect(result.payment?.challengeCancel == "08")
        // What happened says why both ends' codes (08 at the SDK, 14 at the ACS) are there: it said nothing.
        #expect(result.error?.message == "the challenge was not answered within 300 s: the 3DS SDK closed it (challengeCancel 08), and the ACS ended the transaction as timed out (reason 14)")
    }

    /// A card form left open times out with a message that holds whether or not something was typed in it (it said
    /// "nobody filled in the card form", which a user who typed a number and went away did not recognise).
    @Test func aCardFormLeftOpenTimesOutAsNotSubmitted() throws {
        let service = service(FlowConfiguration(promptTimeout: .seconds(300)))
        let frontEnd = RecordingFrontEnd()
        service.start(.payerAuth)
        #expect(service.drive(frontEnd) { !frontEnd.prompts.isEmpty })
        clock.advance(by: .seconds(300))
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        let result = try #require(frontEnd.results.first)
        #expect(result.status == "PROMPT_TIMEOUT")
        #expect(result.error?.message == "the card form was not submitted within 300 s")
        #expect(frontEnd.events(of: result.flowID).contains { $0.detail == "the card form was not submitted within 300 s" })
    }

    @Test func anAnswerOfTheWrongKindLeavesThePromptOpen() throws {
        let service = service()
        let frontEnd = RecordingFrontEnd()
        service.start(.payerAuth)
        #expect(service.drive(frontEnd) { !frontEnd.prompts.isEmpty })
        let prompt = try #require(frontEnd.prompts.first)
        #expect(!service.answer(prompt, with: .credentials(["username": Secret("alice")])))
        #expect(!service.answer(prompt, with: .challenge(.answer(.resend))))
        #expect(service.answer(prompt, with: .cancel))
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
    }

    @Test func theCardFormAcceptsWhatAPaymentFormShould() throws {
        let details = try PaymentForm.details(card: "4000 0000 0000 2503", expiry: "1/2031", amount: "5.5", currency: "usd", merchant: " Shop ")
        #expect(details.card.digits == "4000000000002503")
        #expect(details.expiryMonth == 1 && details.expiryYear == 2031)
        #expect(details.amountMinorUnits == 550)
        #expect(details.currency == "USD")
        #expect(details.merchantName == "Shop")
        // The digits alone are an expiry too, as a payment form formats them.
        let digitsOnly = try PaymentForm.details(card: "4000000000002503", expiry: "1230", amount: "1", currency: "EUR", merchant: "m")
        #expect(digitsOnly.expiryMonth == 12 && digitsOnly.expiryYear == 2030)
        // Leading zeros are not digits of the amount (ten characters, one of them significant).
        let padded = try PaymentForm.details(card: "4000000000002503", expiry: "1230", amount: "0000000001.50", currency: "EUR", merchant: "m")
        #expect(padded.amountMinorUnits == 150)
        let bad: [(String, String, String, String, String, PaymentField)] = [
            ("4000000000002502", "12/30", "1", "EUR", "m", .card),
            ("1234", "12/30", "1", "EUR", "m", .card),
            ("4000000000002503", "13/30", "1", "EUR", "m", .expiry),
            ("4000000000002503", "12-30", "1", "EUR", "m", .expiry),
            ("4000000000002503", "123", "1", "EUR", "m", .expiry),
            ("4000000000002503", "01/2912", "1", "EUR", "m", .expiry),
            ("4000000000002503", "12/1999", "1", "EUR", "m", .expiry),
            ("4000000000002503", "12/-1", "1", "EUR", "m", .expiry),
            ("4000000000002503", "12/+9", "1", "EUR", "m", .expiry),
            ("4000000000002503", "12/0030", "1", "EUR", "m", .expiry),
            ("4000000000002503", "12/30", "0", "EUR", "m", .amount),
            ("4000000000002503", "12/30", "1.234", "EUR", "m", .amount),
            ("4000000000002503", "12/30", "-1", "EUR", "m", .amount),
            ("4000000000002503", "12/30", "1", "EURO", "m", .currency),
            ("4000000000002503", "12/30", "1", "XYZ", "m", .currency),
            ("4000000000002503", "12/30", "1", "JPY", "m", .currency),
            ("4000000000002503", "12/30", "1", "EUR", " ", .merchant),
        ]
        for (card, expiry, amount, currency, merchant, field) in bad {
            #expect(throws: PaymentFormProblem.self) {
                try PaymentForm.details(card: card, expiry: expiry, amount: amount, currency: currency, merchant: merchant)
            }
            do {
                _ = try PaymentForm.details(card: card, expiry: expiry, amount: amount, currency: currency, merchant: merchant)
            } catch {
                #expect(error.field == field)
                #expect(!error.message.contains(card))
            }
        }
        #expect(PaymentForm.cardHint("4000 0000 0000 2503") == ("Visa · Luhn ✓", true))
        #expect(PaymentForm.cardHint("4000000000002502").valid == false)
        #expect(PaymentForm.cardHint("3400").text == "American Express · 4/15")
        // Past the usual 16, a Visa counts towards 19; at 19 it is checked.
        #expect(PaymentForm.cardHint("40000000000000000").text == "Visa · 17/19")
        #expect(PaymentForm.cardHint("4000000000000000006") == ("Visa · Luhn ✓", true))
        #expect(PaymentForm.cardHint("40000000000000000060").text == "Visa · too long")
        // A 13-digit Visa that passes the check is complete; one that fails is still being typed.
        #expect(PaymentForm.cardHint("4222222222222") == ("Visa · Luhn ✓", true))
        #expect(PaymentForm.cardHint("4000000000000").text == "Visa · 13/16")
    }
}
