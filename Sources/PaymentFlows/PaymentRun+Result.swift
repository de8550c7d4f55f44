import Crypto
import Determinism
import Dispatch
import DropsWeb
import FlowEngine
import FlowRecords
import IdentityProvider
import SafepayDropsSDK
import Synchronization
import Threading
import ThreeDSecure

// A payment's result: the engine's, with the payment's outcome, its next action and the advice they call for.
extension PaymentRun {
    // MARK: The result

    /// The engine's result for a cancel that ended the flow while a call was under way (``FlowRun/call``): once the
    /// card was sent, the payment had started, and the result carries it and its next action, as every payment's does.
    /// A cancel on a challenge screen whose CReq (challengeCancel 01) was in flight is that cancel, with its code.
    func cancelled(_ base: FlowResult) -> FlowResult {
        guard base.payment == nil, state.withLock({ $0.details }) != nil else { return base }
        guard state.withLock({ $0.cardholderCancelled }) else { return with(outcome(callback: nil, nil, .retry), base) }
        let values = ThreeDSecureOutcome(
            transStatus: nil, transStatusReason: nil, eci: nil, challengeCancel: ChallengeCancel.cardholderSelectedCancel.rawValue)
        let cancelled = FlowResult(
            flowID: base.flowID, flow: base.flow, outcome: base.outcome, status: base.status, failedStep: .challengeScreen,
            error: FlowError(subsystem: nil, code: nil,
                             message: "cancelled on the challenge screen: challengeCancel 01 went to the ACS, and the flow ended before its answer reached the app"),
            duration: base.duration, advice: base.advice, details: base.details)
        return with(outcome(callback: nil, values, .retry), cancelled)
    }

    private func outcome(callback: String?, _ values: ThreeDSecureOutcome?, _ next: NextAction?) -> PaymentOutcome {
        let details = state.withLock { $0.details }
        return PaymentOutcome(
            callback: callback, threeDSecure: values, nextAction: next, card: details?.card.description,
            brand: details?.card.brand.rawValue,
            amount: details.map { AccessControlServer.format($0.amountMinorUnits, $0.currency) }, merchant: details?.merchantName)
    }

    /// `base` with `payment` and the advice it calls for.
    private func with(_ payment: PaymentOutcome?, _ base: FlowResult) -> FlowResult {
        // A failure to retry that a network fault on now explains says so, as the IdP's flows do ("bring the network back").
        // A latency the page's ready timeout (the shortest wait a payment's round trip meets) does not wait out
        // ends the payment at its load whatever else happens.
        // The shorter of the page's ready timer and the request timeout gives up first (a scenario may cut either).
        // Past the load (a latency switched on at the card form), only the request's own timeout waits on it: the
        // advice named the page's ready timer for a page that had been ready (the reviewer's find).
        // The first CReq meets the ACS's first-CReq timer too, which a scenario may set under the request's timeout.
        let world = run.service.world, timeout = world.network.requestTimeout
        let atLoad = base.failedStep == nil || base.failedStep == .configure || base.failedStep == FlowStep("load")
        let atFirstCReq = base.failedStep == FlowStep("CReq") && !state.withLock { $0.screenShown }
        let (limit, gaveUp): (Duration, String) = {
            let request = "the request gives up after \(timeout.secondsText)"
            if atLoad, case let ready = world.bridgeTiming(settings.bridgeTiming).readyTimeout, ready <= timeout {
                return (ready, "the Drops page must be ready within \(ready.secondsText)")
            }
            if atFirstCReq, case let acs = world.scenario.threeDSTimers.firstCReq, acs < timeout {
                return (acs, "the ACS's first-CReq timer ends the challenge after \(acs.secondsText)")
            }
            return (timeout, request)
        }()
        let network: String? = base.outcome != .failure || payment?.nextAction != .retry ? nil
            : world.identityFaults.networkUnavailable ? "Bring the network back (the network-unavailable fault), then run 3-D Secure again."
            : world.network.slowness(beyond: limit)?.advice(gaveUp: gaveUp, then: "run 3-D Secure again")
        // A bridge or 3-D Secure fault on may explain a failure: named after the payment's own advice (which N
        // keeps from offering to authorise), as the identity flows name theirs ("turn the server-error fault off").
        // "Run 3-D Secure again" alone had sent the tester into the same fault (the Drops page never got ready).
        // The network's are left to the branch above: a latency within the timeouts explains nothing. Only when one
        // bit this payment, and only those that did: one merely switched on (a wrong origin on a payment whose card is
        // refused, an ACS fault behind a directory server's) explains nothing.
        // Lost acks never change how a payment ends (the page has its configuration; the payment ends as its card
        // does), and nothing explains a cardholder who did not answer (PROMPT_TIMEOUT): neither is named ("every bridge
        // ack lost" was named beside a challenge that timed out, and sent a tester after the bridge).
        let struck = state.withLock { state in
            state.faults.activeNames { state.faultsHit.contains($0) && $0 != .loseAcks && $0 != .loseEveryAck }
        }
        let faultsOn = base.outcome == .failure && network == nil && base.status != EngineStatus.promptTimeout ? struck : []
        let faults: String? = faultsOn.isEmpty ? nil
            : (payment?.advice ?? base.advice).map { "\($0) Faults were on (\(faultsOn.joined(separator: "; "))): turn them off to rule them out." }
        var result = FlowResult(
            flowID: base.flowID, flow: base.flow, outcome: base.outcome, status: base.status, failedStep: base.failedStep,
            error: base.error, duration: base.duration,
            // An abort's advice is to fix the input; the payment's next action stays in its object. A cancel is the
            // cardholder's "no": it never advises authorising without liability shift, which a retry's advice offers.
            advice: EngineStatus.isAbort(base.status) ? base.advice
                : base.outcome == .cancelled && payment?.nextAction == .retry ? PaymentOutcome.retryWithoutAuthorising
                : network ?? faults ?? payment?.advice ?? base.advice,
            details: base.details)
        result.payment = payment
        return result
    }

