import Determinism
import IdentityProvider
import DropsWeb
import Secrets
import ThreeDSecure

/// Everything a simulation starts from: the IdP's tenants, users and policies, the app's tenant, the cards the
/// issuer knows, the challenge rules, the network and the faults that are on from the start.
public struct Scenario: Sendable {
    public var name: String
    public var identityProvider: IdentityProviderConfiguration
    /// The tenant the app's IdpSdk and MC-SDK are configured for.
    public var appTenant: String
    public var cards: [TestCard]
    public var challengePolicy: ChallengePolicy
    /// The 3-D Secure timers (the specification's unless the file shortens them).
    public var threeDSTimers: ThreeDSTimers
    public var networkLatency: Duration
    /// How long the SDKs wait for a server's answer before they give up (`network.requestTimeoutSeconds`).
    public var requestTimeout: Duration
    /// How long the Drops page may take to say it is ready (`payments.timers.bridgeReadySeconds`); nil: the host's
    /// own (10 s).
    public var bridgeReadyTimeout: Duration?
    public var identityFaults: IdentityFaults
    public var bridgeFaults: BridgeFaults

    public init(
        name: String, identityProvider: IdentityProviderConfiguration, appTenant: String, cards: [TestCard] = CardCatalog.defaults,
        challengePolicy: ChallengePolicy = ChallengePolicy(), threeDSTimers: ThreeDSTimers = ThreeDSTimers(),
        networkLatency: Duration = .zero, requestTimeout: Duration = FaultSwitchboard.requestTimeout, bridgeReadyTimeout: Duration? = nil,
        identityFaults: IdentityFaults = .none, bridgeFaults: BridgeFaults = .none
    ) {
        self.name = name
        self.identityProvider = identityProvider
        self.appTenant = appTenant
        self.cards = cards
        self.challengePolicy = challengePolicy
        self.threeDSTimers = threeDSTimers
        self.networkLatency = networkLatency
        self.requestTimeout = requestTimeout
        self.bridgeReadyTimeout = bridgeReadyTimeout
        self.identityFaults = identityFaults
        self.bridgeFaults = bridgeFaults
    }

    /// The embedded default: tenant `demo` with alice and bob, the default cards, no latency, no faults.
    /// docs/scenarios/default.json is the same scenario as a file.
    public static let embeddedDefault = Scenario(name: "demo", identityProvider: .demo(), appTenant: "demo")
}
