/// The flows the service runs.
public enum FlowKind: String, Sendable, CaseIterable, Codable {
    case activate
    case login
    case logout
    /// Card payer authentication: Safepay Drops and EMV 3-D Secure.
    case payerAuth = "payer-auth"
    /// The Q2 authentication module's password login against Core.
    case q2Login = "q2-login"
    /// Activation and login through the legacy KSSIDP wrapper, on the same MC-SDK and IdP.
    case legacyActivate = "legacy-activate"
    case legacyLogin = "legacy-login"

    /// A title for screens, e.g. "Activate device".
    public var title: String {
        switch self {
        case .activate: "Activate device"
        case .login: "Log in"
        case .logout: "Log out"
        case .payerAuth: "Pay with card (3-D Secure)"
        case .q2Login: "Q2 login"
        case .legacyActivate: "Activate device (KSSIDP)"
        case .legacyLogin: "Log in (KSSIDP)"
        }
    }

    /// Whether the flow asks the user for anything.
    public var prompts: Bool { self != .logout }

    /// Whether the flow runs on the IdpSdk and the MC-SDK (the others are payments).
    public var usesIdentityProvider: Bool { self != .payerAuth && self != .q2Login }
}
