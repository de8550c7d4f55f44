import Crypto
import Foundation
import JSONText
import Threading
import ThreeDSecure

// The payment the page runs: the 3DS Method, the AReq, the challenge's CReqs, and the result it posts to the
// host; every round trip crosses the simulated network and meets the faults that are on (docs/faults.md).
extension DropsPage {
    // MARK: The payment

    func pay(tracker: String, collectionURL: String) async {
        guard !isDisposed, let details = await simulation.cardholder.enterPaymentDetails(), !isDisposed else { return }
        // Offline, the device data collection cannot reach the ACS either: nothing is logged as sent (the 3DS Method
        // read "threeDSCompInd Y" with the network off).
        if simulation.network?.isOffline == true, await paymentCannotReachSafepay() { return }
        let acs = simulation.acs
        let faults = simulation.faults.threeDS
        // Without its query: the app's collection URL may carry its JWT.
        let collection = "device data collection to \(urlForLogs(collectionURL))"
        let completion: String
        if faults.methodTimeout {
            let seconds = acs.timers.method.components.seconds
            // Logged before the wait, so that the screen and a cancel name the Method as the call in flight (they
            // named the card form, answered 10 s before); the fault after it, as every fault comes after the message
            // it strikes (the diagram put its ⚡ on the Drops lane).
            log("Drops", "ACS", "3DS Method", "\(collection); waiting for its completion (the method timer: \(seconds) s)")
            fault(.methodTimeout, "3DS Method never completes: the AReq waits \(seconds) s, then goes with threeDSCompInd N")
            await simulation.clock.sleep(for: acs.timers.method)
            completion = "N"
        } else {
            log("Drops", "ACS", "3DS Method", "\(collection); threeDSCompInd Y")
            completion = "Y"
        }
        let transactionID = Hex.uuid(simulation.random.bytes(16))
        // Safepay's own id of the request, as its payloads show it (`req_…`); the 3DS Server's is the bare UUID.
        let requestID = "req_\(transactionID)"
        let request = AuthenticationRequest(
            threeDSServerTransID: transactionID, card: details.card, expiryMonth: details.expiryMonth,
            expiryYear: details.expiryYear, amountMinorUnits: details.amountMinorUnits, currency: details.currency,
            merchantName: details.merchantName, methodCompletion: completion)
        // The page sends the payment to Safepay, whose 3DS Server sends the AReq: from a device that is offline
        // nothing leaves (no AReq), and a request that times out gets no answer. The page cannot reach Safepay at
        // all, which it reports through Safepay's catch-all error, to retry: not as the 3DS Server's Erro 405 and
        // Enrolled U, whose "may authorise" sent a QA tester down the wrong path with the network off.
        if simulation.network?.isOffline != true { log("Drops", "DS", ThreeDSMessage.areq(request, at: simulation.clock.now.date)) }
        if await paymentCannotReachSafepay() { return }
        let response: AuthenticationResponse
        do {
            if let failure = await lookupFailure(faults.directoryServer) {
                response = .noAnswer(to: request, error: failure)
            } else {
                response = try await acs.authenticate(request)
            }
        } catch {
            log("DS", "Drops", "Erro", error.description)
            send(name: InframeEventName.safepayError.rawValue,
                 detail: ["error": .object(["message": .string(error.description), "status": .number(400), "type": .string("SafepayAPIError")])])
            return
        }
        guard !isDisposed else { return }
        let base: [String: JSONValue] = ["tracker": .string(tracker), "request_id": .string(requestID)]
        guard let status = response.transStatus else {
            // No ARes: Cardinal's Enrolled U (an Erro, or nothing in time) or B (bypassed).
            if let error = response.error {
                // The 3DS Server's own Erro (402: no ARes in time) goes to the DS, as EMV 3DS has it: it was drawn as a
                // note on the page, as if it never left; the DS's comes back to the page. One saying the DS cannot be
                // reached (405) cannot reach it: a note on the page (it was drawn as delivered to the DS).
                let unsent = error.errorCode == ProtocolError.connectionFailure(.server).errorCode
                let (from, to) = error.errorComponent == .server ? ("Drops", unsent ? "Drops" : "DS") : ("DS", "Drops")
                log(from, to, ThreeDSMessage.erro(error, about: "AReq", of: .init(response)), status: error.errorCode)
            } else {
                log("DS", "Drops", "lookup", "Enrolled \(response.enrolled.rawValue): \(response.enrolled.meaning); no ARes", status: response.enrolled.rawValue)
            }
            let message = "Enrolled \(response.enrolled.rawValue): \(response.enrolled.meaning)" + (response.error.map { " (\($0))" } ?? "")
            send(name: InframeEventName.enrollmentFailed.rawValue,
                 detail: base.merging(["errorMessage": .string(message), "three_ds": .object(Self.outcome(response))]) { $1 })
            return
        }
        log("DS", "Drops", ThreeDSMessage.ares(response), status: status.rawValue)
        switch status {
        case .authenticated, .attempted:
            send(name: InframeEventName.enrollmentFrictionless.rawValue, detail: base.merging(["three_ds": .object(Self.outcome(response))]) { $1 })
        case .challengeRequired:
            send(name: InframeEventName.enrollmentRequired.rawValue, detail: base)
            await challenge(response, base: base)
        default:
            let message = "transStatus \(status.rawValue): \(status.meaning)"
                + (response.transStatusReason.map { " (reason \($0.rawValue): \($0.meaning))" } ?? "")
            send(name: InframeEventName.enrollmentFailed.rawValue,
                 detail: base.merging(["errorMessage": .string(message), "three_ds": .object(Self.outcome(response))]) { $1 })
        }
    }

