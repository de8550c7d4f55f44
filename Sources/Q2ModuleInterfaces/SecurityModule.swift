import IdentityProvider

/// The answer of a security module.
public enum SecurityResult: Sendable, Equatable {
    case allow
    /// The reason reaches the sign-in as `MobileCoreLoginFailure.insecure(reason:)`.
    case deny(String)
}

/// The app's security module: Core asks it before a password login.
public protocol SecurityModule: Sendable {
    func allowLogin() -> SecurityResult
}

extension SecurityModule {
    public func allowLogin() -> SecurityResult { .allow }
}

/// The simulation's security module: it denies while the insecure-device fault is on, or always with a given
/// reason (`--insecure-device REASON`).
public struct SimulatedSecurityModule: SecurityModule {
    private let faults: FaultSwitchboard
    private let reason: String?

    package init(faults: FaultSwitchboard, reason: String? = nil) {
        self.faults = faults
        self.reason = reason
    }

    public func allowLogin() -> SecurityResult {
        // A reason given holds the fault on: it bites as the switch does, a `fault injected` in the log either way
        // (with a reason there was none, and a script counting the faults that bit counted none).
        guard reason != nil || faults.faults.insecureDevice else { return .allow }
        // The reason given is the one said (a tester's --insecure-device 'Cydia found' was logged as "rooted").
        faults.triggered("insecure device: the security module finds " + (reason.map { "it insecure: \($0)" } ?? "the device rooted"))
        return .deny(reason ?? "the device is rooted or jailbroken")
    }
}
