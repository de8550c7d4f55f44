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
        if let reason { return .deny(reason) }
        if faults.faults.insecureDevice {
            faults.triggered("insecure device: the security module finds the device rooted")
            return .deny("the device is rooted or jailbroken")
        }
        return .allow
    }
}