    func result(of end: PaymentEnd) -> FlowResult {
        func outcome(_ callback: String?, _ values: ThreeDSecureOutcome?, _ next: NextAction?) -> PaymentOutcome {
            self.outcome(callback: callback, values, next)
        }
        func error(_ message: String, code: Int? = nil) -> FlowError { FlowError(subsystem: nil, code: code, message: message) }
        func ended(_ flowOutcome: FlowOutcome, _ status: String, at step: FlowStep?, _ failure: FlowError?, _ payment: PaymentOutcome?) -> FlowResult {
            with(payment, run.result(flowOutcome, status: status, step: step, error: failure))
        }
        let failedChallengeStep: FlowStep = state.withLock { $0.screenShown } ? .challengeScreen : FlowStep("CReq")
        switch end {
        case .frictionless(let data):
            return ended(.success, PaymentStatus.frictionless, at: nil, nil,
                         outcome("onPayerAuthenticationFrictionless", data.threeDSecure, .proceedWithLiabilityShift))
        case .success(let data):
            return ended(.success, PaymentStatus.authenticated, at: nil, nil,
                         outcome("onPayerAuthenticationSuccess", data.threeDSecure, .proceedWithLiabilityShift))
        case .failure(let data):
            let values = data.threeDSecure
            let callback = "onPayerAuthenticationFailure"
            switch (values?.challengeCancel.flatMap(ChallengeCancel.init), values?.transStatus) {
            case (.cardholderSelectedCancel?, _):
                let decided = state.withLock { $0.otherDeviceDecision }.map { " after \($0 ? "approving" : "refusing") on the other device" } ?? ""
                return ended(.cancelled, EngineStatus.cancelled, at: .challengeScreen,
                             error("cancelled on the challenge screen\(decided): the ACS ended it with challengeCancel 01"),
                             outcome(callback, values, .retry))
            case (.transactionError?, _) where isAborted:
                return ended(.cancelled, EngineStatus.cancelled, at: .challengeScreen,
                             error("the challenge was abandoned: the ACS ended it with challengeCancel 06, transaction error"),
                             outcome(callback, values, .retry))
            case (.timedOutAtSDK?, _):
                // Both ends' words: challengeCancel 08 ("at the SDK") showed beside reason 14 ("at the ACS") unexplained.
                let why = "the challenge was not answered within \(timeoutText): the 3DS SDK closed it (challengeCancel 08), and the ACS ended the transaction as timed out (reason 14)"
                return ended(.failure, EngineStatus.promptTimeout, at: .challengeScreen, error(why), outcome(callback, values, .retry))
            case (.timedOutAtACS?, _), (.firstCReqNotReceived?, _):
                return ended(.failure, PaymentStatus.authenticationFailed, at: failedChallengeStep, error(data.error),
                             outcome(callback, values, .retry))
            case (_, TransStatus.couldNotBePerformed.rawValue?):
                // Cardinal: after an error on authentication, authorise without liability shift; after a step-up
                // the issuer could not run, retry or do so.
                let next: NextAction = values?.errorComponent == "A" ? .proceedWithoutLiabilityShift : .retry
                return ended(.failure, PaymentStatus.authenticationUnavailable, at: failedChallengeStep, error(data.error),
                             outcome(callback, values, next))
            case (nil, nil) where values?.acsTransID != nil:
                // The 3DS SDK's runtime error (it could not reach the ACS): the challenge ended on the device with no
                // final transStatus; the ACS's own timer ends it N later, which rules out authorising (the advice's).
                return ended(.failure, PaymentStatus.authenticationUnavailable, at: failedChallengeStep, error(data.error),
                             outcome(callback, values, .retry))
            default:
                return ended(.failure, PaymentStatus.authenticationFailed, at: failedChallengeStep, error(data.error),
                             outcome(callback, values, .doNotAuthorise))
            }
        case .unavailable(let data):
            let values = data.threeDSecure
            let refused = values?.transStatus == TransStatus.notAuthenticated.rawValue || values?.transStatus == TransStatus.rejected.rawValue
            return ended(.failure, refused ? PaymentStatus.authenticationFailed : PaymentStatus.authenticationUnavailable,
                         at: FlowStep(values?.transStatus == nil ? "lookup" : "ARes"), error(data.errorMessage ?? "authentication unavailable"),
                         outcome("onPayerAuthenticationUnavailable", values, refused ? .doNotAuthorise : .proceedWithoutLiabilityShift))
        case .safepayError(let data):
            return ended(.failure, PaymentStatus.safepayError, at: stage, error(data.error.message, code: data.error.status),
                         outcome(Callback.safepayError, nil, .retry))
        case .formClosed:
            return ended(.cancelled, EngineStatus.cancelled, at: .paymentDetails,
                         error(isAborted ? "the card form was closed before any 3-D Secure message was sent"
                                         : "cancelled at the card form, before any 3-D Secure message was sent"), nil)
        case .formTimedOut:
            return ended(.failure, EngineStatus.promptTimeout, at: .paymentDetails,
                         error("the card form was not submitted within \(timeoutText)"), nil)
        }
    }
}
