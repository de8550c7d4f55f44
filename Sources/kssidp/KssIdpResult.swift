import KSMasterController

/// A W3C trace context: the `parentSpan` a call was given.
public struct TraceContext: Sendable, Equatable {
    public let traceParent: String
    public let traceState: String?

    public init(traceParent: String, traceState: String?) {
        self.traceParent = traceParent
        self.traceState = traceState
    }
}

/// The IdP's error, as the wrapper reports it: the IdpSdk's subsystem, code and description.
public struct KssIdpErrorModel: Sendable, Equatable {
    public let subsystem: Int
    public let code: String
    public let description: String
    public let parameters: [String: String]

    /// Public so that an app's tests can make one (the wrapper's are made by the wrapper).
    public init(subsystem: Int, code: String, description: String, parameters: [String: String] = [:]) {
        self.subsystem = subsystem
        self.code = code
        self.description = description
        self.parameters = parameters
    }
}

/// How the HTTP part of a call ended (the vendor's name; its cases are not public: these are idp-tui's).
public enum KSMCreateHttpCommonRequestStatus: Sendable, Equatable {
    /// The IdP answered with an error page.
    case failed
    /// No IdP answered: the network, a timeout, or certificate pinning.
    case notReachable
    /// The request was refused before it was sent: the certificate or an answer the IdP's form needs.
    case invalidParameter
}

/// The result's detail on success (the vendor's name; only `.success` is public).
public enum ResultStatus: Sendable, Equatable {
    case success
}

/// How a wrapper call ended.
public enum KssIdpStatus: Sendable, Equatable {
    case success(message: String, resultStatus: ResultStatus? = .success)
    /// An MC-SDK event failed with this status.
    case eventFailed(status: KSMEventStatusType, errorDescription: String, line: Int)
    /// The IdP's login failed.
    case requestFailed(status: KSMCreateHttpCommonRequestStatus, httpStatus: Int, errorModel: KssIdpErrorModel, line: Int)
    /// Local (biometric) authentication failed; the simulated device never fails it.
    case biometricError(errorCode: Int, errorDescription: String)
}

/// What a call ended in, for the app's `handleNewResult(newResultObject:)`.
public struct KssIdpResultObject: Sendable, Equatable {
    public let status: KssIdpStatus
    /// The user now logged in; empty when the call failed.
    public let userId: String
    public let traceContext: TraceContext?

    /// Public so that an app's tests can hand its `handleNewResult(newResultObject:)` any result.
    public init(status: KssIdpStatus, userId: String, traceContext: TraceContext?) {
        self.status = status
        self.userId = userId
        self.traceContext = traceContext
    }
}

/// The MC-SDK's side of a call: the status of the last event, its error, and the SetAuthorisationCode result.
public struct ResultObject: Sendable {
    public let status: KSMEventStatusType
    public let errorCode: Int
    public let reportId: Int
    public let userId: String
    public let errorDescription: String?
    /// The SetAuthorisationCode result event, when the call got that far.
    public let event: KSMSetAuthorisationCodeResultEvent?

    /// Public so that an app's tests can make one.
    public init(status: KSMEventStatusType, errorCode: Int, reportId: Int, userId: String, errorDescription: String?,
                event: KSMSetAuthorisationCodeResultEvent?) {
        self.status = status
        self.errorCode = errorCode
        self.reportId = reportId
        self.userId = userId
        self.errorDescription = errorDescription
        self.event = event
    }
}
