/// An event sent to or returned by the master controller (the MC-SDK's `KsEvent`). Results are read by casting
/// to their type, as with the real MC-SDK.
public protocol KsEvent: Sendable {
    /// The event's name in logs, e.g. `StartEvent`.
    func getName() -> String
}

/// The documentation's name for the same protocol.
public typealias KSMEvent = KsEvent

/// The first event of every session.
public struct KSMStartEvent: KsEvent {
    public let locale: String
    public let version: KSMVersion
    public let appName: String

    public init(locale: String, version: KSMVersion, appName: String) {
        self.locale = locale
        self.version = version
        self.appName = appName
    }

    /// idp-tui's shorthand: locale `en`, version 1.0.0, app name `idp-tui`.
    public init() {
        self.init(locale: KSMVersion.shorthandLocale, version: .shorthand, appName: KSMVersion.shorthandAppName)
    }

    public func getName() -> String { "StartEvent" }
}

public struct KSMStartResultEvent: KsEvent {
    public let status: KSMEventStatusType
    public let sdkState: KSMSdkState
    /// The enrolled users: empty until activation, one user afterwards.
    public let userList: [KsUserIdentifier]
    /// The same users with their details, as KOBIL's iOS samples read them.
    public let userDetailsList: [KsUserDetails]
    /// 0, or the MC-SDK's code for why Start failed (the simulated controller gives none: the status says it).
    public let errorCode: Int
    /// 0, or the report the MC-SDK filed (the simulated controller files none).
    public let reportId: Int
    /// Why Start failed; empty when it did not.
    public let errorDescription: String

    /// Public so that an app's tests can hand its handler a result, as the controller would.
    public init(status: KSMEventStatusType, sdkState: KSMSdkState, userList: [KsUserIdentifier] = [], errorCode: Int = 0, reportId: Int = 0,
                errorDescription: String = "") {
        self.status = status
        self.sdkState = sdkState
        self.userList = userList
        userDetailsList = userList.map(KsUserDetails.init(userIdentifier:))
        self.errorCode = errorCode
        self.reportId = reportId
        self.errorDescription = errorDescription
    }

    public func getName() -> String { "StartResultEvent" }
}

/// Asks for the data the IdpSdk needs to open a login: the AST client id and a fresh PKCE challenge.
public struct KSMGetAstClientDataEvent: KsEvent {
    public let tenantId: String

    public init(tenantId: String) {
        self.tenantId = tenantId
    }

    public func getName() -> String { "GetAstClientDataEvent" }
}

public struct KSMGetAstClientDataResultEvent: KsEvent {
    public let status: KSMEventStatusType
    /// Opaque to the app; the IdpSdk passes it on.
    public let clientData: String
    /// 26 zeros before activation, the minted id afterwards.
    public let astClientId: String
    /// The PKCE S256 challenge (spelled as on iOS).
    public let codeChallange: String
    public let codeChallangeMethod: String
    /// ``codeChallange`` as Android spells it (REFERENCE.md), as the Android event names are typealiases.
    public var codeChallenge: String { codeChallange }
    /// ``codeChallangeMethod`` as Android spells it.
    public var codeChallengeMethod: String { codeChallangeMethod }
    public let hasErrorOccurred: Bool
    public let errorCode: Int
    public let reportId: Int
    /// Why it failed; empty when it did not.
    public let errorDescription: String

    /// Public so that an app's tests can hand its handler a result, as the controller would.
    public init(status: KSMEventStatusType, clientData: String, astClientId: String, codeChallange: String, codeChallangeMethod: String,
                hasErrorOccurred: Bool = false, errorCode: Int = 0, reportId: Int = 0, errorDescription: String = "") {
        self.status = status
        self.clientData = clientData
        self.astClientId = astClientId
        self.codeChallange = codeChallange
        self.codeChallangeMethod = codeChallangeMethod
        self.hasErrorOccurred = hasErrorOccurred
        self.errorCode = errorCode
        self.reportId = reportId
        self.errorDescription = errorDescription
    }