    private func challenge(_ response: AuthenticationResponse, base: [String: JSONValue]) async {
        guard let acsTransID = response.acsTransID else { return }
        let ids = ThreeDSMessage.TransactionIDs(response)
        await simulation.cardholder.challengeWillStart()
        // The 3DS SDK's first CReq fetches the first screen.
        log("Drops", "ACS", ThreeDSMessage.creq(ids, nil))
        var reply: ChallengeResponse
        // Whether the ACS gets the first CReq: not when it was lost, and its first-CReq timer then ends the challenge.
        var acsHasACReq = true
        if let (which, unanswered) = firstCReqLost() {
            // A CReq that cannot leave the device is not lost on the way: the runtime error wins (a lost first
            // CReq won over an unreachable ACS and the network off, and the challenge ended N by the ACS's timer).
            // Checked, not crossed: a lost CReq meets no latency nor timeout (a round trip here added them to the
            // ACS's 30 s).
            // (An unreachable ACS never comes here: firstCReqLost leaves it to the exchange.)
            if simulation.network?.isOffline == true, case .unreachable(let why)? = await challengeFailure(nil) {
                acsUnreachable(why, first: true, response, base: base)
                return
            }
            acsHasACReq = false
            fault(which, unanswered)
            guard let result = await simulation.acs.awaitResult(acsTransID, within: simulation.acs.timers.firstCReq) else { return }
            reply = .completed(result)
        } else {
            guard let next = await exchange(acsTransID, nil, first: true, response, base: base) else { return }
            reply = next
        }
        while !isDisposed {
            guard case .screen(let screen) = reply else { break }
            log("ACS", "Drops", ThreeDSMessage.cres(ids, screen))
            // Out-of-band: the cardholder may decide on the other device while the screen is open, and that reaches the
            // ACS (and the log) then, not when they continue.
            let otherDevice = screen.uiType == .outOfBand ? OtherDevice { [weak self] approve in self?.decideOnOtherDevice(acsTransID, approve) } : nil
            let action = await simulation.cardholder.respond(to: screen, otherDevice: otherDevice)
            guard !isDisposed else { return }
            let answer: ChallengeAnswer
            switch action {
            case .answer(let given): answer = given
            case .decideOnOtherDevice(let approve):
                decideOnOtherDevice(acsTransID, approve)
                answer = .continueOutOfBand
            }
            log("Drops", "ACS", ThreeDSMessage.creq(ids, answer, on: screen))
            guard let next = await exchange(acsTransID, answer, first: false, response, base: base) else { return }
            reply = next
        }
        guard !isDisposed, case .completed(let result) = reply else { return }
        if let error = result.error {
            let from = error.errorComponent == .acs ? "ACS" : "Drops"
            // The ACS's Erro is about a CReq; the 3DS SDK's, about the CRes it did not get or could not read.
            log(from, from == "ACS" ? "Drops" : "ACS", ThreeDSMessage.erro(error, about: from == "ACS" ? "CReq" : "CRes", of: ids),
                status: error.errorCode)
        }
        // The ACS sends its RReq either way, and its final CRes only once the RRes has come back (EMV 3DS 2.2's
        // challenge flow): the final CRes was logged first.
        log("ACS", "DS", ThreeDSMessage.rreq(ids, result), status: result.transStatus.rawValue)
        log("DS", "ACS", ThreeDSMessage.rres(ids, result))
        if result.error == nil && acsHasACReq {
            // An Erro ends the exchange in place of the final CRes (EMV 3DS: the answer to a CReq is a CRes or an
            // Erro, and a 3DS SDK that gave up on the ACS gets nothing more from it), and a CReq the ACS never got
            // has no answer.
            log("ACS", "Drops", ThreeDSMessage.cresFinal(ids, result))
        }
        finish(result, response, base: base)
    }

