/// How a 3-D Secure server (the directory server or the ACS) misbehaves when a fault says so.
public enum ServerFault: String, Sendable, CaseIterable {
    /// No connection: the 3DS Server (for the DS) or the 3DS SDK (for the ACS) fails at once, Erro 405.
    case unreachable
    /// Answers, but five seconds late.
    case slow
    /// Never answers: the lookup timer (DS) or the first-CReq timer (ACS) ends it.
    case timeout
    /// Answers with an Erro message: 404 from the DS, 403 from the ACS.
    case erro
    /// Answers HTTP 500: the caller reports Erro 403.
    case http500
    /// Answers something that is not a message: the caller reports Erro 203.
    case malformed

    /// What the faults panel and the logs call it.
    public var name: String {
        switch self {
        case .unreachable: "unreachable"
        case .slow: "slow (+5 s)"
        case .timeout: "timing out"
        case .erro: "answering with an Erro message"
        case .http500: "answering HTTP 500"
        case .malformed: "answering a malformed message"
        }
    }
}

/// Faults of the 3-D Secure exchanges the Drops page runs (docs/faults.md).
public struct ThreeDSFaults: Sendable, Equatable {
    /// The 3DS Method never reports completion: after the method timer the AReq goes with threeDSCompInd N.
    public var methodTimeout = false
    /// The 3DS SDK's first CReq never reaches the ACS, whose first-CReq timer ends the challenge (N, reason 14,
    /// challengeCancel 05).
    public var firstCReqLost = false
    public var directoryServer: ServerFault?
    public var acs: ServerFault?

    public init(methodTimeout: Bool = false, firstCReqLost: Bool = false, directoryServer: ServerFault? = nil, acs: ServerFault? = nil) {
        self.methodTimeout = methodTimeout
        self.firstCReqLost = firstCReqLost
        self.directoryServer = directoryServer
        self.acs = acs
    }

    public static let none = ThreeDSFaults()

    /// Every fault on in either; where both set a server's fault, `other`'s.
    public func merged(with other: ThreeDSFaults) -> ThreeDSFaults {
        ThreeDSFaults(
            methodTimeout: methodTimeout || other.methodTimeout, firstCReqLost: firstCReqLost || other.firstCReqLost,
            directoryServer: other.directoryServer ?? directoryServer, acs: other.acs ?? acs)
    }
}

/// Why a round trip failed on the network.
public enum PageNetworkFailure: Error, Sendable, Equatable {
    /// The device has no network.
    case offline
    /// No answer within the request timeout.
    case timedOut(Duration)
}

/// The network the page's round trips cross (the page load, the AReq, every CReq): its latency and the network
/// faults that are on, and where a fault that bites is reported (the flow's log).
public protocol PageNetwork: Sendable {
    /// One round trip (the page's load, the payment's requests): suspended for its latency on the simulation
    /// clock, holding no thread, or failed as a network fault says.
    func roundTrip() async throws(PageNetworkFailure)
    /// Says in the flow's log that a fault was injected.
    func reportFault(_ what: String)
    /// Whether the device is offline now: nothing it sends leaves it (a round trip would fail at once).
    var isOffline: Bool { get }
}

extension PageNetwork {
    public var isOffline: Bool { false }
}
