import DropsWeb
import Foundation
import SafepayDropsSDK
import Secrets
import Testing
import ThreeDSecure

@Suite struct CallbackPathTests {
    /// The app's collection URL may carry its JWT in the query: the flow's log names the URL without it (the 3DS
    /// Method's line had it whole). The property update is logged whole, as the page gets it (the log's detail view
    /// showed only its messageId), with the merchant's credentials redacted as the configuration prints them.
    @Test func theLogKeepsNoCredentialAndThePropertyUpdateWhole() throws {
        var configuration = DropsHarness.configuration
        configuration.deviceDataCollectionURL = "https://collect.example/V1/Collect?jwt=eyJ5ecret.jwt"
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"))
        harness.start(configuration)
        #expect(harness.delegate.wait(for: 1))
        let log = harness.log.withLock { $0 }.map { "\($0.detail) \($0.message ?? "")" }.joined(separator: "\n")
        #expect(log.contains("device data collection to https://collect.example/V1/Collect?<redacted>"), "\(log)")
        #expect(!log.contains("token-abc") && !log.contains("eyJhbGciOi") && !log.contains("5ecret"), "\(log)")
        let message = try #require(harness.logged("safepay-property-update").first?.message)
        for shown in [#""tracker":"trk_42""#, #""authToken":"<redacted>""#, #""deviceDataCollectionJWT":"<redacted>""#,
                      #""do_capture":true"#, #""street_1":"1 Main St""#, #""type":"safepay-property-update""#,
                      #""deviceDataCollectionURL":"https://collect.example/V1/Collect?<redacted>""#] {
            #expect(message.contains(shown), "\(message)")
        }
    }