    /// One CReq to the ACS, across the network and the ACS's fault: the CRes, the end of the challenge when the
    /// 3DS SDK gives up on the ACS (it sends the ACS an Erro), or nil when the challenge ends here: the 3DS SDK
    /// could not reach the ACS (its runtime error ended the payment), or the ACS does not know the challenge
    /// (a Safepay error did).
    private func exchange(_ acsTransID: String, _ answer: ChallengeAnswer?, first: Bool, _ response: AuthenticationResponse,
                          base: [String: JSONValue]) async -> ChallengeResponse? {
        // The first CReq reaches an ACS that is slow or does not answer: it has it (its first-CReq timer stops), and
        // the 3DS SDK gives up waiting for the CRes.
        let received = { [simulation] in if first { _ = try? simulation.acs.start(acsTransID) } }
        switch await challengeFailure(simulation.faults.threeDS.acs, received: received) {
        case .unreachable(let why)?:
            acsUnreachable(why, first: first, response, base: base)
            return nil
        case .erro(let failure)?:
            if let result = simulation.acs.abandon(acsTransID, error: failure) { return .completed(result) }
        case nil: break
        }
        do {
            if let answer { return try simulation.acs.challenge(acsTransID, answer) }
            return try simulation.acs.start(acsTransID)
        } catch {
            send(name: InframeEventName.safepayError.rawValue,
                 detail: ["error": .object(["message": .string(error.description), "status": .number(500), "type": .string("SafepayAPIError")])])
            return nil
        }
    }

    // MARK: Faults on the round trips

    /// The page's round trip with the payment to Safepay; true when it failed, and the host has heard Safepay's
    /// catch-all error: the device offline (nothing left it), or no answer within the request timeout.
    private func paymentCannotReachSafepay() async -> Bool {
        guard let network = simulation.network else { return false }
        do {
            try await network.roundTrip()
            return false
        } catch {
            guard !isDisposed else { return true }
            let message = switch error {
            case .offline: "the payment could not reach Safepay: the network is unavailable: the device is offline"
            case .timedOut(let after): "the payment's request to Safepay got no answer: the request timed out after \(after.components.seconds) s"
            }
            send(name: InframeEventName.safepayError.rawValue, detail: ["error": .object(["message": .string(message)])])
            return true
        }
    }

    /// How late a `slow` server answers.
    static let slowAnswer: Duration = .seconds(5)

    /// The round trip to the directory server: nil when an ARes can come, else the 3DS Server's (or the DS's) Erro.
    private func lookupFailure(_ server: ServerFault?) async -> ProtocolError? {
        switch server {
        case nil: return nil
        case .unreachable?:
            fault(.directoryServer, "the directory server cannot be reached")
            return .connectionFailure(.server, detail: "the directory server cannot be reached")
        // Slow past the lookup timer (a scenario's shorter `lookupSeconds`): the lookup gives up first.
        case .slow? where Self.slowAnswer < simulation.acs.timers.lookup:
            fault(nil, "the directory server answers 5 s late")
            await simulation.clock.sleep(for: Self.slowAnswer)
            return nil
        case .slow?, .timeout?:
            let wait = simulation.acs.timers.lookup
            let late = server == .slow ? "answers 5 s late" : "does not answer"
            fault(.directoryServer, "the directory server \(late): the lookup gives up after \(wait.components.seconds) s")
            await simulation.clock.sleep(for: wait)
            return .timedOut(.server, detail: "no ARes within the lookup timeout")
        case .erro?:
            fault(.directoryServer, "the directory server answers with an Erro message")
            return ProtocolError("404", .directoryServer, "Permanent System Failure", detail: "the directory server cannot process the AReq")
        case .http500?:
            fault(.directoryServer, "the directory server answers HTTP 500")
            return .transientFailure(.server, detail: "the directory server answered HTTP 500")
        case .malformed?:
            fault(.directoryServer, "the directory server answers a malformed message")
            return .invalidFormat(.server, detail: "the ARes could not be read")
        }
    }

