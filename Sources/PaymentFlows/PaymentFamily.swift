import DropsWeb
import FlowEngine
import IdentityProvider
import Foundation
import IdpTuiWorld
import SafepayDropsSDK
import Threading
import ThreeDSecure

extension FlowKind {
    /// Card payer authentication: Safepay Drops and EMV 3-D Secure.
    public static let payerAuth = FlowKind(
        "payer-auth", title: "Pay with card (3-D Secure)", lanes: [.app, .safepayDrops, .drops, .directoryServer, .acs],
        sdk: "Safepay Drops · EMV 3-D Secure 2.2", replies: paymentReplies,
        goodStatuses: ["success", "ack", "Y", "A", "C"], summarize: PaymentWording.summarize)

    /// 3-D Secure's responses answer their requests (ARes the AReq, CRes the CReq, RRes the RReq, PRes the PReq); a
    /// bridge `safepay-inframe__ack` answers its message (`ack`, status `ack`, in records before session 54), and an `Erro` the request it stands in for; a Drops delegate callback
    /// (`onPayerAuthentication…`, `onSafepayError`) answers the app's `configure`, maybe more than once (Required,
    /// then Success).
    private static let paymentReplies = StepReplies(
        answers: { step, request in
            if let asked = threeDSRequests[step] { return request == asked }
            return step == InframeEventName.ack.rawValue || step == "ack" || step == "Erro" || (isDelegateCallback(step) && request == FlowStep.configure.rawValue)
        },
        answersAgain: isDelegateCallback)

    private static let threeDSRequests = ["ARes": "AReq", "CRes": "CReq", "RRes": "RReq", "PRes": "PReq"]

    @Sendable private static func isDelegateCallback(_ step: String) -> Bool {
        step.hasPrefix("onPayerAuthentication") || step == "onSafepayError"
    }
}

extension FlowStep {
    /// The app configures the SafepayPayerAuthenticationView.
    public static let configure = FlowStep("configure")
    /// The Drops page's card form.
    public static let paymentDetails = FlowStep("card form")
    /// A challenge screen (CRes) shown to the cardholder.
    public static let challengeScreen = FlowStep("challenge screen")
}

extension Participant {
    /// The native Safepay Drops SDK: the payer-authentication view and its side of the bridge.
    public static let safepayDrops = Participant("SafepayDrops")
    /// The Drops web page (in the WKWebView).
    public static let drops = Participant("Drops")
    /// The 3-D Secure directory server.
    public static let directoryServer = Participant("DS")
    /// The card issuer's access control server.
    public static let acs = Participant("ACS")
    /// The cardholder's other device (an out-of-band challenge's banking app).
    public static let otherDevice = Participant("other device")
}

/// What the card form starts with: the payment the merchant asks for.
public struct PaymentDefaults: Sendable, Equatable {
    public var amount: String
    public var currency: String
    public var merchant: String

    public init(amount: String = "49.99", currency: String = "EUR", merchant: String = "Demo Shop") {
        self.amount = amount
        self.currency = currency
        self.merchant = merchant
    }
}

/// How the app uses Safepay Drops, and how the simulated bridge behaves.
public struct PaymentSettings: FamilySettings {
    public static let defaults = PaymentSettings()

    /// The Drops environment the app configures.
    public var safepayEnvironment: SafepayEnvironment
    /// The bridge's ack timeout and retries: the Swift host's (1.5 s × 3) or the web hosts' (1 s × 2).
    public var bridgeTiming: BridgeTiming
    /// Bridge faults on from the start beyond the scenario's (`--bridge-fault`): they join the world's, which the
    /// faults panel switches live.
    public var bridgeFaults: BridgeFaults
    public var paymentDefaults: PaymentDefaults

