import Crypto
import Dispatch
import Foundation
import JSONText
import Threading
import ThreeDSecure

/// The simulated Drops page (what runs in the WKWebView): it answers the host's messages with acks, and runs
/// device data collection and 3-D Secure with the simulated ACS, asking the cardholder through
/// ``DropsCardholder``. Messages are handled on the page's queue; the payment runs on a queue of its own so
/// that the page keeps acknowledging while the cardholder types.
package final class DropsPage: Sendable {
    private let simulation: DropsSimulation
    private let origin: String
    private let post: @Sendable (_ json: String, _ origin: String) -> Void
    private let messages = QueueName.makeSerialQueue("DropsPage")
    private let payment = QueueName.makeSerialQueue("DropsPage.payment")
    private let state = Locked(State())

    private struct State {
        var acksDropped = 0
        var processed: Set<String> = []
        var started = false
        var disposed = false
    }

    package init(simulation: DropsSimulation, origin: String, post: @escaping @Sendable (String, String) -> Void) {
        self.simulation = simulation
        self.origin = origin
        self.post = post
    }

    private var postOrigin: String { simulation.faults.wrongOrigin ? "https://elsewhere.example" : origin }
    private var isDisposed: Bool { state.withLock { $0.disposed } }

    package func load() {
        messages.async { [self] in
            let faults = simulation.faults
            if faults.malformedMessage { send(raw: "{\"type\": \"safepay-inframe-event\", \"name\": ") }
            if faults.unknownEvent { send(name: "safepay-inframe__mystery", detail: [:]) }
            if !faults.readyNeverComes { send(name: InframeEventName.ready.rawValue, detail: [:]) }
        }
    }

    package func receive(_ json: String) {
        messages.async { [self] in handle(json) }
    }

    package func dispose() {
        state.withLock { $0.disposed = true }
    }

    // MARK: Messages

    private func handle(_ json: String) {
        guard !isDisposed, let message = BridgeJSON.decode(PropertyUpdateMessage.self, from: json),
            message.type == BridgeProtocol.propertyUpdateType
        else { return }
        let id = message.messageId
        let faults = simulation.faults
        let dropAck = state.withLock { state -> Bool in
            if faults.loseEveryAck { return true }
            guard state.acksDropped < faults.lostAcks else { return false }
            state.acksDropped += 1
            return true
        }
        if !dropAck { send(name: InframeEventName.ack.rawValue, detail: ["messageId": .string(id), "status": .string("success")]) }
        let first = state.withLock { state -> Bool in
            guard !state.processed.contains(id) else { return false }
            state.processed.insert(id)
            return true
        }
        guard first else { return }
        send(name: InframeEventName.messagesProcessed.rawValue, detail: [:])
        let tracker = message.properties["tracker"]?.stringValue ?? ""
        let collectionURL = message.properties["deviceDataCollectionURL"]?.stringValue ?? ""
        let start = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        if start { payment.async { [self] in pay(tracker: tracker, collectionURL: collectionURL) } }
    }

    // MARK: The payment

    private func pay(tracker: String, collectionURL: String) {
        guard !isDisposed, let details = simulation.cardholder.enterPaymentDetails(), !isDisposed else { return }
        let acs = simulation.acs
        log("Drops", "ACS", "3DS Method", "device data collection to \(collectionURL); threeDSCompInd Y")
        let requestID = Hex.encode(simulation.random.bytes(8))
        let request = AuthenticationRequest(
            threeDSServerTransID: requestID, card: details.card, expiryMonth: details.expiryMonth,
            expiryYear: details.expiryYear, amountMinorUnits: details.amountMinorUnits, currency: details.currency,
            merchantName: details.merchantName, methodCompletion: "Y")
        log("Drops", "DS", ThreeDSMessage.areq(request))
        let response: AuthenticationResponse
        do {
            response = try acs.authenticate(request)
        } catch {
            log("DS", "Drops", "Erro", error.description)
            send(name: InframeEventName.safepayError.rawValue,
                 detail: ["error": .object(["message": .string(error.description), "status": .number(400)])])
            return
        }
        let base: [String: JSONValue] = ["tracker": .string(tracker), "request_id": .string(requestID)]
        guard let status = response.transStatus else {
            // No ARes: Cardinal's Enrolled U (an Erro, or nothing in time) or B (bypassed).
            if let error = response.error {
                log(error.errorComponent == .server ? "Drops" : "DS", "Drops", ThreeDSMessage.erro(error, about: requestID), status: error.errorCode)
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
            challenge(response, base: base)
        default:
            let message = "transStatus \(status.rawValue): \(status.meaning)"
                + (response.transStatusReason.map { " (reason \($0.rawValue): \($0.meaning))" } ?? "")
            send(name: InframeEventName.enrollmentFailed.rawValue,
                 detail: base.merging(["errorMessage": .string(message), "three_ds": .object(Self.outcome(response))]) { $1 })
        }
    }

    private func challenge(_ response: AuthenticationResponse, base: [String: JSONValue]) {
        guard let acsTransID = response.acsTransID else { return }
        simulation.cardholder.challengeWillStart()
        // The 3DS SDK's first CReq fetches the first screen.
        log("Drops", "ACS", ThreeDSMessage.creq(acsTransID, nil))
        guard var reply = exchange(acsTransID, nil, base: base) else { return }
        while !isDisposed {
            guard case .screen(let screen) = reply else { break }
            log("ACS", "Drops", ThreeDSMessage.cres(acsTransID, screen))
            let action = simulation.cardholder.respond(to: screen)
            guard !isDisposed else { return }
            let answer: ChallengeAnswer
            switch action {
            case .answer(let given): answer = given
            case .decideOnOtherDevice(let approve):
                log("cardholder's other device", "ACS", "out-of-band", approve ? "approved" : "refused")
                simulation.acs.decideOutOfBand(acsTransID, approve: approve)
                answer = .continueOutOfBand
            }
            log("Drops", "ACS", ThreeDSMessage.creq(acsTransID, answer))
            guard let next = exchange(acsTransID, answer, base: base) else { return }
            reply = next
        }
        guard !isDisposed, case .completed(let result) = reply else { return }
        if let error = result.error { log("ACS", "Drops", ThreeDSMessage.erro(error, about: nil), status: error.errorCode) }
        log("ACS", "Drops", ThreeDSMessage.cresFinal(result))
        log("ACS", "DS", ThreeDSMessage.rreq(result), status: result.transStatus.rawValue)
        finish(result, response, base: base)
    }

    /// One CReq to the ACS; nil (after a Safepay error) when the ACS does not know the challenge.
    private func exchange(_ acsTransID: String, _ answer: ChallengeAnswer?, base: [String: JSONValue]) -> ChallengeResponse? {
        do {
            if let answer { return try simulation.acs.challenge(acsTransID, answer) }
            return try simulation.acs.start(acsTransID)
        } catch {
            send(name: InframeEventName.safepayError.rawValue,
                 detail: ["error": .object(["message": .string(error.description), "status": .number(500)])])
            return nil
        }
    }

    private func finish(_ result: AuthenticationResult, _ response: AuthenticationResponse, base: [String: JSONValue]) {
        var values = Self.outcome(response)
        values["trans_status"] = .string(result.transStatus.rawValue)
        values["eci"] = .string(result.eci)
        values["trans_status_reason"] = result.transStatusReason.map { .string($0.rawValue) }
        values["challenge_cancel"] = result.challengeCancel.map { .string($0.rawValue) }
        values["authentication_value"] = ThreeDSMessage.shortened(result.authenticationValue).map(JSONValue.string)
        values["interaction_counter"] = .number(Double(result.interactionCounter))
        for (key, value) in Self.errorFields(result.error) { values[key] = value }
        let outcome = JSONValue.object(values)
        if result.transStatus == .authenticated {
            let detail = base.merging([
                "payment_method": .string("pm_\(Hex.encode(simulation.random.bytes(6)))"),
                "authorization": .string("auth_\(Hex.encode(simulation.random.bytes(6)))"), "three_ds": outcome,
            ]) { $1 }
            send(name: InframeEventName.cardinalSuccess.rawValue, detail: detail)
        } else {
            let reason = result.challengeCancel.map { "challenge ended: \($0.meaning) (challengeCancel \($0.rawValue))" }
                ?? "transStatus \(result.transStatus.rawValue): \(result.transStatus.meaning)"
                + (result.transStatusReason.map { " (reason \($0.rawValue): \($0.meaning))" } ?? "")
            send(name: InframeEventName.cardinalFailure.rawValue, detail: base.merging(["error": .string(reason), "three_ds": outcome]) { $1 })
        }
    }

    // MARK: Sending and describing

    private func send(name: String, detail: [String: JSONValue]) {
        send(raw: BridgeJSON.encode(InframeMessage(name: name, detail: detail)))
    }

    private func send(raw json: String) {
        guard !isDisposed else { return }
        post(json, postOrigin)
    }

    private func log(_ from: String, _ to: String, _ name: String, _ detail: String, status: String? = nil) {
        simulation.log(DropsLogEntry(from: from, to: to, name: name, detail: detail, thread: QueueName.current, status: status))
    }

    private func log(_ from: String, _ to: String, _ message: ThreeDSMessage.Logged, status: String? = nil) {
        simulation.log(DropsLogEntry(
            from: from, to: to, name: message.name, detail: message.line, thread: QueueName.current, status: status,
            message: message.json))
    }

    /// The `three_ds` object of a page event: the lookup's values, snake_case as Drops writes them.
    private static func outcome(_ response: AuthenticationResponse) -> [String: JSONValue] {
        var values: [String: JSONValue] = [
            "enrolled": .string(response.enrolled.rawValue), "message_version": .string(response.messageVersion),
            "three_ds_server_trans_id": .string(response.threeDSServerTransID),
            "three_ds_comp_ind": .string(response.threeDSCompInd),
        ]
        let optional: [String: String?] = [
            "trans_status": response.transStatus?.rawValue, "trans_status_reason": response.transStatusReason?.rawValue,
            "eci": response.eci, "ds_trans_id": response.dsTransID, "acs_trans_id": response.acsTransID,
            "authentication_value": ThreeDSMessage.shortened(response.authenticationValue),
            "acs_challenge_mandated": response.acsChallengeMandated, "signature_verification": response.signatureVerification,
        ]
        for case let (key, value?) in optional { values[key] = .string(value) }
        for (key, value) in errorFields(response.error) { values[key] = value }
        return values
    }

    private static func errorFields(_ error: ProtocolError?) -> [String: JSONValue] {
        guard let error else { return [:] }
        return ["error_code": .string(error.errorCode), "error_component": .string(error.errorComponent.rawValue),
                "error_description": .string(error.errorDescription + (error.errorDetail.map { " (\($0))" } ?? ""))]
    }
}
