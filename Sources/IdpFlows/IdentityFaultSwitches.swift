import FlowEngine
import IdentityProvider
import IdpTuiWorld

extension IdentityFaults.Fault {
    /// What switching it on does, as the faults panel says it. A fault with a value says the one it has when on (a
    /// scenario's `addedLatencyMs: 800` was shown as the 1000 ms that switching it on gives), and the one switching
    /// it on gives when off.
    /// `timeout`: how long the SDKs wait for an answer (the scenario's `network.requestTimeoutSeconds`).
    func switchLabel(_ faults: IdentityFaults, start: IdentityFaults, timeout: Duration) -> String {
        let shown = faults.isOn(self) ? faults : start
        return switch self {
        case .networkUnavailable: "network unavailable"
        case .addedLatency: "added latency: +\(shown.addedLatency > .zero ? shown.addedLatency.milliseconds : 1000) ms a round trip"
        case .requestTimeout: "request timeout: no server answers (\(timeout.secondsText))"
        case .serverError: "server error: the IdP and Q2 Core answer HTTP 500"
        case .malformedPage: "malformed page from the IdP"
        case .pinningFails: "certificate pinning fails"
        case .insecureDevice: "insecure device (rooted or jailbroken)"
        case .runtimeError: "MC runtime error, then the automatic restart"
        case .clockSkew: "clock skew: the IdP is \(IdentityFaults.skewText(shown.clockSkew != .zero ? shown.clockSkew : Self.panelSkew))"
        }
    }

    /// Switching on a fault with a value gives the session's starting one (`start`) where it had one, else the
    /// panel's own: a scenario's `addedLatencyMs: 800` switched off and on again was 1000 ms, and the scenario's
    /// value was then out of reach.
    func toggle(_ faults: inout IdentityFaults, start: IdentityFaults) {
        let on = !faults.isOn(self)
        switch self {
        case .networkUnavailable: faults.networkUnavailable = on
        case .addedLatency: faults.addedLatency = on ? (start.addedLatency > .zero ? start.addedLatency : .milliseconds(1000)) : .zero
        case .requestTimeout: faults.requestTimeout = on
        case .serverError: faults.serverError = on
        case .malformedPage: faults.malformedPage = on
        case .pinningFails: faults.pinningFails = on
        case .insecureDevice: faults.insecureDevice = on
        case .runtimeError: faults.runtimeError = on
        case .clockSkew: faults.clockSkew = on ? (start.clockSkew != .zero ? start.clockSkew : Self.panelSkew) : .zero
        }
    }

    /// The skew switching clock skew on gives without a scenario's: 31 days ahead, past an activation code's life.
    static let panelSkew: Duration = .seconds(31 * 86_400)
}

extension SimulatedWorld {
    /// The identity side's faults (the network's, the IdP's, the device's) as switches, in ``IdentityFaults/Fault``'s
    /// order; `start`: the faults the session started with, whose values a switch takes when switched on again.
    func identityFaultSwitches(start: IdentityFaults) -> [FaultSwitch] {
        IdentityFaults.Fault.allCases.map { fault in
            FaultSwitch(key: fault.key) { [self] in
                let faults = identityFaults
                return (faults.isOn(fault), fault.switchLabel(faults, start: start, timeout: network.requestTimeout))
            } change: { [self] in
                // In one step, as a flow may be changing them too (a runtime error turns itself off when it fires).
                updateFaults { identity, _ in
                    fault.toggle(&identity, start: start)
                    return (identity.isOn(fault), fault.switchLabel(identity, start: start, timeout: network.requestTimeout))
                }
            }
        }
    }
}