    @Test func frictionlessSuccessCallsFrictionlessOnly() throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"))
        harness.start()
        #expect(harness.delegate.wait(for: 1))
        guard case .frictionless(let data)? = harness.delegate.calls.withLock({ $0.first }) else {
            Issue.record("expected frictionless, got \(harness.delegate.names)"); return
        }
        #expect(data.tracker == "trk_42")
        let outcome = try #require(data.threeDSecure)
        #expect(outcome.transStatus == "Y" && outcome.transStatusReason == nil && outcome.eci == "05" && outcome.challengeCancel == nil)
        #expect(outcome.enrolled == "Y" && outcome.messageVersion == "2.2.0" && outcome.signatureVerification == "Y")
        #expect(outcome.threeDSCompInd == "Y")
        #expect(outcome.authenticationValue?.count == 9, "the CAVV is cut to 8 characters and an ellipsis")
        #expect(harness.isVisible)
    }

    @Test func attemptsProcessingIsFrictionlessWithECI06() throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002719"))
        harness.start()
        #expect(harness.delegate.wait(for: 1))
        guard case .frictionless(let data)? = harness.delegate.calls.withLock({ $0.first }) else { Issue.record("\(harness.delegate.names)"); return }
        #expect(data.threeDSecure?.transStatus == "A")
        #expect(data.threeDSecure?.eci == "06")
    }

    @Test(arguments: [("4000000000002925", "N", "01"), ("4000000000002537", "R", "11"), ("4000000000002313", "U", "22")])
    func failuresBeforeAnyChallengeAreUnavailableWithAMessage(_ card: String, _ status: String, _ reason: String) throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: card))
        harness.start()
        #expect(harness.delegate.wait(for: 1))
        guard case .unavailable(let data)? = harness.delegate.calls.withLock({ $0.first }) else { Issue.record("\(harness.delegate.names)"); return }
        #expect(data.errorMessage?.hasPrefix("transStatus \(status):") == true)
        #expect(data.errorMessage?.contains("reason \(reason)") == true)
        #expect(data.threeDSecure?.transStatus == status)
    }

    @Test func aChallengeCallsRequiredThenSuccess() throws {
        let cardholder = ScriptedCardholder(card: "4000000000002503", actions: [.answer(.code(Secret("1234")))])
        let harness = DropsHarness(cardholder: cardholder)
        harness.start()
        #expect(harness.delegate.wait(for: 2))
        #expect(harness.delegate.names == ["required", "success"])
        guard case .success(let data)? = harness.delegate.calls.withLock({ $0.last }) else { return }
        // No card kept on file: no payment method, as Safepay's success payload shows (`"payment_method": null`).
        #expect(data.paymentMethod == nil)
        #expect(data.requestId.hasPrefix("req_"), "Safepay's request ids: \(data.requestId)")
        #expect(data.threeDSecure?.transStatus == "Y")
        #expect(data.threeDSecure?.eci == "05")
        let screen = try #require(cardholder.screens.withLock { $0.first })
        #expect(screen.maskedCard == "•••• 2503")
        #expect(screen.amount == "EUR 49.99")
    }

    /// `do_card_on_file` keeps the card: the success names its payment method.
    @Test func aCardKeptOnFileHasAPaymentMethod() throws {
        let cardholder = ScriptedCardholder(card: "4000000000002503", actions: [.answer(.code(Secret("1234")))])
        let harness = DropsHarness(cardholder: cardholder)
        let base = DropsHarness.configuration
        harness.start(SafepayPayerAuthenticationConfiguration(
            environment: base.environment, authToken: base.authToken, tracker: base.tracker,
            deviceDataCollectionJWT: base.deviceDataCollectionJWT, deviceDataCollectionURL: base.deviceDataCollectionURL,
            billing: base.billing, authorizationOptions: AuthorizationOptions(doCapture: true, doCardOnFile: true)))
        #expect(harness.delegate.wait(for: 2))
        guard case .success(let data)? = harness.delegate.calls.withLock({ $0.last }) else { Issue.record("\(harness.delegate.names)"); return }
        #expect(data.paymentMethod?.hasPrefix("pm_") == true)
    }

    /// The directory server refusing the AReq (no amount) reaches the app as Safepay's API error: status 400 and
    /// the type its payloads name.
    @Test func aRefusedRequestIsASafepayAPIError() throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701", amount: 0))
        harness.start()
        #expect(harness.delegate.wait(for: 1))
        guard case .error(let error)? = harness.delegate.calls.withLock({ $0.last }) else { Issue.record("\(harness.delegate.names)"); return }
        #expect(error.error.status == 400)
        #expect(error.error.type == "SafepayAPIError")
    }

    /// The page is loaded with Drops' own origin as `parentOrigin`, encoded as `encodeURIComponent` does, as
    /// Safepay's React Native host loads it (it was `app://idp-tui`, its `:` and `/` left as they were).
    @Test func thePageIsLoadedWithDropsOwnOrigin() throws {
        #expect(SafepayEnvironment.sandbox.pageURL
            == "https://sandbox.api.getsafepay.com/drops/authlink?parentOrigin=https%3A%2F%2Fsandbox.api.getsafepay.com")
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"))
        harness.start()
        #expect(harness.delegate.wait(for: 1))
        #expect(harness.logged("load").first?.detail == SafepayEnvironment.sandbox.pageURL)
    }

    /// A failure's `request_id` is null, as Safepay's failure payload shows it.
    @Test func aFailureHasNoRequestId() throws {
        let wrong = CardholderAction.answer(.code(Secret("9999")))
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002503", actions: [wrong, wrong, wrong]))
        harness.start()
        #expect(harness.delegate.wait(for: 2))
        guard case .failure(let data)? = harness.delegate.calls.withLock({ $0.last }) else { Issue.record("\(harness.delegate.names)"); return }
        #expect(data.requestId == nil)
    }

    @Test func wrongCodesUntilTheLimitCallFailure() throws {
        let wrong = CardholderAction.answer(.code(Secret("9999")))
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "5200000000002151", actions: [wrong, wrong, wrong]))
        harness.start()
        #expect(harness.delegate.wait(for: 2))
        #expect(harness.delegate.names == ["required", "failure"])
        guard case .failure(let data)? = harness.delegate.calls.withLock({ $0.last }) else { return }
        #expect(data.threeDSecure?.transStatusReason == "19")
        #expect(data.threeDSecure?.eci == "00", "Mastercard's not-authenticated ECI")
        #expect(harness.cardholder.screens.withLock { $0.map(\.attemptsLeft) } == [3, 2, 1])
    }

    @Test func cancelOnTheChallengeIsAFailureWithChallengeCancel01() throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "340000000002534", actions: [.answer(.cancel)]))
        harness.start()
        #expect(harness.delegate.wait(for: 2))
        guard case .failure(let data)? = harness.delegate.calls.withLock({ $0.last }) else { Issue.record("\(harness.delegate.names)"); return }
        #expect(data.threeDSecure?.challengeCancel == "01")
        #expect(data.error.contains("the cardholder selected Cancel"))
    }

    @Test func everyChallengeTypeCompletes() throws {
        let cases: [(String, [CardholderAction], String)] = [
            ("4000009900000012", [.answer(.select([2]))], "success"),
            ("4000009900000020", [.answer(.select([0, 2]))], "success"),
            ("4000009900000038", [.answer(.continueOutOfBand), .decideOnOtherDevice(approve: true)], "success"),
            ("4000009900000046", [.answer(.unsupportedInterface)], "failure"),
        ]
        for (card, actions, outcome) in cases {
            let harness = DropsHarness(cardholder: ScriptedCardholder(card: card, actions: actions))
            harness.start()
            #expect(harness.delegate.wait(for: 2), "\(card)")
            #expect(harness.delegate.names == ["required", outcome], "\(card)")
        }
    }

    @Test(arguments: [
        ("authToken", "bad configuration: authToken is empty"),
        ("tracker", "bad configuration: tracker is empty"),
        ("url", "bad configuration: deviceDataCollectionURL is not an http(s) URL"),
        ("jwt", "bad configuration: deviceDataCollectionJWT is empty"),
        // Not echoed: the URL may carry the JWT, and apps log what reaches onSafepayError.
        ("ftp", "bad configuration: deviceDataCollectionURL is not an http(s) URL (its scheme is \"ftp\")"),
    ])
    func aBadConfigurationReachesOnSafepayError(_ field: String, _ message: String) throws {
        var configuration = DropsHarness.configuration
        switch field {
        case "authToken": configuration.authToken = " "
        case "tracker": configuration.tracker = ""
        case "jwt": configuration.deviceDataCollectionJWT = " "
        case "ftp": configuration.deviceDataCollectionURL = "ftp://collect.example/?jwt=SECRET.JWT"
        default: configuration.deviceDataCollectionURL = "not a url"
        }
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"))
        harness.start(configuration)
        #expect(harness.delegate.wait(for: 1))
        #expect(harness.delegate.calls.withLock { $0 } == [.error(SafepayErrorData(message: message, status: 400))])
    }

    /// A view is configured again for the next payment: a bad configuration then is reported as on a new view,
    /// after `configure` returns (never inside it), and the view is no longer shown.
    @Test func aViewConfiguredAgainAfterItsPaymentReportsABadConfiguration() throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"))
        harness.start()
        #expect(harness.delegate.wait(for: 1))
        #expect(harness.isVisible)
        var bad = DropsHarness.configuration
        bad.tracker = ""
        let view = harness.view
        let duringConfigure = onMain {
            view.configure(bad)
            return harness.delegate.calls.withLock { $0.count }
        }
        #expect(duringConfigure == 1, "nothing is reported before configure returns")
        #expect(harness.delegate.wait(for: 2))
        #expect(harness.delegate.names == ["frictionless", "error"])
        #expect(!harness.isVisible)
    }

    @Test func aDisposedViewIsNoLongerVisible() throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"))
        harness.start()
        #expect(harness.delegate.wait(for: 1))
        #expect(harness.isVisible)
        harness.dispose()
        #expect(!harness.isVisible)
    }
}

