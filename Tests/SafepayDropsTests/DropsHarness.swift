import Determinism
import Dispatch
import Foundation
import DropsWeb
import SafepayDropsSDK
import Secrets
import Threading
import ThreeDSecure

/// Every delegate callback, in order.
enum Callback: Equatable {
    case success(PayerAuthenticationSuccessData)
    case failure(PayerAuthenticationErrorData)
    case required(PayerAuthenticationData)
    case frictionless(PayerAuthenticationData)
    case unavailable(PayerAuthenticationData)
    case error(SafepayErrorData)

    var name: String {
        switch self {
        case .success: "success"
        case .failure: "failure"
        case .required: "required"
        case .frictionless: "frictionless"
        case .unavailable: "unavailable"
        case .error: "error"
        }
    }
}

/// Runs `body` on the main actor (the main queue) and waits for it: the view lives there. Tests run on other
/// threads, so that they can wait for callbacks while the main queue delivers them.
func onMain<T: Sendable>(_ body: @MainActor () -> T) -> T {
    DispatchQueue.main.sync { MainActor.assumeIsolated { body() } }
}

final class RecordingDelegate: Sendable {
    let calls = Locked<[Callback]>([])
    /// Whether each callback came on the main actor.
    let onMainActor = Locked<[Bool]>([])
    private let arrived = DispatchSemaphore(value: 0)

    fileprivate func record(_ call: Callback) {
        calls.withLock { $0.append(call) }
        onMainActor.withLock { $0.append(QueueName.current == "main") }
        arrived.signal()
    }

    /// Waits for `count` callbacks in all; false after `seconds` of real time.
    func wait(for count: Int, seconds: Double = 10) -> Bool {
        while calls.withLock({ $0.count }) < count {
            if arrived.wait(timeout: .now() + seconds) == .timedOut { return false }
        }
        return true
    }

    var names: [String] { calls.withLock { $0.map(\.name) } }
}

extension RecordingDelegate: SafepayPayerAuthenticationDelegate {
    func onPayerAuthenticationSuccess(data: PayerAuthenticationSuccessData) { record(.success(data)) }
    func onPayerAuthenticationFailure(data: PayerAuthenticationErrorData) { record(.failure(data)) }
    func onPayerAuthenticationRequired(data: PayerAuthenticationData) { record(.required(data)) }
    func onPayerAuthenticationFrictionless(data: PayerAuthenticationData) { record(.frictionless(data)) }
    func onPayerAuthenticationUnavailable(data: PayerAuthenticationData) { record(.unavailable(data)) }
    func onSafepayError(error: SafepayErrorData) { record(.error(error)) }
}

/// A cardholder who types the given card and follows a script on challenge screens. With `gated`, the card
/// form waits until ``open()`` is called.
final class ScriptedCardholder: DropsCardholder {
    let details: PaymentDetails?
    let actions = Locked<[CardholderAction]>([])
    let screens = Locked<[ChallengeScreen]>([])
    private let gate = DispatchSemaphore(value: 0)
    private let gated: Bool
    /// Runs when the page says a challenge follows, before the 3DS SDK's first CReq.
    let beforeChallenge = Locked<(@Sendable () -> Void)?>(nil)

    init(card: String, expiryYear: Int = 2033, amount: Int = 4999, actions: [CardholderAction] = [], gated: Bool = false) {
        details = try? PaymentDetails(
            card: CardNumber(card), expiryMonth: 1, expiryYear: expiryYear, amountMinorUnits: amount, currency: "EUR",
            merchantName: "Demo Shop")
        self.actions.withLock { $0 = actions }
        self.gated = gated
    }

    func open() { gate.signal() }

    func enterPaymentDetails() -> PaymentDetails? {
        if gated { gate.wait() }
        return details
    }

    func challengeWillStart() async { beforeChallenge.withLock { $0 }?() }

    func respond(to screen: ChallengeScreen) -> CardholderAction {
        screens.withLock { $0.append(screen) }
        return actions.withLock { $0.isEmpty ? .answer(.cancel) : $0.removeFirst() }
    }
}

/// A view wired to a simulated page and ACS on a manual clock.
final class DropsHarness: Sendable {
    let clock = ManualClock()
    let delegate = RecordingDelegate()
    let log = Locked<[DropsLogEntry]>([])
    let cardholder: ScriptedCardholder
    let acs: AccessControlServer
    let view: SafepayPayerAuthenticationView

    init(cardholder: ScriptedCardholder, faults: BridgeFaults = .none, network: (any PageNetwork)? = nil) {
        self.cardholder = cardholder
        let random = RandomSource(seed: 11)
        acs = AccessControlServer(clock: clock, random: random)
        let log = log
        let simulation = DropsSimulation(
            clock: clock, random: random, acs: acs, cardholder: cardholder, faults: faults, network: network,
            log: { entry in log.withLock { $0.append(entry) } })
        let delegate = delegate
        view = onMain {
            let view = SafepayPayerAuthenticationView(simulation: simulation)
            view.delegate = delegate
            return view
        }
    }

    static let configuration = SafepayPayerAuthenticationConfiguration(
        environment: .sandbox, authToken: "token-abc", tracker: "trk_42", deviceDataCollectionJWT: "eyJhbGciOi.x.y",
        deviceDataCollectionURL: "https://centinelapistag.cardinalcommerce.com/V1/Cruise/Collect",
        billing: BillingAddress(street1: "1 Main St", city: "Springfield", country: "US"),
        authorizationOptions: AuthorizationOptions(doCapture: true, doCardOnFile: false))

    func start(_ configuration: SafepayPayerAuthenticationConfiguration = DropsHarness.configuration) {
        let view = view
        onMain { view.configure(configuration) }
    }

    func dispose() {
        let view = view
        onMain { view.dispose() }
    }

    var isVisible: Bool {
        let view = view
        return onMain { view.isVisible }
    }

    var bridgePending: (inFlight: Int, queued: Int) {
        let view = view
        let pending = onMain { [view.bridgePending.inFlight, view.bridgePending.queued] }
        return (pending[0], pending[1])
    }

    /// Polls the log until `condition` holds (10 s of real time at most).
    @discardableResult
    func waitForLog(_ condition: ([DropsLogEntry]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(log.withLock { $0 }) {
            guard ContinuousClock.now < deadline else { return false }
            usleep(1000)
        }
        return true
    }

    func logged(_ name: String) -> [DropsLogEntry] { log.withLock { $0.filter { $0.name == name } } }
}

/// A network the test switches off: while off, nothing the device sends leaves it.
final class SwitchableNetwork: PageNetwork {
    let offline = Locked(false)
    let faults = Locked<[String]>([])

    func roundTrip() async throws(PageNetworkFailure) {
        if isOffline { throw .offline }
    }

    func reportFault(_ what: String) { faults.withLock { $0.append(what) } }

    var isOffline: Bool { offline.withLock { $0 } }
}