    /// Why the ACS never gets the first CReq, when it does not: it is lost on the way, and the ACS's first-CReq timer
    /// ends the challenge (N, reason 14, challengeCancel 05: "first CReq not received by ACS"). The fault is the one
    /// that bit, for the result's advice to name it. An ACS that gets the CReq and does not answer it, or answers
    /// late, is the exchange's, as at any CReq: the 3DS SDK gives up and tells the ACS (U, challengeCancel 06). Until
    /// session 54 those ended as a lost CReq did, 05, though the log showed the CReq sent (the 3-D Secure reviewer).
    private func firstCReqLost() -> (BridgeFaults.Fault, String)? {
        guard simulation.faults.threeDS.acs != .unreachable, simulation.faults.threeDS.firstCReqLost else { return nil }
        return (.firstCReqLost, "the first CReq is lost: the ACS waits \(simulation.acs.timers.firstCReq.components.seconds) s for it")
    }

    /// Why a CReq gets no CRes: the 3DS SDK cannot reach the ACS at all, or an Erro ends the challenge.
    private enum CReqFailure {
        /// No connection: nothing the 3DS SDK sends reaches the ACS, an Erro no more than the CReq.
        case unreachable(String)
        case erro(ProtocolError)
    }

    /// A round trip to the ACS: nil when the CRes can come, else why none does. `received`: the CReq reached an ACS
    /// that will not answer it in time.
    private func challengeFailure(_ server: ServerFault?, received: () -> Void = {}) async -> CReqFailure? {
        do {
            try await simulation.network?.roundTrip()
        } catch {
            switch error {
            case .offline: return .unreachable("the network is unavailable: the device is offline")
            case .timedOut(let after): return .erro(.timedOut(.sdk, detail: "no answer within \(after.components.seconds) s"))
            }
        }
        // An ACS that takes its time has the CReq meanwhile: its first-CReq timer stops (with a latency added, it ended
        // the challenge N, 05, "first CReq not received", and a final CRes was logged).
        if server == .slow || server == .timeout { received() }
        switch server {
        case nil: return nil
        case .unreachable?:
            fault(.acs, "the ACS cannot be reached")
            return .unreachable("the ACS cannot be reached")
        // Slow past the 3DS SDK's wait for a CRes (a scenario's shorter `firstCReqSeconds`): it gives up first.
        case .slow? where Self.slowAnswer < simulation.acs.timers.firstCReq:
            fault(nil, "the ACS answers 5 s late")
            await simulation.clock.sleep(for: Self.slowAnswer)
            return nil
        case .slow?, .timeout?:
            let wait = simulation.acs.timers.firstCReq
            let late = server == .slow ? "answers 5 s late" : "does not answer"
            fault(.acs, "the ACS \(late): the 3DS SDK gives up after \(wait.components.seconds) s")
            await simulation.clock.sleep(for: wait)
            return .erro(.timedOut(.sdk, detail: "no CRes within \(wait.components.seconds) s"))
        case .erro?:
            fault(.acs, "the ACS answers with an Erro message")
            return .erro(.transientFailure(.acs, detail: "the ACS failed while authenticating"))
        case .http500?:
            fault(.acs, "the ACS answers HTTP 500")
            return .erro(.transientFailure(.sdk, detail: "the ACS answered HTTP 500"))
        case .malformed?:
            fault(.acs, "the ACS answers a malformed message")
            return .erro(.invalidFormat(.sdk, detail: "the CRes could not be read"))
        }
    }

    /// Says in the flow's log that `which` bit (`fault injected`), and tells the simulation's owner; nil for one that
    /// explains no failure (an answer late within its timer, as a latency within the timeouts).
    func fault(_ which: BridgeFaults.Fault?, _ what: String) {
        if let which { simulation.faultHit(which) }
        if let network = simulation.network { network.reportFault(what) } else { log("simulator", "Drops", "fault", what) }
    }

    private func finish(_ result: AuthenticationResult, _ response: AuthenticationResponse, base: [String: JSONValue]) {
        var values = Self.outcome(response)
        values["transStatus"] = .string(result.transStatus.rawValue)
        values["eci"] = .string(result.eci)
        values["transStatusReason"] = result.transStatusReason.map { .string($0.rawValue) }
        values["challengeCancel"] = result.challengeCancel.map { .string($0.rawValue) }
        values["authenticationValue"] = ThreeDSMessage.shortened(result.authenticationValue).map(JSONValue.string)
        values["interactionCounter"] = .number(Double(result.interactionCounter))
        for (key, value) in Self.errorFields(result.error) { values[key] = value }
        let outcome = JSONValue.object(values)
        if result.transStatus == .authenticated {
            // A payment method only for a card kept on file (`do_card_on_file`); null otherwise, as Safepay's
            // payloads show it.
            let detail = base.merging([
                "payment_method": savesCard ? .string("pm_\(Hex.encode(simulation.random.bytes(6)))") : .null,
                "authorization": .string("auth_\(Hex.encode(simulation.random.bytes(6)))"), "three_ds": outcome,
            ]) { $1 }
            send(name: InframeEventName.cardinalSuccess.rawValue, detail: detail)
        } else {
            let reason = result.challengeCancel.map { "challenge ended: \($0.meaning) (challengeCancel \($0.rawValue))" }
                ?? "transStatus \(result.transStatus.rawValue): \(result.transStatus.meaning)"
                + (result.transStatusReason.map { " (reason \($0.rawValue): \($0.meaning))" } ?? "")
            // `request_id` null, as Safepay's payloads show a failure's.
            send(name: InframeEventName.cardinalFailure.rawValue,
                 detail: base.merging(["request_id": .null, "error": .string(reason), "three_ds": outcome]) { $1 })
        }
    }

