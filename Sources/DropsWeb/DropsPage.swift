import Crypto
import Dispatch
import Foundation
import JSONText
import Threading
import ThreeDSecure

/// The simulated Drops page (what runs in the WKWebView): it answers the host's messages with acks, and runs
/// device data collection and 3-D Secure with the simulated ACS, asking the cardholder through
/// ``DropsCardholder``. Messages are handled on the page's queue; the payment is a task on a queue of its own
/// (`DropsPage.payment`), so that the page keeps acknowledging while the cardholder types: it awaits the
/// cardholder, the network and the ACS's timers, holding no thread meanwhile.
package final class DropsPage: Sendable {
    let simulation: DropsSimulation
    private let origin: String
    private let post: @Sendable (_ json: String, _ origin: String) -> Void
    private let messages = QueueName.makeSerialQueue("DropsPage")
    /// The load's task runs on the page's queue.
    private let loading: DispatchTaskExecutor
    private let payment = DispatchTaskExecutor(queue: QueueName.makeSerialQueue("DropsPage.payment"))
    private let state = Locked(State())

    private struct State {
        /// Messages that came while the page loaded, in order; nil once the load has ended.
        var held: [String]? = []
        var acksDropped = 0
        var processed: Set<String> = []
        var started = false
        var disposed = false
        /// The configuration's `authorizationOptions.do_card_on_file`: a success then names the saved card.
        var cardOnFile = false
    }

    /// Whether the configuration asked to keep the card on file (`do_card_on_file`).
    var savesCard: Bool { state.withLock { $0.cardOnFile } }

    package init(simulation: DropsSimulation, origin: String, post: @escaping @Sendable (String, String) -> Void) {
        self.simulation = simulation
        self.origin = origin
        self.post = post
        loading = DispatchTaskExecutor(queue: messages)
    }

    private var postOrigin: String { simulation.faults.wrongOrigin ? "https://elsewhere.example" : origin }
    var isDisposed: Bool { state.withLock { $0.disposed } }

    /// Loads the page over the simulated network; `failed` hears why when it cannot be loaded (the web view's
    /// navigation error), and the page then never gets ready. The load is a task on the page's queue: it awaits
    /// the round trip holding no thread, and messages that arrive meanwhile are held and handled, in order, once it
    /// has ended, as if the page had taken them from its queue then.
    package func load(failed: @escaping @Sendable (String) -> Void = { _ in }) {
        loading.startTask(counting: simulation.clock.pendingWork) { [self] in
            let failure = await Self.roundTrip(simulation.network)
            finishLoading(failure, failed: failed)
            for json in state.withLock({ state in defer { state.held = nil }; return state.held ?? [] }) { handle(json) }
        }
    }

    private func finishLoading(_ failure: String?, failed: @Sendable (String) -> Void) {
        if let failure {
            guard !isDisposed else { return }
            failed("the Drops page could not be loaded: \(failure)")
            return
        }
        guard !isDisposed else { return }
        let faults = simulation.faults
        if faults.wrongOrigin { fault(.wrongOrigin, "the Drops page posts from https://elsewhere.example, not its own origin") }
        if faults.malformedMessage {
            fault(.malformedMessage, "the Drops page sends a malformed message")
            send(raw: "{\"type\": \"safepay-inframe-event\", \"name\": ")
        }
        if faults.unknownEvent {
            fault(.unknownEvent, "the Drops page sends an unknown event")
            send(name: "safepay-inframe__mystery", detail: [:])
        }
        if faults.readyNeverComes {
            fault(.readyNeverComes, "the Drops page never sends safepay-inframe__ready")
        } else {
            send(name: InframeEventName.ready.rawValue, detail: [:])
        }
    }

    /// One round trip on `network`: nil, or why it failed.
    static func roundTrip(_ network: (any PageNetwork)?) async -> String? {
        guard let network else { return nil }
        do {
            try await network.roundTrip()
            return nil
        } catch {
            switch error {
            case .offline: return "the network is unavailable: the device is offline"
            case .timedOut(let after): return "the request timed out after \(after.components.seconds) s"
            }
        }
    }

    package func receive(_ json: String) {
        messages.async(counting: simulation.clock.pendingWork) { [self] in
            let held = state.withLock { state in
                state.held?.append(json)
                return state.held != nil
            }
            if !held { handle(json) }
        }
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
        if dropAck {
            fault(faults.loseEveryAck ? .loseEveryAck : .loseAcks, "a bridge ack is lost (message \(id))")
        } else {
            send(name: InframeEventName.ack.rawValue, detail: ["messageId": .string(id), "status": .string("success")])
        }
        let first = state.withLock { state -> Bool in
            guard !state.processed.contains(id) else { return false }
            state.processed.insert(id)
            return true
        }
        guard first else { return }
        send(name: InframeEventName.messagesProcessed.rawValue, detail: [:])
        let tracker = message.properties["tracker"]?.stringValue ?? ""
        let collectionURL = message.properties["deviceDataCollectionURL"]?.stringValue ?? ""
        let cardOnFile = message.properties["authorizationOptions"]?.objectValue?["do_card_on_file"]?.boolValue == true
        let start = state.withLock { state -> Bool in
            if !state.started { state.cardOnFile = cardOnFile }
            defer { state.started = true }
            return !state.started
        }
        guard start else { return }
        payment.startTask(counting: simulation.clock.pendingWork) { [self] in await pay(tracker: tracker, collectionURL: collectionURL) }
    }

    // MARK: Sending and describing

    func send(name: String, detail: [String: JSONValue]) {
        send(raw: BridgeJSON.encode(InframeMessage(name: name, detail: detail)))
    }

    private func send(raw json: String) {
        guard !isDisposed else { return }
        post(json, postOrigin)
    }

    func log(_ from: String, _ to: String, _ name: String, _ detail: String, status: String? = nil, thread: String = QueueName.current) {
        simulation.log(DropsLogEntry(from: from, to: to, name: name, detail: detail, thread: thread, status: status))
    }

}
