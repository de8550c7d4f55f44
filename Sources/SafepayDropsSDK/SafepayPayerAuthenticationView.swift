import Crypto
import Dispatch
import DropsWeb
import Foundation
import IdpTuiWorld
import JSONText
import Threading

/// The Drops payer-authentication view: loads the Drops page, sends it the configuration over the bridge,
/// and reports the outcome to its delegate.
///
/// ```swift
/// let payerAuthView = SafepayPayerAuthenticationView()
/// payerAuthView.delegate = self
/// payerAuthView.configure(SafepayPayerAuthenticationConfiguration(environment: .sandbox, authToken: token, …))
/// …
/// payerAuthView.dispose()
/// ```
///
/// On iOS it is a `UIView`, so it lives on the main actor, and so do its delegate's callbacks. Here the page in
/// it is the simulated Drops page of ``SimulatedWorld/current`` (its ACS, its cards, its clock), and the person
/// typing into it is the world's ``SimulatedWorld/cardholder``. The bridge and the page work on threads of their
/// own; every delegate callback arrives on the main actor, and none after ``dispose()`` returns.
@MainActor
public final class SafepayPayerAuthenticationView {
    /// Gets the callbacks, on the main actor. Held weakly, as a UIKit delegate is.
    public weak var delegate: (any SafepayPayerAuthenticationDelegate)?
    /// True once the page has processed the configuration (`messages-processed`): the view would show now; false
    /// again once disposed of, or configured anew.
    public private(set) var isVisible = false
    /// The page's world as it is at each `configure`: the cardholder and the bridge's faults set after the view
    /// was made apply to its next payment.
    private let simulation: @MainActor () -> DropsSimulation
    private var bridge: MessageBridge?
    private var page: DropsPage?
    private var tracker = ""
    /// A final callback was delivered, or the view was disposed of: nothing more is reported.
    private var finished = false
    /// Counts `configure` calls: what an earlier bridge still sends is not this payment's.
    private var generation = 0

    /// A view whose page talks to the Drops page, directory server and ACS of ``SimulatedWorld/current``.
    public convenience init() {
        let world = SimulatedWorld.current
        self.init {
            DropsSimulation(
                clock: world.clock, random: world.random, acs: world.accessControlServer,
                cardholder: world.cardholder.makeDropsCardholder(in: world), faults: world.bridgeFaults, timing: world.bridgeTiming(),
                network: world.pageNetwork)
        }
    }

    package convenience init(simulation: DropsSimulation) {
        self.init { simulation }
    }

    private init(simulation: @escaping @MainActor () -> DropsSimulation) {
        self.simulation = simulation
    }

    /// Starts a payer authentication, in place of any earlier one (whose page stops, and which reports nothing
    /// more). A bad configuration reaches `onSafepayError`, as every callback does, after `configure` has
    /// returned, and nothing is loaded.
    public func configure(_ configuration: SafepayPayerAuthenticationConfiguration) {
        stopPage()
        finished = false
        isVisible = false
        generation += 1
        let current = generation
        let simulation = simulation()
        let pending = simulation.clock.pendingWork
        if let problem = configuration.problem {
            let error = SafepayErrorData(message: "bad configuration: \(problem)", status: 400)
            DispatchQueue.main.async(counting: pending) { [weak self] in
                MainActor.assumeIsolated {
                    guard let self, current == self.generation else { return }
                    self.report { $0.onSafepayError(error: error) }
                }
            }
            return
        }
        let origin = Self.origin(of: configuration.environment.baseURL)
        let random = simulation.random
        let log = simulation.log
        let holder = Locked<DropsPage?>(nil)
        let bridge = MessageBridge(
            origin: origin, timing: simulation.timing, clock: simulation.clock,
            makeID: { Hex.uuid(random.bytes(16)) },
            deliver: { json in holder.withLock { $0 }?.receive(json) },
            notify: { [weak self] notice in
                Self.log(notice, to: log)
                // The vendor's view hears its web view on the main thread: so does its delegate.
                DispatchQueue.main.async(counting: pending) { MainActor.assumeIsolated { self?.handle(notice, generation: current) } }
            })
        let page = DropsPage(simulation: simulation, origin: origin) { [weak bridge] json, from in
            bridge?.receive(json, from: from)
        }
        holder.withLock { $0 = page }
        self.bridge = bridge
        self.page = page
        tracker = configuration.tracker
        log(DropsLogEntry(from: "App", to: "Drops", name: "load", detail: configuration.environment.pageURL,
                          thread: QueueName.current))
        bridge.send(properties: configuration.properties)
        bridge.startWaitingForReady()
        page.load { [weak self] why in
            DispatchQueue.main.async(counting: pending) { MainActor.assumeIsolated { self?.loadFailed(why, generation: current) } }
        }
    }

    /// Stops everything: the bridge's queue and timers are cleared, the page stops, and no callback follows,
    /// not even one already on its way.
    public func dispose() {
        finished = true
        isVisible = false
        stopPage()
    }

    private func stopPage() {
        bridge?.dispose()
        page?.dispose()
        bridge = nil
        page = nil
    }

    /// Messages and timers the bridge still holds (for leak checks).
    package var bridgePending: (inFlight: Int, queued: Int) {
        bridge?.pending ?? (0, 0)
    }

    // MARK: Bridge notices