    /// The 3DS SDK could not reach the ACS: the challenge ends on the device with the SDK's runtime error (EMV 3DS
    /// SDK: an unreachable ACS is a runtime error, not a protocol one), and no Erro tells the ACS, which cannot be
    /// reached either. The ACS ends the challenge by its own timer, after the payment has ended: the app has no
    /// final transStatus, and the merchant's server learns the RReq's from its 3DS Server.
    /// (The log showed an Erro reaching the ACS, which then ended the challenge U at once.)
    private func acsUnreachable(_ why: String, first: Bool, _ response: AuthenticationResponse, base: [String: JSONValue]) {
        let timer = first
            ? "its first-CReq timer (\(simulation.acs.timers.firstCReq.components.seconds) s) ends the challenge N, challengeCancel 05"
            : "its challenge limit (\(simulation.acs.challengeLimit.components.seconds) s) ends the challenge N, challengeCancel 04"
        let runtimeError = "System Connection Failure: \(why)"
        log("Drops", "Drops", "runtimeError", "\(runtimeError); the challenge ends here, and no Erro can reach the ACS: \(timer)")
        var outcome = Self.outcome(response)
        // The ARes's C is not the payment's outcome: no final transStatus came.
        outcome["transStatus"] = nil
        send(name: InframeEventName.cardinalFailure.rawValue,
             detail: base.merging(["request_id": .null, "error": .string("the 3DS SDK's runtime error: \(runtimeError); the ACS, which heard nothing, ends the challenge by its own timer"),
                                   "three_ds": .object(outcome)]) { $1 })
    }

    /// The cardholder approves or refuses on their other device: the ACS has it at once.
    private func decideOnOtherDevice(_ acsTransID: String, _ approve: Bool) {
        guard !isDisposed else { return }
        // On the cardholder's other device, not on any thread of the app's (the terminal UI's decision came from main).
        log("cardholder's other device", "ACS", "out-of-band", approve ? "approved" : "refused", thread: "other device")
        simulation.acs.decideOutOfBand(acsTransID, approve: approve)
    }

    private func log(_ from: String, _ to: String, _ message: ThreeDSMessage.Logged, status: String? = nil) {
        simulation.log(DropsLogEntry(
            from: from, to: to, name: message.name, detail: message.line, thread: QueueName.current, status: status,
            message: message.json))
    }

    /// The `three_ds` object of a page event (idp-tui's addition to Drops' payloads): the lookup's values, under
    /// their EMV names (Cardinal's for `enrolled` and `signatureVerification`).
    private static func outcome(_ response: AuthenticationResponse) -> [String: JSONValue] {
        var values: [String: JSONValue] = [
            "enrolled": .string(response.enrolled.rawValue), "messageVersion": .string(response.messageVersion),
            "threeDSServerTransID": .string(response.threeDSServerTransID),
            "threeDSCompInd": .string(response.threeDSCompInd),
        ]
        let optional: [String: String?] = [
            "transStatus": response.transStatus?.rawValue, "transStatusReason": response.transStatusReason?.rawValue,
            "eci": response.eci, "dsTransID": response.dsTransID, "acsTransID": response.acsTransID,
            "authenticationValue": ThreeDSMessage.shortened(response.authenticationValue),
            "acsChallengeMandated": response.acsChallengeMandated, "signatureVerification": response.signatureVerification,
        ]
        for case let (key, value?) in optional { values[key] = .string(value) }
        for (key, value) in errorFields(response.error) { values[key] = value }
        return values
    }

    private static func errorFields(_ error: ProtocolError?) -> [String: JSONValue] {
        guard let error else { return [:] }
        var fields: [String: JSONValue] = [
            "errorCode": .string(error.errorCode), "errorComponent": .string(error.errorComponent.rawValue),
            "errorDescription": .string(error.errorDescription),
        ]
        if let detail = error.errorDetail { fields["errorDetail"] = .string(detail) }
        return fields
    }
}