@Suite struct BridgeFaultTests {
    @Test func aLostAckIsRecoveredByARetry() throws {
        let cardholder = ScriptedCardholder(card: "4000000000002701", gated: true)
        let harness = DropsHarness(cardholder: cardholder, faults: BridgeFaults(lostAcks: 1))
        harness.start()
        #expect(harness.waitForLog { $0.contains { $0.name == "safepay-property-update" } })
        harness.clock.advance(by: .milliseconds(1500))
        #expect(harness.waitForLog { $0.contains { $0.name == "safepay-inframe__ack" } })
        #expect(harness.logged("safepay-property-update").map(\.detail).last?.contains("resent (attempt 2)") == true)
        cardholder.open()
        #expect(harness.delegate.wait(for: 1))
        harness.clock.advance(by: .seconds(60))
        #expect(harness.delegate.names == ["frictionless"])
    }

    /// Retries spent, the SDK stops resending and tells the delegate nothing (Safepay's React Native host drops the
    /// message); the page, which had the configuration, sends the payment's own result. It was onSafepayError.
    @Test func whenEveryAckIsLostTheRetriesRunOutInSilence() throws {
        let cardholder = ScriptedCardholder(card: "4000000000002701", gated: true)
        let harness = DropsHarness(cardholder: cardholder, faults: BridgeFaults(loseEveryAck: true))
        harness.start()
        for attempt in 1...4 {
            #expect(harness.waitForLog { $0.filter { $0.name == "safepay-property-update" }.count >= attempt })
            harness.clock.advance(by: .milliseconds(1500))
        }
        #expect(harness.waitForLog { $0.contains { $0.name == "gave up" } })
        #expect(harness.logged("gave up").first?.detail.contains("no ack after 4 attempts") == true)
        #expect(harness.delegate.calls.withLock { $0 }.isEmpty)
        cardholder.open()
        #expect(harness.delegate.wait(for: 1))
        #expect(harness.delegate.names == ["frictionless"])
        harness.dispose()
    }