    public func getName() -> String { "GetAstClientDataResultEvent" }

    static func failure(_ status: KSMEventStatusType, _ description: String) -> KSMGetAstClientDataResultEvent {
        KSMGetAstClientDataResultEvent(
            status: status, clientData: "", astClientId: "", codeChallange: "", codeChallangeMethod: "",
            hasErrorOccurred: true, errorCode: 0, reportId: 0, errorDescription: description)
    }
}

/// Exchanges the IdpSdk's authorization code for tokens; on the enrollment client it activates the device.
public struct KSMSetAuthorisationCodeEvent: KsEvent {
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

    public func getName() -> String { "SetAuthorisationCodeEvent" }
}

/// The authorisation code is never printed: it is a bearer credential until the MC-SDK exchanges it (as
/// `IdpSdkResult` keeps it).
extension KSMSetAuthorisationCodeEvent: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "KSMSetAuthorisationCodeEvent(tenantId: \(tenantId), authenticationMode: \(authenticationMode.rawValue), "
            + "authorisationCode: <redacted>, clientId: \(clientId))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["tenantId": tenantId, "authenticationMode": authenticationMode, "authorisationCode": "<redacted>",
                                "clientId": clientId])
    }
}

public struct KSMSetAuthorisationCodeResultEvent: KsEvent {
    public let status: KSMEventStatusType
    /// The user now logged in, when the status is OK.
    public let userIdentifier: KsUserIdentifier?
    /// The device's AST client id once the status is OK (minted at activation, as KOBIL's iOS samples read it
    /// here); empty otherwise.
    public let astClientId: String
    /// The IdP's error code (subsystem 513) when it refused the code, else 0.
    public let errorCode: Int
    /// Empty when all went well, as on every result event.
    public let errorDescription: String

    /// Public so that an app's tests can hand its handler a result, as the controller would.
    public init(status: KSMEventStatusType, userIdentifier: KsUserIdentifier?, astClientId: String = "", errorCode: Int = 0,
                errorDescription: String = "") {
        self.status = status
        self.userIdentifier = userIdentifier
        self.astClientId = astClientId
        self.errorCode = errorCode
        self.errorDescription = errorDescription
    }

    public func getName() -> String { "SetAuthorisationCodeResultEvent" }

    static func failure(_ status: KSMEventStatusType, _ code: Int, _ description: String) -> KSMSetAuthorisationCodeResultEvent {
        KSMSetAuthorisationCodeResultEvent(status: status, userIdentifier: nil, errorCode: code, errorDescription: description)
    }
}

/// Logout: ends the session. Wait for its result before sending anything else.
public struct KSMRestartEvent: KsEvent {
    public let locale: String
    public let version: KSMVersion
    public let appName: String

    public init(locale: String, version: KSMVersion, appName: String) {
        self.locale = locale
        self.version = version
        self.appName = appName
    }

    /// idp-tui's shorthand, as for ``KSMStartEvent/init()``.
    public init() {
        self.init(locale: KSMVersion.shorthandLocale, version: .shorthand, appName: KSMVersion.shorthandAppName)
    }

    public func getName() -> String { "RestartEvent" }
}

public struct KSMRestartResultEvent: KsEvent {
    public let status: KSMEventStatusType
    public let sdkState: KSMSdkState
    /// The enrolled users, as after Start.
    public let userList: [KsUserIdentifier]
    public let userDetailsList: [KsUserDetails]
    public let errorCode: Int
    public let reportId: Int
    /// Why the restart failed; empty when it did not.
    public let errorDescription: String

    /// Public so that an app's tests can hand its handler a result, as the controller would.
    public init(status: KSMEventStatusType, sdkState: KSMSdkState, userList: [KsUserIdentifier] = [], errorCode: Int = 0, reportId: Int = 0,
                errorDescription: String = "") {
        self.status = status
        self.sdkState = sdkState
        self.userList = userList
        userDetailsList = userList.map(KsUserDetails.init(userIdentifier:))
        self.errorCode = errorCode
        self.reportId = reportId
        self.errorDescription = errorDescription
    }

