import Crypto
import Determinism
import Dispatch
import DropsWeb
import FlowEngine
import FlowRecords
import IdentityProvider
import SafepayDropsSDK
import Synchronization
import Threading
import ThreeDSecure

/// The app's side of a Safepay Drops payment.
struct PaymentFlow {
    let run: FlowRun
    let settings: PaymentSettings

    /// Configures the view, lets the page ask the cardholder through the prompt channel, and awaits the final
    /// delegate callback.
    func run() async -> FlowResult? {
        let world = run.service.world
        let payment = PaymentRun(run: run, settings: self.settings)
        run.reviseCancelledResult { [payment] in payment.cancelled($0) }
        let faults = world.bridgeFaults
        let simulation = DropsSimulation(
            clock: world.clock, random: world.random, acs: world.accessControlServer, cardholder: payment,
            faults: faults, timing: world.bridgeTiming(self.settings.bridgeTiming), network: world.pageNetwork, faultHit: payment.startsWith(faults),
            log: { [weak payment] entry in payment?.log(entry) })
        let settings = Self.configuration(self.settings.safepayEnvironment, random: world.random)
        if run.stopIfCancelled(before: .configure) { return nil }
        let run = run
        // The view is a UIView on iOS: it is made, configured and disposed of on the main actor, and its delegate
        // hears it there.
        let view = Locked<SafepayPayerAuthenticationView?>(nil)
        // The flow's end: every timer and queued message of the bridge goes, and the page stops, before the result.
        // The main queue runs it within microseconds in the front ends; the bound only keeps a main thread that
        // serves no queue from holding the result (the view is then disposed of whenever it does). The flow awaits
        // it; so does a cancel's clean-up, on the service's side queue (or on the flow's, for a cancel that came
        // before the call, when no view was made).
        // A test's count of what can still run: the main queue's work is counted, and so a wait for it counts.
        let pending = run.clock.pendingWork
        let close: @Sendable () -> OneShot<Void> = {
            payment.close()
            let disposed = OneShot<Void>()
            DispatchQueue.main.async(counting: pending) {
                MainActor.assumeIsolated { view.withLock { $0 }?.dispose() }
                disposed.fulfil(())
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) { disposed.fulfil(()) }
            return disposed
        }
        guard let end = await run.call({ payment.stage }, atCancel: { payment.close() }, onCancel: { await close().value() }, { deliver in
            payment.start(deliver)
            DispatchQueue.main.async(counting: pending) {
                MainActor.assumeIsolated {
                    // Logged where the app calls it: on the main thread (it read idp-tui.flow, where no app calls it).
                    run.emit(.configure, from: .app, to: .safepayDrops,
                             detail: "environment=\(settings.environment.rawValue), tracker=\(settings.tracker), doCapture=\(settings.authorizationOptions.doCapture)")
                    let made = SafepayPayerAuthenticationView(simulation: simulation)
                    made.delegate = payment
                    made.configure(settings)
                    view.withLock { $0 = made }
                }
            }
        }) else { return nil }
        await close().value()
        return payment.result(of: end)
    }

    /// What the app passes to `configure`: the merchant backend's token and tracker (seeded, so runs replay)
    /// and Cardinal's device data collection.
    static func configuration(_ environment: SafepayEnvironment, random: RandomSource) -> SafepayPayerAuthenticationConfiguration {
        SafepayPayerAuthenticationConfiguration(
            environment: environment, authToken: "sp_test_\(Hex.encode(random.bytes(12)))",
            tracker: "track_\(Hex.uuid(random.bytes(16)))",  // as Safepay's trackers are
            deviceDataCollectionJWT: "eyJhbGciOiJIUzI1NiJ9.\(Base64URL.encode(random.bytes(24))).\(Base64URL.encode(random.bytes(32)))",
            deviceDataCollectionURL: "https://centinelapistag.cardinalcommerce.com/V1/Cruise/Collect",
            billing: BillingAddress(street1: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701", country: "US"),
            authorizationOptions: AuthorizationOptions(doCapture: true, doCardOnFile: false))
    }
}

/// One payment's delegate and cardholder: delegate callbacks and the page's questions become flow events and
/// prompts; the final callback ends the flow.
final class PaymentRun: DropsCardholder {
    let run: FlowRun
    let settings: PaymentSettings
    /// Hands the payment's end to the flow.
    private let gate = Locked<(@Sendable (PaymentEnd) -> Void)?>(nil)
    let state = Locked(State())
    private let closed = Atomic(false)
    /// Fulfilled once `onPayerAuthenticationRequired` has reached the app.
    let required = OneShot<Void>()

