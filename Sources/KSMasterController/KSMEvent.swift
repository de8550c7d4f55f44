/// An event sent to or returned by the master controller. Results are read by casting to their type, as
/// with the real MC-SDK.
public protocol KSMEvent: Sendable {
    /// The event's name in logs, e.g. `StartEvent`.
    var eventName: String { get }
}

/// The first event of every session.
public struct KSMStartEvent: KSMEvent {
    public init() {}
    public var eventName: String { "StartEvent" }
}

public struct KSMStartResultEvent: KSMEvent {
    public let status: StatusType
    public let sdkState: KSMSdkState
    /// The enrolled users: empty until activation, one user afterwards.
    public let userList: [KSMUserIdentifier]
    /// Why Start failed (idp-tui's addition: the real event's error details are not public).
    public var errorDescription: String? = nil
    public var eventName: String { "StartResultEvent" }
}

/// Asks for the data the IdpSdk needs to open a login: the AST client id and a fresh PKCE challenge.
public struct KSMGetAstClientDataEvent: KSMEvent {
    public init() {}
    public var eventName: String { "GetAstClientDataEvent" }
}

public struct KSMGetAstClientDataResultEvent: KSMEvent {
    public let status: StatusType
    /// Opaque to the app; the IdpSdk passes it on.
    public let clientData: String
    /// 26 zeros before activation, the minted id afterwards.
    public let astClientId: String
    /// The PKCE S256 challenge (spelled as on iOS).
    public let codeChallange: String
    public let codeChallangeMethod: String
    public let hasErrorOccurred: Bool
    public let errorCode: Int
    public let reportId: String?
    public let errorDescription: String?
    public var eventName: String { "GetAstClientDataResultEvent" }

    static func failure(_ status: StatusType, _ description: String) -> KSMGetAstClientDataResultEvent {
        KSMGetAstClientDataResultEvent(
            status: status, clientData: "", astClientId: "", codeChallange: "", codeChallangeMethod: "",
            hasErrorOccurred: true, errorCode: 0, reportId: nil, errorDescription: description)
    }
}

/// Exchanges the IdpSdk's authorization code for tokens; on the enrollment client it activates the device.
public struct KSMSetAuthorisationCodeEvent: KSMEvent {
    public let tenantId: String
    public let authenticationMode: KSMAuthenticationMode
    public let authorisationCode: String
    public let clientId: String

    public init(tenantId: String, authenticationMode: KSMAuthenticationMode, authorisationCode: String, clientId: String) {
        self.tenantId = tenantId
        self.authenticationMode = authenticationMode
        self.authorisationCode = authorisationCode
        self.clientId = clientId
    }

    public var eventName: String { "SetAuthorisationCodeEvent" }
}

public struct KSMSetAuthorisationCodeResultEvent: KSMEvent {
    public let status: StatusType
    /// The user now logged in, when the status is OK.
    public let userIdentifier: KSMUserIdentifier?
    /// The IdP's error code (subsystem 513) when it refused the code, else 0.
    public let errorCode: Int
    public let errorDescription: String?
    public var eventName: String { "SetAuthorisationCodeResultEvent" }
}

/// Logout: ends the session. Wait for its result before sending anything else.
public struct KSMRestartEvent: KSMEvent {
    public init() {}
    public var eventName: String { "RestartEvent" }
}

public struct KSMRestartResultEvent: KSMEvent {
    public let status: StatusType
    public let sdkState: KSMSdkState
    public var eventName: String { "RestartResultEvent" }
}

/// The answer to an event that makes no sense in the current state.
public struct KSMInvalidStateEvent: KSMEvent {
    public let errorMessage: String
    public var eventName: String { "InvalidStateEvent" }
}

/// After a restart: log in again with the offline token the last online login left, without the IdP.
public struct KSMOfflineLoginEvent: KSMEvent {
    public init() {}
    public var eventName: String { "OfflineLoginEvent" }
}

public struct KSMOfflineLoginResultEvent: KSMEvent {
    /// OK, or NO_TOKEN_DATA_AVAILABLE (no offline token on the device), LOGIN_REQUIRED (it expired),
    /// INVALID_STATE (not started, not activated).
    public let status: StatusType
    public let userIdentifier: KSMUserIdentifier?
    public let errorDescription: String?
    public var eventName: String { "OfflineLoginResultEvent" }
}

/// The master controller hit an error it cannot recover from in place; it restarts itself after sending this
/// (the app must send StartEvent again).
public struct KSMRuntimeErrorEvent: KSMEvent {
    public let errorMessage: String
    public var eventName: String { "RuntimeErrorEvent" }
}