    public init(
        safepayEnvironment: SafepayEnvironment = .sandbox, bridgeTiming: BridgeTiming = .swiftHost, bridgeFaults: BridgeFaults = .none,
        paymentDefaults: PaymentDefaults = PaymentDefaults()
    ) {
        self.safepayEnvironment = safepayEnvironment
        self.bridgeTiming = bridgeTiming
        self.bridgeFaults = bridgeFaults
        self.paymentDefaults = paymentDefaults
    }
}

/// The Drops page's card form.
public struct PaymentDetailsRequest: PromptRequest, Equatable {
    public let defaults: PaymentDefaults

    public func accepts(_ answer: PromptAnswer) -> Bool { answer.value(as: PaymentDetails.self) != nil }
    public func title(in flow: FlowKind) -> String { "\(flow.title) — card details" }
}

/// A challenge screen of the issuer's ACS.
public struct ChallengeRequest: PromptRequest, Equatable {
    public let screen: ChallengeScreen
    /// An out-of-band screen's: where the cardholder approves or refuses, at once, before continuing here.
    public let otherDevice: OtherDevice?

    public init(screen: ChallengeScreen, otherDevice: OtherDevice? = nil) {
        self.screen = screen
        self.otherDevice = otherDevice
    }

    public static func == (lhs: ChallengeRequest, rhs: ChallengeRequest) -> Bool {
        lhs.screen == rhs.screen && (lhs.otherDevice == nil) == (rhs.otherDevice == nil)
    }

    public func accepts(_ answer: PromptAnswer) -> Bool { answer.value(as: CardholderAction.self) != nil }
    public func title(in flow: FlowKind) -> String { "\(flow.title) — \(screen.issuerName)" }
}

extension PromptAnswer {
    /// The card form, filled in.
    public static func payment(_ details: PaymentDetails) -> PromptAnswer { PromptAnswer(details) }
    /// What the cardholder does on a challenge screen.
    public static func challenge(_ action: CardholderAction) -> PromptAnswer { PromptAnswer(action) }
}

/// Safepay Drops payer authentication: the app configures the view, the simulated page asks the cardholder
/// for the card and each challenge, and the final delegate callback ends the payment.
public final class PaymentFamily: FlowFamily {
    public let settings: PaymentSettings
    /// The world and the bridge faults the session started with (the scenario's and `--bridge-fault`'s), from when
    /// the family joined its service: what its fault switches are made of.
    private let faults = Locked<(world: SimulatedWorld, start: BridgeFaults)?>(nil)

    public init(settings: PaymentSettings = PaymentSettings()) {
        self.settings = settings
    }

    public static let kinds: [FlowKind] = [.payerAuth]

    /// The settings' bridge faults (`--bridge-fault`) join the world's, which start as the scenario's: a service made
    /// without them keeps the scenario's (they were replaced). Both together are the session's start.
    public func attach(to service: FlowService) {
        let start = service.world.updateFaults { _, bridge in
            bridge = bridge.merged(with: settings.bridgeFaults)
            return bridge
        }
        faults.withLock { $0 = (service.world, start) }
    }

    /// The bridge's and 3-D Secure's faults, made when asked (the faults panel).
    public var faultSwitches: [FaultSwitch] {
        faults.withLock { $0 }.map { $0.world.paymentFaultSwitches(start: $0.start) } ?? []
    }

    public func run(_ run: FlowRun) async -> FlowResult? { await PaymentFlow(run: run, settings: settings).run() }

    /// The network's faults (the page load, the AReq and each CReq cross it), and the bridge's and 3-D Secure's;
    /// not the IdP's pages, its certificate, the device's MC-SDK or its clock, which no payment reaches.
    public static func faultKeys(reaching kind: FlowKind) -> [String] { reachingKeys }

    private static let reachingKeys = IdentityFaults.Fault.network.map(\.key) + BridgeFaults.Fault.keys
}

extension FlowConfiguration {
    /// How the app uses Safepay Drops.
    public var payment: PaymentSettings {
        get { self[PaymentSettings.self] }
        set { self[PaymentSettings.self] = newValue }
    }
}
