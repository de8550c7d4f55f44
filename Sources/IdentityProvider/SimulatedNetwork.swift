import Dispatch
import Foundation
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
    /// Hears each request this line sends, as it leaves (``onSending(_:)``).
    private let sending = Locked(Sending())

    private struct State {
        var hosts: [String: IdentityProvider] = [:]
        var latency: Duration = .zero
        var requestTimeout: Duration = FaultSwitchboard.requestTimeout
    }

    private struct Sending {
        var observer: (@Sendable (NetworkRequest) -> Void)?
        /// The token of the observer set last (``stopSending(_:)`` removes only its own).
        var token = 0
    }

    private struct Waits {
        /// Each waiting round trip's wake-up, and the request it carries (nil: a round trip that names none).
        var waiting: [Int: (wake: @Sendable () -> Void, request: AbandonedRequest?)] = [:]
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
    /// instead of holding the device's thread for the rest of a latency or a timeout. Returns the requests so
    /// abandoned, in the order they were sent, for the flow's log to say that their server never got them (the
    /// log showed each leave, and nothing after: a QA tester read a wrong password cancelled on its way as counted).
    @discardableResult
    package func abandonWaits() -> [AbandonedRequest] {
        let taken = waits.withLock { waits in
            waits.abandoned = true
            defer { waits.waiting = [:] }
            return waits.waiting.sorted { $0.key < $1.key }.map(\.value)
        }
        for wait in taken { wait.wake() }
        return taken.compactMap(\.request)
    }

    /// Round trips wait again (a new flow starts on the device).
    package func resumeWaits() {
        waits.withLock { $0.abandoned = false }
    }

    /// Waits `delay` on the clock, unless this line's waits are abandoned first: then throws. Which came first is
    /// decided under the line's lock: a wait ``abandonWaits()`` took is abandoned, even when its timer fired too.
    /// The task is suspended, its thread free meanwhile. Cancelling the task abandons the wait, as cancelling a URL
    /// session's task does: the request is never delivered (a task cancelled before it starts sends nothing).
    private func wait(_ delay: Duration, carrying request: NetworkRequest?) async throws(NetworkError) {
        guard !Task.isCancelled, let wait = startWait(delay, carrying: request) else { throw .abandoned }
        let id = wait.id
        await withTaskCancellationHandler {
            await wait.woken.value()
        } onCancel: {
            waits.withLock { $0.waiting.removeValue(forKey: id) }?.wake()
        }
        try end(wait)
    }

    private struct Wait {
        let id: Int
        let woken: OneShot<Void>
        let timer: ScheduledTimer
    }

    /// A wait woken by its timer or by ``abandonWaits()``; nil when the line's waits are abandoned already.
    private func startWait(_ delay: Duration, carrying request: NetworkRequest?) -> Wait? {
        // Woken by the clock or by a cancel: waiting for it is waiting for the test (``PendingWork``).
        let woken = OneShot<Void>(counting: clock.pendingWork)
        let id: Int? = waits.withLock { waits in
            guard !waits.abandoned else { return nil }
            let id = waits.next
            waits.next += 1
            waits.waiting[id] = ({ woken.fulfil(()) }, request.map { AbandonedRequest(request: $0, sentOn: QueueName.current) })
            return id
        }
        guard let id else { return nil }
        return Wait(id: id, woken: woken, timer: clock.schedule(after: delay) { woken.fulfil(()) })
    }

    private func end(_ wait: Wait) throws(NetworkError) {
        wait.timer.cancel()
        let abandoned = waits.withLock { $0.waiting.removeValue(forKey: wait.id) == nil }
        if abandoned { throw .abandoned }
    }

    /// Makes `provider` answer at its base URL: under its address, and under the URL as written, which apps
    /// almost always use as it is (a connection then finds it without working out the address of what it names:
    /// about 5,000 instructions a connection, 44,000 a flow, docs/performance.md session 40).
    public func register(_ provider: IdentityProvider) {
        state.withLock {
            $0.hosts[Self.address(provider.baseURL)] = provider
            $0.hosts[provider.baseURL] = provider
        }
    }

    /// The address a URL names, as a server tells them apart: the scheme and the host in lower case (host names are
    /// not case-sensitive), without the path's trailing slashes. `https://IDP.demo.test/auth/` reached no IdP, a slip
    /// in an app's configuration that read as the network being down (511/1).
    static func address(_ url: String) -> String {
        var url = Substring(url)
        while url.hasSuffix("/") { url = url.dropLast() }
        guard let schemeEnd = url.range(of: "://") else { return String(url) }
        let hostEnd = url[schemeEnd.upperBound...].firstIndex(of: "/") ?? url.endIndex
        return url[..<hostEnd].lowercased() + url[hostEnd...]
    }

    /// The time every round trip takes on the simulation clock.
    public var latency: Duration {
        get { state.withLock { $0.latency } }
        set { state.withLock { $0.latency = newValue } }
    }

    /// How long the SDKs wait for an answer before they give up (30 s; a scenario's `network.requestTimeoutSeconds`
    /// shortens it, so that a CI run of the request-timeout fault does not wait 30 s a round trip).
    public var requestTimeout: Duration {
        get { state.withLock { $0.requestTimeout } }
        set { state.withLock { $0.requestTimeout = newValue } }
    }

    /// Calls `observer` with each request this line sends, on the sender's thread, as it leaves the device: before
    /// the latency and the faults it meets, so that a flow's log shows a request when it went (it showed one only
    /// with its answer, and a request that timed out never), and a fault after the request it struck. One observer
    /// a line (the device's flow family), replacing any before it; the token removes it (``stopSending(_:)``).
    @discardableResult
    package func onSending(_ observer: @escaping @Sendable (NetworkRequest) -> Void) -> Int {
        sending.withLock { sending in
            sending.token += 1
            sending.observer = observer
            return sending.token
        }
    }

    /// Removes the observer `token` set, unless another has replaced it since.
    package func stopSending(_ token: Int) {
        sending.withLock { if $0.token == token { $0.observer = nil } }
    }

    /// Connects to the IdP at `url`, taking one round trip of latency (`request`'s, when it says what it sends).
    public func connect(to url: String, sending request: NetworkRequest? = nil) async throws(NetworkError) -> IdentityProvider {
        let host = server(at: url)
        try await roundTrip(sending: request)
        guard let host else { throw .unreachable(url) }
        return host
    }

    /// The server at `url`, without a round trip: what its TLS handshake would present, for a client that checks
    /// it before its request leaves (nil when no server answers there).
    public func server(at url: String) -> IdentityProvider? {
        state.withLock { $0.hosts[url] ?? $0.hosts[Self.address(url)] }
    }

    /// One more round trip to a server already connected (an IdP unless `server` names another, as a fault's
    /// line in the log does): latency, or a fault. The task is suspended for the latency, its thread free. A
    /// cancelled task's round trip is abandoned (``NetworkError/abandoned``), never delivered.
    public func roundTrip(to server: String = "the IdP", sending request: NetworkRequest? = nil) async throws(NetworkError) {
        if Task.isCancelled { throw .abandoned }
        let trip = try plan(to: server, sending: request)
        if trip.delay > .zero { try await wait(trip.delay, carrying: request) }
        if trip.timesOut { throw .timedOut(trip.delay) }
    }

    /// What a round trip meets before its answer: a fault that ends it at once, or how long it waits (and whether
    /// it then times out). The request is heard as sent once it leaves the device (not when the network is down).
    private func plan(to server: String, sending request: NetworkRequest?) throws(NetworkError) -> (delay: Duration, timesOut: Bool) {
        if waits.withLock({ $0.abandoned }) { throw .abandoned }
        let faults = faults.faults
        let (latency, timeout) = state.withLock { ($0.latency, $0.requestTimeout) }
        if faults.networkUnavailable {
            self.faults.triggered("network unavailable: the request never leaves the device")
            throw .offline
        }
        if let request, let observer = sending.withLock({ $0.observer }) { observer(request) }
        if faults.requestTimeout {
            self.faults.triggered("request timeout: \(server) does not answer within \(timeout.secondsText)")
            return (timeout, true)
        }
        var delay = latency
        if faults.addedLatency > .zero {
            self.faults.triggered("added latency: +\(faults.addedLatency.milliseconds) ms on this round trip")
            delay += faults.addedLatency
        }
        // A latency the SDK's request timeout does not wait out ends as that timeout does: a scenario's 35 s latency
        // answered after 35 s, where the SDK gives up at 30.
        if delay >= timeout { return (timeout, true) }
        return (delay, false)
    }
}

