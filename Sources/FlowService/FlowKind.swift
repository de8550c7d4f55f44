/// The flows the service runs.
public enum FlowKind: String, Sendable, CaseIterable, Codable {
    case activate
    case login
    case logout

    /// A title for screens, e.g. "Activate device".
    public var title: String {
        switch self {
        case .activate: "Activate device"
        case .login: "Log in"
        case .logout: "Log out"
        }
    }

    /// Whether the flow asks the user for credentials.
    public var prompts: Bool { self != .logout }
}
