import DropsWeb
import FlowEngine
import IdentityProvider
import IdpTuiWorld
import ThreeDSecure

/// The bridge's and 3-D Secure's faults as the faults panel switches them: read when a payment starts.
extension BridgeFaults.Fault {
    /// Space moves the servers' faults to their next value rather than on or off.
    var cycles: Bool { self == .directoryServer || self == .acs }

    /// What switching it on does. Lost acks say the count they have when on, and the one switching them on gives
    /// when off (the session's starting one, `start`, where it had one); the timers' faults say the scenario's timer
    /// (a scenario's 1 s method timer was shown as the default 10 s).
    func label(_ faults: BridgeFaults, start: BridgeFaults, timers: ThreeDSTimers) -> String {
        let acks = faults.isOn(self) ? faults.lostAcks : start.lostAcks > 0 ? start.lostAcks : 2
        return switch self {
        case .loseAcks: acks == 1 ? "bridge: the first ack is lost" : "bridge: the first \(acks) acks are lost"
        case .loseEveryAck: "bridge: every ack is lost"
        case .readyNeverComes: "bridge: the Drops page never gets ready"
        case .malformedMessage: "bridge: a malformed message"
        case .unknownEvent: "bridge: an unknown event"
        case .wrongOrigin: "bridge: messages from the wrong origin"
        case .methodTimeout: "3DS: the 3DS Method never completes (\(timers.method.secondsText))"
        case .firstCReqLost: "3DS: the first CReq is lost (\(timers.firstCReq.secondsText))"
        case .directoryServer: "3DS: directory server \(faults.threeDS.directoryServer?.name ?? "answers normally")"
        case .acs: "3DS: ACS \(faults.threeDS.acs?.name ?? "answers normally")"
        }
    }

    func toggle(_ faults: inout BridgeFaults, start: BridgeFaults) {
        let on = !faults.isOn(self)
        switch self {
        case .loseAcks: faults.lostAcks = on ? (start.lostAcks > 0 ? start.lostAcks : 2) : 0
        case .loseEveryAck: faults.loseEveryAck = on
        case .readyNeverComes: faults.readyNeverComes = on
        case .malformedMessage: faults.malformedMessage = on
        case .unknownEvent: faults.unknownEvent = on
        case .wrongOrigin: faults.wrongOrigin = on
        case .methodTimeout: faults.threeDS.methodTimeout = on
        case .firstCReqLost: faults.threeDS.firstCReqLost = on
        case .directoryServer: faults.threeDS.directoryServer = Self.next(after: faults.threeDS.directoryServer)
        case .acs: faults.threeDS.acs = Self.next(after: faults.threeDS.acs)
        }
    }

    /// The server fault a cycling switch has now (nil: off, or a switch that does not cycle).
    func server(_ faults: BridgeFaults) -> ServerFault? {
        switch self {
        case .directoryServer: faults.threeDS.directoryServer
        case .acs: faults.threeDS.acs
        default: nil
        }
    }

    /// off → unreachable → slow → … → malformed → off.
    static func next(after fault: ServerFault?) -> ServerFault? {
        let all = ServerFault.allCases
        guard let fault, let index = all.firstIndex(of: fault) else { return all.first }
        return index + 1 < all.count ? all[index + 1] : nil
    }
}

extension SimulatedWorld {
    /// The bridge's and 3-D Secure's faults as switches; `start`: the faults the session started with (the
    /// scenario's and `--bridge-fault`'s).
    func paymentFaultSwitches(start: BridgeFaults) -> [FaultSwitch] {
        let timers = scenario.threeDSTimers
        return BridgeFaults.Fault.allCases.map { fault in
            let read: @Sendable () -> (isOn: Bool, label: String) = { [self] in
                let faults = bridgeFaults
                return (faults.isOn(fault), fault.label(faults, start: start, timers: timers))
            }
            let change: @Sendable () -> (isOn: Bool, label: String) = { [self] in
                updateFaults { _, bridge in
                    fault.toggle(&bridge, start: start)
                    return (bridge.isOn(fault), fault.label(bridge, start: start, timers: timers))
                }
            }
            // The servers' faults name their values, in the order space moves to them: plain mode says them.
            guard fault.cycles else { return FaultSwitch(key: fault.key, read: read, change: change) }
            return FaultSwitch(key: fault.key, values: ServerFault.allCases.map(\.name), value: { [self] in
                fault.server(bridgeFaults).flatMap { ServerFault.allCases.firstIndex(of: $0) }
            }, read: read, change: change)
        }
    }
}