extension SimulatedNetwork {
    /// What makes a round trip started now wait `limit` or longer unanswered: the request-timeout fault, or a
    /// latency (the scenario's and the added-latency fault's) of at least `limit`; nil when neither does. A flow that
    /// ended on a timeout names it in its advice, so that it does not blame a fault that is off.
    public func slowness(beyond given: Duration? = nil) -> Slowness? {
        let limit = given ?? requestTimeout
        let faults = faults.faults
        if faults.requestTimeout { return .requestTimeoutFault }
        let added = faults.addedLatency
        return latency + added >= limit ? .latency(scenario: latency, added: added, limit: limit) : nil
    }
}

/// Why the simulated network is too slow for a wait: ``SimulatedNetwork/slowness(beyond:)``.
public enum Slowness: Sendable, Equatable {
    /// The request-timeout fault: no server answers.
    case requestTimeoutFault
    /// Every round trip takes `scenario + added` (the scenario's network latency and the added-latency fault), at
    /// least `limit`.
    case latency(scenario: Duration, added: Duration, limit: Duration)

    /// What to do, for a flow's advice: `gaveUp` says what gave up ("the SDK gives up after 30 s"), `then` what to
    /// do once the network is quick again ("try again"). The latency named is the one to lower: the scenario's when
    /// it alone reaches the limit, the fault's when it alone does, else the two together.
    public func advice(gaveUp: String, then: String) -> String {
        switch self {
        case .requestTimeoutFault:
            return "No server answers while the request-timeout fault is on: turn it off, then \(then)."
        case .latency(let scenario, let added, let limit):
            let total = (scenario + added).secondsText
            let fault = "the added-latency fault (+\(added.milliseconds) ms)"
            let scenarios = "the scenario's network latency (\(scenario.milliseconds) ms)"
            return switch (scenario >= limit, added >= limit) {
            case (true, _) where added > .zero:
                "Each round trip takes \(total), and \(gaveUp): lower network.latencyMs in the scenario (\(scenario.milliseconds) ms alone is too long), and \(fault), then \(then)."
            case (true, _):
                "Each round trip takes \(total), \(scenarios), and \(gaveUp): lower network.latencyMs in the scenario, then \(then)."
            case (false, true) where scenario == .zero:
                "Each round trip takes \(total) with \(fault), and \(gaveUp): lower the added latency, then \(then)."
            case (false, true):
                "Each round trip takes \(total) with \(fault) and \(scenarios), and \(gaveUp): lower the added latency, then \(then)."
            case (false, false):
                "Each round trip takes \(total): \(scenarios) and \(fault), and \(gaveUp): lower them below \(limit.secondsText) together, then \(then)."
            }
        }
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

/// A request as it leaves a device: what a flow's log says of it (`GET /authorize`, `client_id=…, tenant=…`).
/// A request a cancel abandoned on its way (``SimulatedNetwork/abandonWaits()``), and the queue that sent it: the SDK
/// whose request it was.
package struct AbandonedRequest: Sendable {
    package let request: NetworkRequest
    package let sentOn: String
}

public struct NetworkRequest: Sendable, Equatable {
    public let name: String
    public let detail: String

    public init(_ name: String, detail: String) {
        self.name = name
        self.detail = detail
    }

    /// The IdP's requests, as the SDK that sends them and the IdP that answers them say them.
    public static func openLogin(clientId: String, tenantId: String) -> NetworkRequest {
        NetworkRequest(IdpEndpoint.openLogin.rawValue, detail: "client_id=\(clientId), tenant=\(tenantId)")
    }

    /// `fields`: the form's field names (ASCII: compared by their bytes). Not generic: called from other modules,
    /// a generic one ran unspecialized, some 8,000 instructions a request (9 % of a flow's, with the IdP's call).
    public static func submitForm(_ fields: [String]) -> NetworkRequest {
        NetworkRequest(IdpEndpoint.submitForm.rawValue, detail: "form fields " + fields.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: ", "))
    }

    public static func token(clientId: String) -> NetworkRequest {
        NetworkRequest(IdpEndpoint.token.rawValue, detail: "grant_type=authorization_code, client_id=\(clientId)")
    }

    /// The IdP's endpoint this request goes to, nil for another server's (Q2 Core's).
    public var idpEndpoint: IdpEndpoint? { IdpEndpoint(rawValue: name) }
}

/// The IdP's three endpoints, by the request line the log shows.
public enum IdpEndpoint: String, Sendable {
    /// The login page: the app's client and tenant, nothing secret.
    case openLogin = "GET /authorize"
    /// The answered form: the user name, password or activation code, which the IdP counts and spends.
    case submitForm = "POST /authorize"
    /// The authorization code exchanged for tokens (the MC-SDK's SetAuthorisationCode).
    case token = "POST /token"
}

/// `localizedDescription` is ``description`` (Q2's `MobileCoreLoginFailure.networkUnavailable` carries it as its
/// `error`).
extension NetworkError: LocalizedError {
    public var errorDescription: String? { description }
}
