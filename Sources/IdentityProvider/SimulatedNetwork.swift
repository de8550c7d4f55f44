import Dispatch
import Threading
import Determinism

/// The simulated network between the SDKs and the IdP: which IdP answers at which URL, and how long a
/// round trip takes on the simulation clock.
///
/// A device reaches it through a line of its own (``line()``): the same hosts, latency and faults, and round
/// trips the app can abandon when it cancels a flow (``abandonWaits()``), as cancelling a URL session's task
/// does: a request waiting on its line ends at once, never delivered, and the device's thread is free again.
public final class SimulatedNetwork: Sendable {
    public let clock: any SimulationClock
    /// Network faults: unavailable, added latency, a request that times out.
    public let faults: FaultSwitchboard
    /// Shared by every line of the network.
    private let state: Locked<State>
    /// This line's round trips waiting on the clock.
    private let waits = Locked(Waits())

    private struct State {
        var hosts: [String: IdentityProvider] = [:]
        var latency: Duration = .zero
    }

    private struct Waits {
        /// Each waiting round trip's wake-up.
        var waiting: [Int: @Sendable () -> Void] = [:]
        var next = 0
        /// Set by ``abandonWaits()`` until ``resumeWaits()``: round trips fail at once.
        var abandoned = false
    }

    public convenience init(clock: any SimulationClock, faults: FaultSwitchboard = FaultSwitchboard()) {
        self.init(clock: clock, faults: faults, state: Locked(State()))
    }

    private init(clock: any SimulationClock, faults: FaultSwitchboard, state: Locked<State>) {
        self.clock = clock
        self.faults = faults
        self.state = state
    }

    /// The line the current task's requests go over, when a caller set one (a Q2 sign-in's: the module's work
    /// hops between executors, so its line goes with the task rather than with a queue or an object).
    @TaskLocal package static var taskLine: SimulatedNetwork?

    /// A device's line onto this network: its hosts, latency and faults, with waits of its own to abandon.
    package func line() -> SimulatedNetwork {
        SimulatedNetwork(clock: clock, faults: faults, state: state)
    }

    /// Ends every round trip waiting on this line now (each fails as ``NetworkError/abandoned``, its request never
    /// delivered), and every one that starts until ``resumeWaits()``: a cancelled flow's SDK work ends at once
    /// instead of holding the device's thread for the rest of a latency or a timeout.
    package func abandonWaits() {
        let wakes = waits.withLock { waits in
            waits.abandoned = true
            defer { waits.waiting = [:] }
            return Array(waits.waiting.values)
        }
        for wake in wakes { wake() }
    }

    /// Round trips wait again (a new flow starts on the device).
    package func resumeWaits() {
        waits.withLock { $0.abandoned = false }
    }

    /// Waits `delay` on the clock, unless this line's waits are abandoned first: then throws. Which came first is
    /// decided under the line's lock: a wait ``abandonWaits()`` took is abandoned, even when its timer fired too.
    private func wait(_ delay: Duration) throws(NetworkError) {
        let woken = DispatchSemaphore(value: 0)
        let id: Int? = waits.withLock { waits in
            guard !waits.abandoned else { return nil }
            let id = waits.next
            waits.next += 1
            waits.waiting[id] = { woken.signal() }
            return id
        }
        guard let id else { throw .abandoned }
        let timer = clock.schedule(after: delay) { woken.signal() }
        woken.wait()
        timer.cancel()
        let abandoned = waits.withLock { $0.waiting.removeValue(forKey: id) == nil }
        if abandoned { throw .abandoned }
    }

    /// Makes `provider` answer at its base URL.
    public func register(_ provider: IdentityProvider) {
        state.withLock { $0.hosts[provider.baseURL] = provider }
    }

    /// The time every round trip takes on the simulation clock.
    public var latency: Duration {
        get { state.withLock { $0.latency } }
        set { state.withLock { $0.latency = newValue } }
    }

    /// Connects to the IdP at `url`, taking one round trip of latency.
    public func connect(to url: String) throws(NetworkError) -> IdentityProvider {
        let host = state.withLock { $0.hosts[url] }
        try roundTrip()
        guard let host else { throw .unreachable(url) }
        return host
    }

    /// One more round trip to a server already connected (an IdP unless `server` names another, as a fault's
    /// line in the log does): latency, or a fault.
    public func roundTrip(to server: String = "the IdP") throws(NetworkError) {
        if waits.withLock({ $0.abandoned }) { throw .abandoned }
        let faults = faults.faults
        if faults.networkUnavailable {
            self.faults.triggered("network unavailable: the request never leaves the device")
            throw .offline
        }
        if faults.requestTimeout {
            self.faults.triggered("request timeout: \(server) does not answer within \(FaultSwitchboard.requestTimeout.components.seconds) s")
            try wait(FaultSwitchboard.requestTimeout)
            throw .timedOut(FaultSwitchboard.requestTimeout)
        }
        var delay = latency
        if faults.addedLatency > .zero {
            self.faults.triggered("added latency: +\(faults.addedLatency.milliseconds) ms on this round trip")
            delay += faults.addedLatency
        }
        if delay > .zero { try wait(delay) }
    }
}

/// Why the network could not reach a host.
public enum NetworkError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreachable(String)
    /// The device has no network.
    case offline
    case timedOut(Duration)
    /// The app abandoned the request (it cancelled the flow) before it was delivered.
    case abandoned

    public var description: String {
        switch self {
        case .unreachable(let url): "no identity provider answers at \(url)"
        case .offline: "the network is unavailable: the device is offline"
        case .timedOut(let after): "the request timed out after \(after.components.seconds) s without an answer"
        case .abandoned: "the request was abandoned before it was delivered: the app cancelled the flow"
        }
    }
}