    /// What crossed the bridge, in the simulation's log, on the thread it crossed on.
    nonisolated private static func log(_ notice: BridgeNotice, to log: @Sendable (DropsLogEntry) -> Void) {
        switch notice {
        case .received(let event):
            // An ack is logged once, as the bridge matched it (`.acknowledged`).
            if event.name != .ack {
                log(DropsLogEntry(from: "Drops", to: "App", name: event.name.rawValue, detail: event.detailJSON, thread: QueueName.current))
            }
        case .sent(let id, let attempt, let logged):
            log(DropsLogEntry(from: "App", to: "Drops", name: BridgeProtocol.propertyUpdateType,
                              // The resend first: after the id, at 80 columns, it was cut, and a resend read as the first send.
                              detail: attempt == 1 ? "messageId \(id)" : "resent (attempt \(attempt)): messageId \(id)",
                              thread: QueueName.current, message: logged))
        case .acknowledged(let id, let status):
            // By the message's own name, with the status the page gave it ("error" is only logged): it was `ack`,
            // status `ack`, where every other message of the page's was logged by its name.
            log(DropsLogEntry(from: "Drops", to: "App", name: InframeEventName.ack.rawValue, detail: "messageId \(id)",
                              thread: QueueName.current, status: status))
        case .rejected(let rejection):
            log(DropsLogEntry(from: "Drops", to: "App", name: "rejected", detail: rejection.description, thread: QueueName.current))
        case .deliveryFailed(let id, let attempts):
            // The SDK's own note, on its lane: nothing goes to the page (it was drawn as a message to it).
            log(DropsLogEntry(from: "App", to: "App", name: "gave up", detail: "messageId \(id): no ack after \(attempts) attempts; the SDK stops resending it and tells the app nothing (the page may have it: only acks were lost)",
                              thread: QueueName.current, status: "no ack"))
        case .pageNotReady:
            break
        }
    }

    /// The web view's navigation failed: the SDK reports it as a Safepay error, and the bridge stops waiting.
    private func loadFailed(_ why: String, generation: Int) {
        guard generation == self.generation else { return }
        bridge?.dispose()
        report { $0.onSafepayError(error: SafepayErrorData(message: why, status: nil)) }
    }

    private func handle(_ notice: BridgeNotice, generation: Int) {
        guard generation == self.generation else { return }
        switch notice {
        case .received(let event):
            deliver(event)
        case .pageNotReady(let after):
            let error = SafepayErrorData(message: "the Drops page did not become ready within \(after.components.seconds) s", status: nil)
            report { $0.onSafepayError(error: error) }
        // Retries spent: logged, and nothing more, as Safepay's React Native host does (`dispatchMessage` re-queues
        // a message only while it has retries left). It reported onSafepayError and ended the payment, whose own
        // result the page, which had the configuration (only its acks were lost), went on to send.
        case .sent, .acknowledged, .rejected, .deliveryFailed:
            break
        }
    }

    private func deliver(_ event: InframeEvent) {
        let tracker = event.string("tracker").flatMap { $0.isEmpty ? nil : $0 } ?? tracker
        let requestID = event.string("request_id")
        let outcome = event.detail["three_ds"].flatMap { BridgeJSON.decode(ThreeDSecureOutcome.self, from: $0.description) }
        let data = PayerAuthenticationData(tracker: tracker, requestId: requestID, errorMessage: event.string("errorMessage"),
                                           threeDSecure: outcome)
        switch event.name {
        case .ready, .ack: break
        case .messagesProcessed: if !finished { isVisible = true }
        case .enrollmentRequired: report(final: false) { $0.onPayerAuthenticationRequired(data: data) }
        case .enrollmentFrictionless: report { $0.onPayerAuthenticationFrictionless(data: data) }
        case .enrollmentFailed: report { $0.onPayerAuthenticationUnavailable(data: data) }
        case .cardinalSuccess:
            let success = PayerAuthenticationSuccessData(
                tracker: tracker, requestId: requestID ?? "", paymentMethod: event.string("payment_method"),
                authorization: event.string("authorization"), threeDSecure: outcome)
            report { $0.onPayerAuthenticationSuccess(data: success) }
        case .cardinalFailure:
            let failure = PayerAuthenticationErrorData(
                tracker: tracker, requestId: requestID, error: event.string("error") ?? "authentication failed", threeDSecure: outcome)
            report { $0.onPayerAuthenticationFailure(data: failure) }
        case .safepayError:
            let error = event.detail["error"]?.objectValue
            let detail = SafepayErrorData(message: error?["message"]?.stringValue ?? "the Drops page reported an error",
                                          status: error?["status"]?.intValue, type: error?["type"]?.stringValue)
            report { $0.onSafepayError(error: detail) }
        }
    }

    /// Calls the delegate, here on the main actor. After a final callback, or once disposed of, nothing more
    /// is reported.
    private func report(final: Bool = true, _ call: (any SafepayPayerAuthenticationDelegate) -> Void) {
        guard !finished else { return }
        if final { finished = true }
        if let delegate { call(delegate) }
    }

    nonisolated static func origin(of url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else {
            return url
        }
        return components.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }
}

/// A thin proxy over the view, as on iOS: `destroy()` is the view's `dispose()`.
@MainActor
public final class SafepayPayerAuthenticationController {
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