    struct State {
        var stage: FlowStep = .configure
        var details: PaymentDetails?
        /// Whether a challenge screen reached the app: a challenge ended before any (its first CReq unanswered, or
        /// answered with an Erro) failed at the CReq, not at a screen never shown.
        var screenShown = false
        /// The cardholder cancelled on a challenge screen: the 3DS SDK's CReq carries challengeCancel 01.
        var cardholderCancelled = false
        /// What the cardholder decided on the other device (out-of-band), if anything.
        var otherDeviceDecision: Bool?
        /// The bridge's and 3-D Secure's faults that struck this payment, of those it started with.
        var faultsHit: Set<BridgeFaults.Fault> = []
        var faults = BridgeFaults.none
    }

    /// The payment starts with `faults`; `faultHit` is the simulation's, told when one strikes.
    func startsWith(_ faults: BridgeFaults) -> @Sendable (BridgeFaults.Fault) -> Void {
        state.withLock { $0.faults = faults }
        return { [weak self] fault in self?.state.withLock { _ = $0.faultsHit.insert(fault) } }
    }

    init(run: FlowRun, settings: PaymentSettings) {
        self.run = run
        self.settings = settings
    }

    func start(_ deliver: @escaping @Sendable (PaymentEnd) -> Void) {
        gate.withLock { $0 = deliver }
    }

    /// After this, nothing the page or the view still does reaches the log.
    func close() {
        closed.store(true, ordering: .releasing)
    }

    private var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Where the payment is, for a cancel.
    var stage: FlowStep { state.withLock { $0.stage } }

    func end(_ end: PaymentEnd) {
        gate.withLock { $0 }?(end)
    }

    func emit(_ step: FlowStep, from: Participant, to: Participant, thread: String = QueueName.current,
                      duration: Duration? = nil, status: String? = nil, detail: String, message: String? = nil) {
        guard !isClosed else { return }
        run.emit(step, from: from, to: to, thread: thread, duration: duration, status: status, detail: detail, message: message)
    }

    // MARK: The Drops log

    /// A bridge message or a 3-D Secure message, as the simulation reports it.
    func log(_ entry: DropsLogEntry) {
        emit(FlowStep(entry.name), from: Self.participant(entry.from), to: Self.participant(entry.to), thread: entry.thread,
             status: entry.status, detail: entry.detail, message: entry.message)
        let stage: FlowStep? = switch entry.name {
        // The page's load is the first call in flight after configure: a cancel during it names it, as the screen does.
        case "load", "AReq", "ARes", "3DS Method", "CReq", "CRes", "RReq", "Erro", "lookup": FlowStep(entry.name)
        default: nil
        }
        if let stage { state.withLock { $0.stage = stage } }
    }

    static func participant(_ name: String) -> Participant {
        switch name {
        case "App": .safepayDrops
        case "Drops": .drops
        case "DS": .directoryServer
        case "ACS": .acs
        default: .otherDevice
        }
    }

    // MARK: DropsCardholder

    func enterPaymentDetails() async -> PaymentDetails? {
        state.withLock { $0.stage = .paymentDetails }
        let defaults = settings.paymentDefaults
        emit(.paymentDetails, from: .drops, to: .app,
             detail: "card form shown: card number, expiry; amount and merchant prefilled \(defaults.currency) \(defaults.amount), \(defaults.merchant)")
        let (resolution, waited) = await run.ask(PaymentDetailsRequest(defaults: defaults))
        switch (resolution, waited) {
        case (.answered(let answer), let waited) where answer.value(as: PaymentDetails.self) != nil:
            guard let details = answer.value(as: PaymentDetails.self) else { return nil }
            state.withLock { $0.details = details }
            emit(.paymentDetails, from: .app, to: .drops, duration: waited, status: "entered",
                 detail: "card \(details.card) (\(details.card.brand.rawValue)), expiry \(String(format: "%02d/%04d", details.expiryMonth, details.expiryYear)), \(AccessControlServer.format(details.amountMinorUnits, details.currency)), \(details.merchantName)")
            return details
        case (.timedOut, let waited):
            emit(.paymentDetails, from: .app, to: .drops, duration: waited, status: EngineStatus.promptTimeout,
                 detail: "the card form was not submitted within \(timeoutText)")
            end(.formTimedOut)
            return nil
        case (let resolution, let waited):
            let reason = resolution.cancelReason ?? .user
            emit(.paymentDetails, from: .app, to: .drops, duration: waited, status: reason.status,
                 detail: "card form closed (\(reason.verb)); no payment was started")
            end(.formClosed)
            return nil
        }
    }