    public func getName() -> String { "RestartResultEvent" }
}

/// The answer to an event that makes no sense in the current state.
public struct KSMInvalidStateEvent: KsEvent {
    public let errorMessage: String

    /// Public so that an app's tests can hand its handler a result, as the controller would.
    public init(errorMessage: String) {
        self.errorMessage = errorMessage
    }

    public func getName() -> String { "InvalidStateEvent" }
}

/// After a restart: log in again with the offline token the last online login left, without the IdP.
public struct KSMOfflineLoginEvent: KsEvent {
    /// The user to log in; nil for the device's enrolled user.
    public let userIdentifier: KsUserIdentifier?

    public init(userIdentifier: KsUserIdentifier? = nil) {
        self.userIdentifier = userIdentifier
    }

    public func getName() -> String { "OfflineLoginEvent" }
}

public struct KSMOfflineLoginResultEvent: KsEvent {
    /// OK, or NO_TOKEN_DATA_AVAILABLE (no offline token on the device), LOGIN_REQUIRED (it expired),
    /// INVALID_STATE (not started, not activated).
    public let status: KSMEventStatusType
    public let userIdentifier: KsUserIdentifier?
    /// Empty when all went well, as on every result event.
    public let errorDescription: String

    /// Public so that an app's tests can hand its handler a result, as the controller would.
    public init(status: KSMEventStatusType, userIdentifier: KsUserIdentifier?, errorDescription: String = "") {
        self.status = status
        self.userIdentifier = userIdentifier
        self.errorDescription = errorDescription
    }

    public func getName() -> String { "OfflineLoginResultEvent" }
}

/// The master controller hit an error it cannot recover from in place; it restarts itself after sending this
/// (the app must send StartEvent again). Pushed to the app's receiver unasked.
public struct KSMErrorRuntimeEvent: KsEvent {
    public let errorType: KSMErrorType
    public let errorCode: Int
    public let errorDescription: String

    /// Public so that an app's tests can hand its handler one, as the controller would.
    public init(errorType: KSMErrorType = .runtimeError, errorCode: Int, errorDescription: String) {
        self.errorType = errorType
        self.errorCode = errorCode
        self.errorDescription = errorDescription
    }

    public func getName() -> String { "ErrorRuntimeEvent" }
}

extension KSMErrorRuntimeEvent {
    /// The simulated MC-SDK's one runtime error's code: it failed to store the token data SetAuthorisationCode got
    /// (**ours**, docs/faults.md: the vendor publishes no codes; it gave 0, which read as "no error").
    package static let tokenStorageFailed = 1
}

// The events as the migration guide's prose and Android name them, without the iOS prefix.
public typealias StartEvent = KSMStartEvent
public typealias StartResultEvent = KSMStartResultEvent
public typealias GetAstClientDataEvent = KSMGetAstClientDataEvent
public typealias GetAstClientDataResultEvent = KSMGetAstClientDataResultEvent
public typealias SetAuthorisationCodeEvent = KSMSetAuthorisationCodeEvent
public typealias SetAuthorisationCodeResultEvent = KSMSetAuthorisationCodeResultEvent
public typealias RestartEvent = KSMRestartEvent
public typealias RestartResultEvent = KSMRestartResultEvent
public typealias OfflineLoginEvent = KSMOfflineLoginEvent
public typealias OfflineLoginResultEvent = KSMOfflineLoginResultEvent
public typealias InvalidStateEvent = KSMInvalidStateEvent
/// REFERENCE.md's name for it.
public typealias RuntimeErrorEvent = KSMErrorRuntimeEvent

extension KSMVersion {
    /// What idp-tui's shorthand Start and Restart events say: version 1.0.0 of `idp-tui`, locale `en`.
    static let shorthand = KSMVersion(majorVersion: 1, minorVersion: 0, build: 0)
    static let shorthandLocale = "en"
    static let shorthandAppName = "idp-tui"
}
