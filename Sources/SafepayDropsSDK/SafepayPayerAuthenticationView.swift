import DropsWeb
import Crypto
import Dispatch
import Foundation
import Threading

/// The Drops payer-authentication view: loads the Drops page, sends it the configuration over the bridge,
/// and reports the outcome to its delegate.
///
/// ```swift
/// let view = SafepayPayerAuthenticationView(simulation: simulation)
/// view.delegate = self
/// view.configure(SafepayPayerAuthenticationConfiguration(environment: .sandbox, authToken: token, …))
/// …
/// view.dispose()
/// ```
///
/// The real view takes no arguments (a browser and the network stand behind it); the simulated one is given
/// its ``DropsSimulation``.
public final class SafepayPayerAuthenticationView: Sendable {
    private let simulation: DropsSimulation
    private let queue = QueueName.makeSerialQueue("SafepayDrops")
    private let state = Locked(State())

    private struct State {
        weak var delegate: (any SafepayPayerAuthenticationDelegate)?
        var bridge: MessageBridge?
        var page: DropsPage?
        var tracker = ""
        var visible = false
        var finished = false
    }

    public init(simulation: DropsSimulation) {
        self.simulation = simulation
    }

    public var delegate: (any SafepayPayerAuthenticationDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// True once the page has processed the configuration (`messages-processed`).
    public var isVisible: Bool { state.withLock { $0.visible } }

    /// Starts a payer authentication. A bad configuration reaches `onSafepayError` and nothing is loaded.
    public func configure(_ configuration: SafepayPayerAuthenticationConfiguration) {
        if let problem = configuration.problem {
            report { $0.onSafepayError(error: SafepayErrorData(message: "bad configuration: \(problem)", status: 400)) }
            return
        }
        let origin = Self.origin(of: configuration.environment.baseURL)
        let clock = simulation.clock
        let random = simulation.random
        let log = simulation.log
        let holder = Locked<DropsPage?>(nil)
        let bridge = MessageBridge(
            origin: origin, timing: simulation.timing, clock: clock,
            makeID: { Hex.uuid(random.bytes(16)) },
            deliver: { json in holder.withLock { $0 }?.receive(json) },
            notify: { [weak self] notice in self?.handle(notice) })
        let page = DropsPage(simulation: simulation, origin: origin) { [weak bridge] json, from in
            bridge?.receive(json, from: from)
        }
        holder.withLock { $0 = page }
        state.withLock { state in
            state.bridge = bridge
            state.page = page
            state.tracker = configuration.tracker
        }
        log(DropsLogEntry(from: "App", to: "Drops", name: "load", detail: configuration.environment.pageURL(parentOrigin: simulation.parentOrigin),
                          thread: QueueName.current))
        bridge.send(properties: configuration.properties)
        bridge.startWaitingForReady()
        page.load()
    }

    /// Stops everything: the bridge's queue and timers are cleared, the page stops, no callback follows.
    public func dispose() {
        let (bridge, page) = state.withLock { state -> (MessageBridge?, DropsPage?) in
            state.finished = true
            defer {
                state.bridge = nil
                state.page = nil
            }
            return (state.bridge, state.page)
        }
        bridge?.dispose()
        page?.dispose()
    }

    /// Messages and timers the bridge still holds (for leak checks).
    public var bridgePending: (inFlight: Int, queued: Int) {
        state.withLock { $0.bridge }?.pending ?? (0, 0)
    }

    // MARK: Bridge notices

    private func handle(_ notice: BridgeNotice) {
        let log = simulation.log
        switch notice {
        case .received(let event):
            // An ack is logged once, as the bridge matched it (`.acknowledged`).
            if event.name != .ack {
                log(DropsLogEntry(from: "Drops", to: "App", name: event.name.rawValue, detail: event.detailJSON, thread: QueueName.current))
            }
            deliver(event)
        case .sent(let id, let attempt):
            log(DropsLogEntry(from: "App", to: "Drops", name: BridgeProtocol.propertyUpdateType,
                              detail: attempt == 1 ? "messageId \(id)" : "messageId \(id), resent (attempt \(attempt))",
                              thread: QueueName.current))
        case .acknowledged(let id, let status):
            log(DropsLogEntry(from: "Drops", to: "App", name: "ack", detail: "messageId \(id), \(status)", thread: QueueName.current))
        case .deliveryFailed(let id, let attempts):
            report { $0.onSafepayError(error: SafepayErrorData(
                message: "the Drops page did not acknowledge message \(id) after \(attempts) attempts", status: nil)) }
        case .pageNotReady(let after):
            report { $0.onSafepayError(error: SafepayErrorData(
                message: "the Drops page did not become ready within \(after.components.seconds) s", status: nil)) }
        case .rejected(let rejection):
            log(DropsLogEntry(from: "Drops", to: "App", name: "rejected", detail: rejection.description, thread: QueueName.current))
        }
    }

    private func deliver(_ event: InframeEvent) {
        let tracker = event.string("tracker").flatMap { $0.isEmpty ? nil : $0 } ?? state.withLock { $0.tracker }
        let requestID = event.string("request_id")
        let outcome = (event.detail["three_ds"] as? [String: Any]).map { values in
            ThreeDSecureOutcome(
                transStatus: values["trans_status"] as? String ?? "", transStatusReason: values["trans_status_reason"] as? String,
                eci: values["eci"] as? String, challengeCancel: values["challenge_cancel"] as? String)
        }
        let data = PayerAuthenticationData(tracker: tracker, requestId: requestID, errorMessage: event.string("errorMessage"),
                                           threeDSecure: outcome)
        switch event.name {
        case .ready, .ack: break
        case .messagesProcessed: state.withLock { $0.visible = true }
        case .enrollmentRequired: report(final: false) { $0.onPayerAuthenticationRequired(data: data) }
        case .enrollmentFrictionless: report { $0.onPayerAuthenticationFrictionless(data: data) }
        case .enrollmentFailed: report { $0.onPayerAuthenticationUnavailable(data: data) }
        case .cardinalSuccess:
            report { $0.onPayerAuthenticationSuccess(data: PayerAuthenticationSuccessData(
                tracker: tracker, requestId: requestID ?? "", paymentMethod: event.string("payment_method"),
                authorization: event.string("authorization"), threeDSecure: outcome)) }
        case .cardinalFailure:
            report { $0.onPayerAuthenticationFailure(data: PayerAuthenticationErrorData(
                tracker: tracker, requestId: requestID ?? "", error: event.string("error") ?? "authentication failed",
                threeDSecure: outcome)) }
        case .safepayError:
            let error = event.detail["error"] as? [String: Any]
            let message = error?["message"] as? String ?? "the Drops page reported an error"
            let status = error?["status"] as? Int
            report { $0.onSafepayError(error: SafepayErrorData(message: message, status: status)) }
        }
    }

    /// Calls the delegate on the view's queue. After a final callback nothing more is reported.
    private func report(final: Bool = true, _ call: @escaping @Sendable (any SafepayPayerAuthenticationDelegate) -> Void) {
        let delegate = state.withLock { state -> (any SafepayPayerAuthenticationDelegate)? in
            guard !state.finished else { return nil }
            if final { state.finished = true }
            return state.delegate
        }
        guard let delegate else { return }
        queue.async { call(delegate) }
    }

    static func origin(of url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else {
            return url
        }
        return components.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }
}

/// A thin proxy over the view, as on iOS.
public final class SafepayPayerAuthenticationController: Sendable {
    public let view: SafepayPayerAuthenticationView

    public init(view: SafepayPayerAuthenticationView) {
        self.view = view
    }

    public var delegate: (any SafepayPayerAuthenticationDelegate)? {
        get { view.delegate }
        set { view.delegate = newValue }
    }

    public func configure(_ configuration: SafepayPayerAuthenticationConfiguration) { view.configure(configuration) }

    public func destroy() { view.dispose() }
}