    func challengeWillStart() async {
        // The app hears onPayerAuthenticationRequired before the challenge starts, as when the app shows the view
        // on that callback: the log then reads in the same order on every run. The callback is microseconds away;
        // the bound only keeps a lost one from stopping the payment.
        let required = required
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(2)) { required.fulfil(()) }
        await required.value()
    }

    func respond(to screen: ChallengeScreen) async -> CardholderAction { await respond(to: screen, otherDevice: nil) }

    func respond(to screen: ChallengeScreen, otherDevice: OtherDevice?) async -> CardholderAction {
        state.withLock {
            $0.stage = .challengeScreen
            $0.screenShown = true
        }
        // The ACS's message, then the counts; the attempts once (after a wrong answer the message says them:
        // "…; 2 attempts left, 3 resends left; wrong code; 2 attempts left").
        let said = screen.message != nil && screen.messageCountsAttempts
        // Attempts only where a wrong answer spends one, as the screens count them (an out-of-band one's said 3).
        let counts = (said || !screen.spendsAttempts ? [] : [screen.attemptsLeftPhrase]) + (screen.uiType == .text ? [screen.resendsLeftPhrase] : [])
        var detail = "\(screen.uiType.name): \"\(screen.prompt)\""
        if let message = screen.message { detail += "; \(message)" }
        if !counts.isEmpty { detail += (said ? ", " : "; ") + counts.joined(separator: ", ") }
        emit(.challengeScreen, from: .drops, to: .app, detail: detail)
        // The decision is kept, so that a cancel after it says so: the ACS's reason (26, not performed by the
        // cardholder) alone read as though the phone had not been used.
        let device = otherDevice.map { device in
            OtherDevice { [state] approve in
                state.withLock { $0.otherDeviceDecision = approve }
                device.decide(approve: approve)
            }
        }
        let (resolution, waited) = await run.ask(ChallengeRequest(screen: screen, otherDevice: device))
        switch (resolution, waited) {
        case (.answered(let answer), let waited) where answer.value(as: CardholderAction.self) != nil:
            guard let action = answer.value(as: CardholderAction.self) else { return .answer(.cancel) }
            let summary = switch action {
            case .answer(let answer): answer.summary(on: screen)
            case .decideOnOtherDevice(let approve): approve ? "approved on the other device" : "refused on the other device"
            }
            emit(.challengeScreen, from: .app, to: .drops, duration: waited, status: "answered", detail: summary)
            return action
        case (.timedOut, let waited):
            emit(.challengeScreen, from: .app, to: .drops, duration: waited, status: EngineStatus.promptTimeout,
                 detail: "the challenge was not answered within \(timeoutText); the 3DS SDK ends it (challengeCancel 08)")
            return .answer(.timedOutAtSDK)
        case (let resolution, let waited):
            // Only the cardholder's own cancel is challengeCancel 01; an abort or an interrupt is the 3DS SDK's
            // transaction error.
            guard let reason = resolution.cancelReason, let why = reason.abortHead else {
                state.withLock { $0.cardholderCancelled = true }
                emit(.challengeScreen, from: .app, to: .drops, duration: waited, status: EngineStatus.cancelled,
                     detail: "cancelled by the cardholder")
                return .answer(.cancel)
            }
            emit(.challengeScreen, from: .app, to: .drops, duration: waited, status: reason.status,
                 detail: "\(why); the 3DS SDK ends the challenge as a transaction error (challengeCancel 06)")
            return .answer(.transactionError)
        }
    }

    /// The prompt timeout as its messages say it: "300 s", "0.002 s" (whole seconds said 0 s for one under a second).
    var timeoutText: String { (run.service.promptTimeout ?? .zero).secondsText }

    /// Whether the payment was aborted (bad input) or interrupted (a signal): nobody's cancel.
    var isAborted: Bool { run.cancelReason.map { !$0.isUsers } ?? false }

    func report(_ callback: String, _ outcome: ThreeDSecureOutcome?, detail: String) {
        emit(FlowStep(callback), from: .safepayDrops, to: .app, status: outcome?.transStatus, detail: detail)
    }

    enum Callback {
        static let safepayError = "onSafepayError"
    }
}
