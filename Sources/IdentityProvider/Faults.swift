import Threading

/// Faults of the identity side that a scenario, the terminal's faults panel or a headless answer can switch
/// on, each surfacing as the error the real SDK would report.
public struct IdentityFaults: Sendable, Equatable {
    /// Every request fails as if the device had no network.
    public var networkUnavailable = false
    /// Added to every round trip.
    public var addedLatency: Duration = .zero
    /// The IdP never answers; the request gives up after ``FaultSwitchboard/requestTimeout``.
    public var requestTimeout = false
    /// The IdP answers HTTP 500.
    public var serverError = false
    /// The IdP answers a login page the SDK cannot read.
    public var malformedPage = false
    /// The IdP presents a certificate chain that is not the pinned one.
    public var pinningFails = false
    /// The device is rooted or jailbroken: the MC-SDK refuses to start.
    public var insecureDevice = false
    /// The MC-SDK hits a runtime error on the next SetAuthorisationCode and restarts itself; the switch then turns
    /// itself off (``FaultSwitchboard/takeRuntimeError()``).
    public var runtimeError = false
    /// The IdP's clock runs ahead by this much (activation codes look expired).
    public var clockSkew: Duration = .zero

    public init() {}

    public static let none = IdentityFaults()

    /// The faults that are on, in words, for logs: "network unavailable", "added latency +200 ms" … (the added latency
    /// by the name the faults panel and its ⚡ give it: it was "latency +200 ms" here alone).
    public var activeNames: [String] { activeNames { _ in true } }

    /// Every fault, made once: a flow's start asks for the names.
    private static let everyFault = Fault.allCases

    /// The faults on that `include` takes, in words, in the order of ``Fault`` (`include` is asked of those on only):
    /// what a flow that only those can reach lists as it starts (a payment is not reached by the IdP's pages).
    public func activeNames(where include: (Fault) -> Bool) -> [String] {
        Self.everyFault.compactMap { fault in
            guard isOn(fault), include(fault) else { return nil }
            return switch fault {
            case .networkUnavailable: "network unavailable"
            case .addedLatency: "added latency +\(addedLatency.milliseconds) ms"
            case .requestTimeout: "request timeout"
            case .serverError: "server error"
            case .malformedPage: "malformed page"
            case .pinningFails: "certificate pinning fails"
            case .insecureDevice: "insecure device"
            case .runtimeError: "MC runtime error"
            case .clockSkew: "clock skew \(Self.skewText(clockSkew))"
            }
        }
    }

    /// A skew in words: "31 days ahead", "1 day ahead", "2 h behind", "90 s ahead" (whole days were all it said:
    /// "1 days", and a 2 h skew "0 days").
    public static func skewText(_ skew: Duration) -> String {
        let seconds = skew.components.seconds, size = abs(seconds)
        let amount = size % 86_400 == 0 ? "\(size / 86_400) day\(size == 86_400 ? "" : "s")" : size % 3_600 == 0 ? "\(size / 3_600) h" : "\(size) s"
        return amount + (seconds < 0 ? " behind" : " ahead")
    }

    /// Each of the faults, by name.
    public enum Fault: CaseIterable, Sendable {
        case networkUnavailable, addedLatency, requestTimeout, serverError, malformedPage, pinningFails, insecureDevice,
            runtimeError, clockSkew

        /// The faults of every round trip on the simulated network, whoever it goes to.
        public static let network: [Fault] = [.networkUnavailable, .addedLatency, .requestTimeout]

        /// Every fault's key, in order.
        public static let keys: [String] = allCases.map(\.key)

        /// The key a scenario's or an answer's `faults` gives it by.
        public var key: String {
            switch self {
            case .networkUnavailable: "networkUnavailable"
            case .addedLatency: "addedLatencyMs"
            case .requestTimeout: "requestTimeout"
            case .serverError: "serverError"
            case .malformedPage: "malformedPage"
            case .pinningFails: "pinningFails"
            case .insecureDevice: "insecureDevice"
            case .runtimeError: "runtimeError"
            case .clockSkew: "clockSkewDays"
            }
        }
    }

    /// Whether `fault` is on.
    public func isOn(_ fault: Fault) -> Bool {
        switch fault {
        case .networkUnavailable: networkUnavailable
        case .addedLatency: addedLatency > .zero
        case .requestTimeout: requestTimeout
        case .serverError: serverError
        case .malformedPage: malformedPage
        case .pinningFails: pinningFails
        case .insecureDevice: insecureDevice
        case .runtimeError: runtimeError
        case .clockSkew: clockSkew != .zero
        }
    }
}

extension Duration {
    /// Whole milliseconds.
    package var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }

    /// In seconds, to the millisecond, for people: "10 s", "2.5 s".
    package var secondsText: String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}

/// The live switches of the identity faults, shared by the network, the IdP and the master controller of one
/// simulation. Whoever a fault bites reports it through ``onTrigger``, so that the flow's log can say that a
/// fault was injected.
public final class FaultSwitchboard: Sendable {
    /// How long a request waits for an IdP that never answers before it gives up (the SDK's request timeout).
    public static let requestTimeout: Duration = .seconds(30)

    private let state = Locked(State())

    private struct State {
        var faults = IdentityFaults()
        var listener: (@Sendable (String) -> Void)?
    }

    public init(_ faults: IdentityFaults = .none) {
        state.withLock { $0.faults = faults }
    }

    public var faults: IdentityFaults {
        get { state.withLock { $0.faults } }
        set {
            state.withLock { $0.faults = newValue }
        }
    }

    /// Changes the faults in one step: a switch read, changed and written back apart could put back a runtime error
    /// that ``takeRuntimeError()`` had turned off in between.
    public func update<Result>(_ change: (inout IdentityFaults) throws -> Result) rethrows -> Result {
        try state.withLock { try change(&$0.faults) }
    }

    /// Called with a fault's name each time it bites.
    public func onTrigger(_ listener: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.listener = listener }
    }

    /// Reports that `name` bit.
    public func triggered(_ name: String) {
        state.withLock { $0.listener }?(name)
    }

    /// Whether the runtime error should fire now. It fires once, and its switch turns itself off: the faults
    /// panel and the next flow's "faults on" no longer show it (they showed it on, never to fire again).
    public func takeRuntimeError() -> Bool {
        state.withLock { state in
            guard state.faults.runtimeError else { return false }
            state.faults.runtimeError = false
            return true
        }
    }
}