    @Test(arguments: [
        (BridgeFaults(readyNeverComes: true), "the Drops page never sends safepay-inframe__ready"),
        (BridgeFaults(wrongOrigin: true), "the Drops page posts from https://elsewhere.example, not its own origin"),
    ])
    func aPageThatCannotGetReadySaysWhichFaultBit(faults: BridgeFaults, fault: String) throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"), faults: faults)
        harness.start()
        #expect(harness.waitForLog { $0.contains { $0.name == "fault" } })
        #expect(harness.logged("fault").map(\.detail) == [fault])
        harness.clock.advance(by: .seconds(10))
        #expect(harness.delegate.wait(for: 1))
    }

    @Test func aPageThatNeverGetsReadyEndsInOnSafepayError() throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"), faults: BridgeFaults(readyNeverComes: true))
        harness.start()
        harness.clock.advance(by: .seconds(10))
        #expect(harness.delegate.wait(for: 1))
        #expect(harness.delegate.calls.withLock { $0 } == [.error(SafepayErrorData(message: "the Drops page did not become ready within 10 s", status: nil))])
    }

    @Test func aMalformedMessageAndAnUnknownEventAreLoggedAndTheFlowGoesOn() throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"),
                                   faults: BridgeFaults(malformedMessage: true, unknownEvent: true))
        harness.start()
        #expect(harness.delegate.wait(for: 1))
        #expect(harness.delegate.names == ["frictionless"])
        let rejected = harness.logged("rejected").map(\.detail)
        #expect(rejected.contains { $0.hasPrefix("malformed message ignored") })
        #expect(rejected.contains("unknown event \"safepay-inframe__mystery\" logged and ignored"))
    }

    @Test func messagesFromTheWrongOriginAreIgnoredSoThePageNeverBecomesReady() throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"), faults: BridgeFaults(wrongOrigin: true))
        harness.start()
        #expect(harness.waitForLog { $0.contains { $0.name == "rejected" } })
        harness.clock.advance(by: .seconds(10))
        #expect(harness.delegate.wait(for: 1))
        #expect(harness.delegate.names == ["error"])
        #expect(harness.logged("rejected").first?.detail == "message from https://elsewhere.example ignored: it is not the Drops origin")
    }

    @Test func disposeMidFlowLeavesNoTimerAndNoCallback() throws {
        let cardholder = ScriptedCardholder(card: "4000000000002701", gated: true)
        let harness = DropsHarness(cardholder: cardholder, faults: BridgeFaults(loseEveryAck: true))
        harness.start()
        #expect(harness.waitForLog { $0.contains { $0.name == "safepay-property-update" } })
        #expect(harness.clock.pendingTimerCount >= 1)
        harness.dispose()
        #expect(harness.clock.pendingTimerCount == 0)
        #expect(harness.bridgePending == (0, 0))
        cardholder.open()
        harness.clock.advance(by: .seconds(60))
        // The page's form returns into a disposed page; whatever the bridge still had on its way to the main
        // actor is dropped there (aCallbackAlreadyOnItsWayIsNotDeliveredOnceDisposeReturns).
        #expect(harness.clock.pendingTimerCount == 0)
        onMain {}
        #expect(harness.delegate.calls.withLock { $0 }.isEmpty)
    }

    @Test func aCallbackAlreadyOnItsWayIsNotDeliveredOnceDisposeReturns() throws {
        let cardholder = ScriptedCardholder(card: "4000000000002701", gated: true)
        let harness = DropsHarness(cardholder: cardholder)
        harness.start()
        let view = harness.view
        let log = harness.log
        // On the main actor, as the app would: the payment ends (its final callback is queued behind this block
        // on the main queue), then the app disposes of the view.
        let queued = onMain {
            cardholder.open()
            let deadline = ContinuousClock.now + .seconds(10)
            while !log.withLock({ $0.contains { $0.name == "safepay-inframe__enrollment__frictionless" } }) && ContinuousClock.now < deadline {
                usleep(1000)
            }
            view.dispose()
            return log.withLock { $0.contains { $0.name == "safepay-inframe__enrollment__frictionless" } }
        }
        #expect(queued, "the page sent its final event while the main actor was busy")
        onMain {}  // Everything queued before has run now.
        #expect(harness.delegate.calls.withLock { $0 }.isEmpty)
    }

    @Test func everyCallbackArrivesOnTheMainActor() throws {
        let cardholder = ScriptedCardholder(card: "4000000000002503", actions: [.answer(.code(Secret("1234")))])
        let harness = DropsHarness(cardholder: cardholder)
        harness.start()
        #expect(harness.delegate.wait(for: 2))
        #expect(harness.delegate.onMainActor.withLock { $0 } == [true, true])
    }

    @Test func aDelegateNeedsToImplementNoCallback() throws {
        final class Silent: SafepayPayerAuthenticationDelegate {}
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"))
        let silent = onMain { Silent() }
        let view = harness.view
        onMain { view.delegate = silent }
        harness.start()
        #expect(harness.waitForLog { $0.contains { $0.name == "safepay-inframe__enrollment__frictionless" } })
        onMain {}
        withExtendedLifetime(silent) {}
    }

    @Test func theControllerIsAThinProxy() throws {
        let harness = DropsHarness(cardholder: ScriptedCardholder(card: "4000000000002701"))
        let view = harness.view
        let controller = onMain { SafepayPayerAuthenticationController(view: view) }
        onMain { controller.configure(DropsHarness.configuration) }
        #expect(harness.delegate.wait(for: 1))
        onMain { controller.destroy() }
        #expect(harness.bridgePending == (0, 0))
    }

    @Test func theLogNeverShowsTheCodeOrTheFullCardNumber() throws {
        let cardholder = ScriptedCardholder(card: "4000000000002503", actions: [.answer(.code(Secret("0000"))), .answer(.code(Secret("1234")))])
        let harness = DropsHarness(cardholder: cardholder)
        harness.start()
        #expect(harness.delegate.wait(for: 2))
        let text = harness.log.withLock { $0.map { "\($0.name) \($0.detail)" }.joined(separator: "\n") }
        // As a number of its own: the AReq's purchaseDate (20261201234512) may hold 1234.
        #expect(text.range(of: "(?<![0-9])1234(?![0-9])", options: .regularExpression) == nil)
        #expect(!text.contains("4000000000002503"))
        #expect(text.contains("AReq"))
        #expect(text.contains("CReq"))
        #expect(text.contains("RReq"))
    }
}
