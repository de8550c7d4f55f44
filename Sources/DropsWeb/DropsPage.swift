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
        log("Drops", "ACS", "3DS Method", "device data collection to \(collectionURL)")
        let requestID = Hex.encode(simulation.random.bytes(8))
        let request = AuthenticationRequest(
            threeDSServerTransID: requestID, card: details.card, expiryMonth: details.expiryMonth,
            expiryYear: details.expiryYear, amountMinorUnits: details.amountMinorUnits, currency: details.currency,
            merchantName: details.merchantName)
        log("Drops", "DS", "AReq", "card \(details.card), \(AccessControlServer.format(details.amountMinorUnits, details.currency)), \(details.merchantName)")
        let response: AuthenticationResponse
        do {
            response = try simulation.acs.authenticate(request)
        } catch {
            log("DS", "Drops", "Erro", error.description)
            send(name: InframeEventName.safepayError.rawValue,
                 detail: ["error": .object(["message": .string(error.description), "status": .number(400)])])
            return
        }
        log("DS", "Drops", "ARes", Self.describe(response.transStatus, response.transStatusReason, eci: response.eci),
            status: response.transStatus.rawValue)
        let base: [String: JSONValue] = ["tracker": .string(tracker), "request_id": .string(requestID)]
        switch response.transStatus {
        case .authenticated, .attempted:
            send(name: InframeEventName.enrollmentFrictionless.rawValue, detail: base.merging(["three_ds": .object(Self.outcome(response))]) { $1 })
        case .challengeRequired:
            send(name: InframeEventName.enrollmentRequired.rawValue, detail: base)
            challenge(response, base: base)
        default:
            let message = "transStatus \(response.transStatus.rawValue): \(response.transStatus.meaning)"
                + (response.transStatusReason.map { " (reason \($0.rawValue): \($0.meaning))" } ?? "")
            send(name: InframeEventName.enrollmentFailed.rawValue,
                 detail: base.merging(["errorMessage": .string(message), "three_ds": .object(Self.outcome(response))]) { $1 })
        }
    }

    private func challenge(_ response: AuthenticationResponse, base: [String: JSONValue]) {
        guard var screen = response.challenge else { return }
        while !isDisposed {
            let action = simulation.cardholder.respond(to: screen)
            guard !isDisposed else { return }
            let answer: ChallengeAnswer
            switch action {
            case .answer(let given): answer = given
            case .decideOnOtherDevice(let approve):
                log("cardholder's other device", "ACS", "out-of-band", approve ? "approved" : "refused")
                simulation.acs.decideOutOfBand(response.acsTransID, approve: approve)
                answer = .continueOutOfBand
            }
            log("Drops", "ACS", "CReq", answer.summary)
            let reply: ChallengeResponse
            do {
                reply = try simulation.acs.challenge(response.acsTransID, answer)
            } catch {
                send(name: InframeEventName.safepayError.rawValue,
                     detail: ["error": .object(["message": .string(error.description), "status": .number(500)])])
                return
            }
            switch reply {
            case .screen(let next):
                log("ACS", "Drops", "CRes", next.message ?? "next screen")
                screen = next
            case .completed(let result):
                log("ACS", "Drops", "CRes", "challenge complete")
                log("ACS", "DS", "RReq", Self.describe(result.transStatus, result.transStatusReason, eci: result.eci)
                    + (result.challengeCancel.map { ", challengeCancel \($0.rawValue)" } ?? ""), status: result.transStatus.rawValue)
                finish(result, base: base)
                return
            }
        }
    }

    private func finish(_ result: AuthenticationResult, base: [String: JSONValue]) {
        let outcome: JSONValue = .object([
            "trans_status": result.transStatus.rawValue, "trans_status_reason": result.transStatusReason?.rawValue,
            "eci": result.eci, "challenge_cancel": result.challengeCancel?.rawValue,
        ].compactMapValues { $0.map(JSONValue.string) })
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

    private static func outcome(_ response: AuthenticationResponse) -> [String: JSONValue] {
        ["trans_status": response.transStatus.rawValue, "trans_status_reason": response.transStatusReason?.rawValue,
         "eci": response.eci].compactMapValues { $0.map(JSONValue.string) }
    }

    static func describe(_ status: TransStatus, _ reason: TransStatusReason?, eci: String?) -> String {
        var text = "transStatus \(status.rawValue)"
        if let reason { text += ", transStatusReason \(reason.rawValue)" }
        if let eci { text += ", ECI \(eci)" }
        return text
    }
}
