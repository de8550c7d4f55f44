/// A step of a flow, by the name of the SDK call or event it makes.
public enum FlowStep: String, Sendable, Codable, CaseIterable {
    case start = "Start"
    case getAstClientData = "GetAstClientData"
    case getAuthorizationCode = "getAuthorizationCode"
    case provideCredentials = "provideCredentials"
    case setAuthorisationCode = "SetAuthorisationCode"
    case restart = "Restart"
    /// Not a call: the flow was cancelled.
    case cancel = "cancel"

    /// The component the app talks to in this step.
    public var peer: Participant {
        switch self {
        case .getAuthorizationCode, .provideCredentials: .idpSdk
        case .start, .getAstClientData, .setAuthorisationCode, .restart: .masterController
        case .cancel: .app
        }
    }
}

/// Who sends or receives a flow event, as in a sequence diagram.
public enum Participant: String, Sendable, Codable {
    case app = "App"
    case idpSdk = "IdpSdk"
    case masterController = "MC-SDK"
    case identityProvider = "IdP"
}
