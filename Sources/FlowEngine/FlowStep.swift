/// A step of a flow, by the name of the SDK call, event or message it makes: `Start`, `provideCredentials`,
/// `safepay-property-update`, `AReq`, `onPayerAuthenticationSuccess` …
///
/// A name rather than a closed enum: the payment flow's steps are the bridge's and the 3-D Secure protocol's
/// own message names, and the log shows them as they are.
/// (Coded as its name alone: the standard library's coding of a `String`-backed `RawRepresentable`.)
public struct FlowStep: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { rawValue = name }

    public var description: String { rawValue }

    /// A fault of the simulation bit (network unavailable, server error …).
    public static let fault = FlowStep("fault injected")
    /// Not a call: which faults are on as the flow starts (none has bitten yet).
    public static let faultsOn = FlowStep("faults on")
    /// Not a call: a message the app's side of a bridge ignored (from the wrong origin, malformed, of an unknown
    /// event), as the Drops host rejects one.
    public static let rejected = FlowStep("rejected")
    /// Whether the event is a notice (a fault on or bitten, a message ignored, the flow's record not saved), not a
    /// call of the flow: the working screen does not show it as the call in flight (a rejected message read as
    /// "waiting for SafepayDrops: rejected", while the page's load was what the flow waited for).
    public var isFaultNotice: Bool { self == .fault || self == .faultsOn || self == .historyNotSaved || self == .rejected }
    /// Not a call: the flow waits, before it starts, for a cancelled flow's call that goes on (KSSIDP's).
    public static let waitingForFlow = FlowStep("waiting")
    /// Not a call: the flow was cancelled.
    public static let cancel = FlowStep("cancel")
    /// Not a call, nor a fault: the flow's history record could not be written (a full disk).
    public static let historyNotSaved = FlowStep("history not saved")
}

/// Who sends or receives a flow event, as in a sequence diagram: the app, an SDK, a server. Each flow family
/// names its own parties.
public struct Participant: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { rawValue = name }

    public var description: String { rawValue }

    public static let app = Participant("App")
    /// The simulation itself, injecting a fault.
    public static let simulator = Participant("simulator")
}
