import DropsWeb
import Determinism
import Foundation
import JSONText
import Threading

/// What the bridge tells its owner.
package enum BridgeNotice: Sendable, Equatable {
    /// A message from the page was accepted (ready and ack are handled by the bridge and reported too).
    case received(InframeEvent)
    /// A property update was sent (first time or resent), with its attempt number from 1, and the message as the
    /// log shows it: its credentials redacted (``PropertyUpdateMessage/forLogs(_:)``), so that no notice carries them.
    case sent(messageId: String, attempt: Int, logged: String?)
    /// An ack arrived for a message.
    case acknowledged(messageId: String, status: String)
    /// No ack came after every retry: the bridge stops resending and tells the app nothing, as Safepay's React
    /// Native host (which the Swift SDK mirrors) drops the message once its retries are spent.
    case deliveryFailed(messageId: String, attempts: Int)
    /// The page did not say ready in time: the delegate gets onSafepayError.
    case pageNotReady(after: Duration)
    /// A message from the page was refused (wrong origin, malformed, unknown event).
    case rejected(BridgeRejection)
}

/// The native side of the Drops bridge: queues `safepay-property-update` messages until the page is ready,
/// sends each with its own messageId, resends it when no ack comes in time, and gives up after the retries.
/// Every timer runs on the simulation clock.
package final class MessageBridge: Sendable {
    private let origin: String
    private let timing: BridgeTiming
    private let clock: any SimulationClock
    private let makeID: @Sendable () -> String
    private let deliver: @Sendable (String) -> Void
    private let notify: @Sendable (BridgeNotice) -> Void
    private let state = Locked(State())

    private struct State {
        var ready = false
        var disposed = false
        var readyTimer: ScheduledTimer?
        var queue: [(id: String, json: String)] = []
        var inFlight: [String: InFlight] = [:]
    }

    private struct InFlight {
        let json: String
        var attempts: Int
        var timer: ScheduledTimer?
    }

    /// `deliver` posts a JSON string to the page; `notify` reports what happened. Both may run on any thread.
    package init(
        origin: String, timing: BridgeTiming = .swiftHost, clock: any SimulationClock,
        makeID: @escaping @Sendable () -> String, deliver: @escaping @Sendable (String) -> Void,
        notify: @escaping @Sendable (BridgeNotice) -> Void
    ) {
        self.origin = origin
        self.timing = timing
        self.clock = clock
        self.makeID = makeID
        self.deliver = deliver
        self.notify = notify
    }

    /// Starts waiting for the page's ready (call when the page starts loading).
    package func startWaitingForReady() {
        let timer = clock.schedule(after: timing.readyTimeout) { [weak self] in self?.readyTimedOut() }
        let keep = state.withLock { state -> Bool in
            guard !state.ready && !state.disposed else { return false }
            state.readyTimer = timer
            return true
        }
        if !keep { timer.cancel() }
    }

    private func readyTimedOut() {
        let fire = state.withLock { state -> Bool in
            guard !state.ready && !state.disposed else { return false }
            state.readyTimer = nil
            return true
        }
        if fire { notify(.pageNotReady(after: timing.readyTimeout)) }
    }

    /// Queues a property update; it is sent once the page is ready. Returns its messageId.
    @discardableResult
    package func send(properties: [String: JSONValue]) -> String {
        let id = makeID()
        let json = BridgeJSON.encode(PropertyUpdateMessage(properties: properties, messageId: id))
        let sendNow = state.withLock { state -> Bool in
            guard !state.disposed else { return false }
            if state.ready { return true }
            state.queue.append((id, json))
            return false
        }
        if sendNow { transmit(id: id, json: json, attempt: 1) }
        return id
    }

    /// A message from the page, with the origin it came from.
    package func receive(_ text: String, from messageOrigin: String) {
        guard !state.withLock({ $0.disposed }) else { return }
        guard messageOrigin == origin else {
            notify(.rejected(.wrongOrigin(messageOrigin)))
            return
        }
        switch BridgeJSON.parseInframe(text) {
        case .failure(let rejection):
            notify(.rejected(rejection))
        case .success(let event):
            notify(.received(event))
            switch event.name {
            case .ready: flushQueue()
            case .ack: acknowledge(event)
            default: break
            }
        }
    }

    /// Clears the queue and every timer; later messages are ignored.
    package func dispose() {
        let timers = state.withLock { state -> [ScheduledTimer] in
            state.disposed = true
            state.queue.removeAll()
            defer {
                state.inFlight.removeAll()
                state.readyTimer = nil
            }
            return state.inFlight.values.compactMap(\.timer) + [state.readyTimer].compactMap { $0 }
        }
        timers.forEach { $0.cancel() }
    }

    /// Messages sent and not acknowledged yet, and messages waiting for ready.
    package var pending: (inFlight: Int, queued: Int) {
        state.withLock { ($0.inFlight.count, $0.queue.count) }
    }

    // MARK: Delivery

    private func flushQueue() {
        let (queued, readyTimer) = state.withLock { state -> ([(id: String, json: String)], ScheduledTimer?) in
            state.ready = true
            defer {
                state.queue.removeAll()
                state.readyTimer = nil
            }
            return (state.queue, state.readyTimer)
        }
        readyTimer?.cancel()
        for message in queued { transmit(id: message.id, json: message.json, attempt: 1) }
    }

    private func transmit(id: String, json: String, attempt: Int) {
        let alive = state.withLock { state -> Bool in
            guard !state.disposed else { return false }
            state.inFlight[id] = InFlight(json: json, attempts: attempt, timer: nil)
            return true
        }
        guard alive else { return }
        // The ack timer runs from before the message is reported sent: whoever reads the report and moves the
        // clock on finds the timer already there.
        let timer = clock.schedule(after: timing.ackTimeout) { [weak self] in self?.ackTimedOut(id) }
        let kept = state.withLock { state -> Bool in
            guard state.inFlight[id] != nil else { return false }
            state.inFlight[id]?.timer = timer
            return true
        }
        if !kept { timer.cancel() }
        notify(.sent(messageId: id, attempt: attempt, logged: PropertyUpdateMessage.forLogs(json)))
        deliver(json)
    }

    private func ackTimedOut(_ id: String) {
        let next = state.withLock { state -> InFlight? in state.disposed ? nil : state.inFlight[id] }
        guard let message = next else { return }
        if message.attempts <= timing.maxRetries {
            transmit(id: id, json: message.json, attempt: message.attempts + 1)
        } else {
            state.withLock { _ = $0.inFlight.removeValue(forKey: id) }
            notify(.deliveryFailed(messageId: id, attempts: message.attempts))
        }
    }

    private func acknowledge(_ event: InframeEvent) {
        guard let id = event.string("messageId") else {
            notify(.rejected(.malformed("ack without messageId")))
            return
        }
        let timer = state.withLock { state -> ScheduledTimer?? in
            guard let message = state.inFlight.removeValue(forKey: id) else { return .none }
            return .some(message.timer)
        }
        guard let found = timer else { return }  // a late ack for a message already given up on
        found?.cancel()
        notify(.acknowledged(messageId: id, status: event.string("status") ?? "success"))
    }
}

// The queued and in-flight messages carry the merchant's auth token and device-data JWT in clear (the page needs
// them): a dump of the Drops view that holds the bridge (an app's debug log) shows the bridge's origin and timing,
// never its messages.
extension MessageBridge: CustomReflectable {
    package var customMirror: Mirror { Mirror(self, children: ["origin": origin, "timing": timing], displayStyle: .class) }
}
