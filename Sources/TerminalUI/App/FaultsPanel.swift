import DropsWeb
import FlowRecords
import IdentityProvider
import LocaleText
import SafepayDropsSDK
import ThreeDSecure

/// One switch of the faults panel.
public enum FaultSwitch: CaseIterable, Sendable {
    case networkUnavailable, addedLatency, requestTimeout, serverError, malformedPage, pinningFails, insecureDevice,
        runtimeError, clockSkew, loseAcks, loseEveryAck, readyNeverComes, malformedMessage, unknownEvent, wrongOrigin,
        methodTimeout, firstCReqLost, directoryServer, acs

    /// What switching it on does; values that are not on/off switch between off and the value shown.
    public var label: String {
        switch self {
        case .networkUnavailable: "network unavailable"
        case .addedLatency: "added latency: +1000 ms a round trip"
        case .requestTimeout: "request timeout: no server answers (30 s)"
        case .serverError: "server error: the IdP and Q2 Core answer HTTP 500"
        case .malformedPage: "malformed page from the IdP"
        case .pinningFails: "certificate pinning fails"
        case .insecureDevice: "insecure device (rooted or jailbroken)"
        case .runtimeError: "MC runtime error, then the automatic restart"
        case .clockSkew: "clock skew: the IdP is 31 days ahead"
        case .loseAcks: "bridge: the first 2 acks are lost"
        case .loseEveryAck: "bridge: every ack is lost"
        case .readyNeverComes: "bridge: the Drops page never gets ready"
        case .malformedMessage: "bridge: a malformed message"
        case .unknownEvent: "bridge: an unknown event"
        case .wrongOrigin: "bridge: messages from the wrong origin"
        case .methodTimeout: "3DS: the 3DS Method never completes (10 s)"
        case .firstCReqLost: "3DS: the first CReq is lost (30 s)"
        case .directoryServer: "3DS: the directory server misbehaves"
        case .acs: "3DS: the ACS misbehaves"
        }
    }

    /// The label with the current value of a switch that cycles through values (space: the next one, as the help
    /// bar says when one has the focus).
    /// A switch that is on says the value it has: a scenario's (`addedLatencyMs: 800`) was shown as the 1000 ms that
    /// switching it on gives. One that is off says the value switching it on gives: the session's starting one
    /// (`start`: the scenario's and the command line's) where it had one, else the panel's own.
    public func label(_ identity: IdentityFaults, _ bridge: BridgeFaults, start: StartingFaults = StartingFaults()) -> String {
        let (identity, bridge) = isOn(identity, bridge) || cycles ? (identity, bridge) : (start.identity, start.bridge)
        return switch self {
        case .addedLatency where identity.addedLatency > .zero:
            "added latency: +\(identity.addedLatency.milliseconds) ms a round trip"
        case .clockSkew where identity.clockSkew != .zero: "clock skew: the IdP is \(Self.skew(identity.clockSkew))"
        case .loseAcks where bridge.lostAcks > 0: "bridge: the first \(bridge.lostAcks) ack\(bridge.lostAcks == 1 ? " is" : "s are") lost"
        case .directoryServer: "3DS: directory server \(bridge.threeDS.directoryServer?.name ?? "answers normally")"
        case .acs: "3DS: ACS \(bridge.threeDS.acs?.name ?? "answers normally")"
        // The scenario's timers: a scenario's 1 s method timer was shown as the default 10 s.
        case .methodTimeout: "3DS: the 3DS Method never completes (\(start.timers.method.secondsText))"
        case .firstCReqLost: "3DS: the first CReq is lost (\(start.timers.firstCReq.secondsText))"
        default: label
        }
    }

    /// "31 days ahead", "2 h behind", "90 s ahead".
    static func skew(_ skew: Duration) -> String {
        let seconds = skew.components.seconds, size = abs(seconds)
        let amount = size % 86_400 == 0 ? "\(size / 86_400) day\(size == 86_400 ? "" : "s")" : size % 3_600 == 0 ? "\(size / 3_600) h" : "\(size) s"
        return amount + (seconds < 0 ? " behind" : " ahead")
    }

    /// Space switches it to its next value rather than on or off.
    public var cycles: Bool { self == .directoryServer || self == .acs }

    /// off → unreachable → slow → … → malformed → off.
    static func next(after fault: ServerFault?) -> ServerFault? {
        let all = ServerFault.allCases
        guard let fault, let index = all.firstIndex(of: fault) else { return all.first }
        return index + 1 < all.count ? all[index + 1] : nil
    }

    public func isOn(_ identity: IdentityFaults, _ bridge: BridgeFaults) -> Bool {
        switch self {
        case .networkUnavailable: identity.networkUnavailable
        case .addedLatency: identity.addedLatency > .zero
        case .requestTimeout: identity.requestTimeout
        case .serverError: identity.serverError
        case .malformedPage: identity.malformedPage
        case .pinningFails: identity.pinningFails
        case .insecureDevice: identity.insecureDevice
        case .runtimeError: identity.runtimeError
        case .clockSkew: identity.clockSkew != .zero
        case .loseAcks: bridge.lostAcks > 0
        case .loseEveryAck: bridge.loseEveryAck
        case .readyNeverComes: bridge.readyNeverComes
        case .malformedMessage: bridge.malformedMessage
        case .unknownEvent: bridge.unknownEvent
        case .wrongOrigin: bridge.wrongOrigin
        case .methodTimeout: bridge.threeDS.methodTimeout
        case .firstCReqLost: bridge.threeDS.firstCReqLost
        case .directoryServer: bridge.threeDS.directoryServer != nil
        case .acs: bridge.threeDS.acs != nil
        }
    }

    /// Switches it on or off, on with the session's starting value (`start`) where it had one: a scenario's
    /// `addedLatencyMs: 800` switched off and on again was 1000 ms, and the scenario's value was then out of reach.
    public func toggle(_ identity: inout IdentityFaults, _ bridge: inout BridgeFaults, start: StartingFaults = StartingFaults()) {
        let on = !isOn(identity, bridge)
        func value<Value: Equatable>(_ started: Value, otherwise: Value, off: Value) -> Value {
            on ? (started != off ? started : otherwise) : off
        }
        switch self {
        case .networkUnavailable: identity.networkUnavailable = on
        case .addedLatency: identity.addedLatency = value(start.identity.addedLatency, otherwise: .milliseconds(1000), off: .zero)
        case .requestTimeout: identity.requestTimeout = on
        case .serverError: identity.serverError = on
        case .malformedPage: identity.malformedPage = on
        case .pinningFails: identity.pinningFails = on
        case .insecureDevice: identity.insecureDevice = on
        case .runtimeError: identity.runtimeError = on
        case .clockSkew: identity.clockSkew = value(start.identity.clockSkew, otherwise: .seconds(31 * 86_400), off: .zero)
        case .loseAcks: bridge.lostAcks = value(start.bridge.lostAcks, otherwise: 2, off: 0)
        case .loseEveryAck: bridge.loseEveryAck = on
        case .readyNeverComes: bridge.readyNeverComes = on
        case .malformedMessage: bridge.malformedMessage = on
        case .unknownEvent: bridge.unknownEvent = on
        case .wrongOrigin: bridge.wrongOrigin = on
        case .methodTimeout: bridge.threeDS.methodTimeout = on
        case .firstCReqLost: bridge.threeDS.firstCReqLost = on
        case .directoryServer: bridge.threeDS.directoryServer = Self.next(after: bridge.threeDS.directoryServer)
        case .acs: bridge.threeDS.acs = Self.next(after: bridge.threeDS.acs)
        }
    }
}

/// The faults a session started with (its scenario's, and the command line's bridge faults): the values a switch
/// with a value takes when it is switched on again.
public struct StartingFaults: Sendable, Equatable {
    public var identity = IdentityFaults()
    public var bridge = BridgeFaults()
    /// The scenario's 3-D Secure timers, which the 3DS faults wait out.
    public var timers = ThreeDSTimers()
    public init(identity: IdentityFaults = IdentityFaults(), bridge: BridgeFaults = BridgeFaults(), timers: ThreeDSTimers = ThreeDSTimers()) {
        self.identity = identity
        self.bridge = bridge
        self.timers = timers
    }
}

/// The faults panel: which switch has focus.
public struct FaultsPanelState: Sendable, Equatable {
    public var focus = 0
    /// The first switch shown: it moves only when the focus leaves the rows shown, as the log's and lazygit's lists
    /// do (it followed the focus, so ↑ from the last switch scrolled the list under a cursor pinned to the bottom).
    public var first = 0

    /// The switches the panel shows at a terminal of `height` rows.
    static func rows(height: Int) -> Int { min(height - 4, FaultSwitch.allCases.count + 4) - 4 }

    /// The first switch shown with the focus in view, moved as little as that needs from ``first``.
    func firstShown(rows: Int) -> Int {
        ListWindow.first(kept: first, focus: focus, rows: rows, count: FaultSwitch.allCases.count)
    }
}

extension TerminalApp {
    /// Opens the panel on the switch it was closed on (switching one on and off again is one key each time).
    func openFaults() {
        state.faultsPanel = FaultsPanelState(focus: state.lastFaultFocus)
        refreshFaults()
    }

    func refreshFaults() {
        guard let service = serviceIfReady else { return }
        state.identityFaults = service.world.identityFaults
        state.bridgeFaults = service.world.bridgeFaults
        // The first read is the session's start: nothing switches a fault before the panel reads them.
        if state.startingFaults == nil {
            state.startingFaults = StartingFaults(identity: state.identityFaults, bridge: state.bridgeFaults, timers: service.world.scenario.threeDSTimers)
        }
        state.insecureDeviceReason = service.q2.settings.insecureDeviceReason
    }

    func handleFaultsPanel(_ key: Key, _ panel: inout FaultsPanelState) {
        let switches = FaultSwitch.allCases
        let rows = FaultsPanelState.rows(height: state.height)
        // Where the list is drawn now (a panel opened again on its last switch, or a terminal resized, draws it from
        // there): the key moves the focus from that view.
        panel.first = panel.firstShown(rows: rows)
        switch key {
        case .escape, .f2, .character("f"), .character("q"):
            state.lastFaultFocus = panel.focus
            state.faultsPanel = nil
            return
        // As the menu and the lists take them (j and k did nothing here).
        case .up, .backTab, .character("k"): panel.focus = (panel.focus - 1 + switches.count) % switches.count
        case .down, .tab, .character("j"): panel.focus = (panel.focus + 1) % switches.count
        case .home, .pageUp: panel.focus = 0
        case .end, .pageDown: panel.focus = switches.count - 1
        case .character(" "), .enter: state.notice = switchFault(switches[panel.focus])
        default: break
        }
        panel.first = panel.firstShown(rows: rows)
        state.faultsPanel = panel
    }

    /// Switches `chosen` (the panel's space, plain mode's number) and says what it did: "switched on: …", or the
    /// value a switch with several is now set to.
    func switchFault(_ chosen: FaultSwitch) -> String {
        if chosen == .insecureDevice, let reason = state.insecureDeviceReason {
            return "on for this session: --insecure-device \"\(VisibleText.escaped(reason))\" was given"
        }
        let start = state.startingFaults ?? StartingFaults()
        // Live: a flow in flight meets the fault at its next step. In one step, as a flow may be changing them too
        // (a runtime error turns itself off when it fires).
        let (identity, bridge) = service.world.updateFaults { identity, bridge in
            chosen.toggle(&identity, &bridge, start: start)
            return (identity, bridge)
        }
        refreshFaults()
        // A switch with values says the one it is set to ("switched off: 3DS: ACS answers normally" read twice).
        return chosen.cycles ? "now \(chosen.label(identity, bridge))"
            : "switched \(chosen.isOn(identity, bridge) ? "on" : "off"): \(chosen.label(identity, bridge, start: start))"
    }

    /// The switches as plain mode lists them, one a line: number, on or off in words (a screen reader read the
    /// panel's `[ ]` as "left bracket right bracket"), and the panel's label.
    func plainFaultLines() -> [String] {
        let rows = FaultSwitch.allCases.enumerated().map { index, fault in
            [String(index + 1), state.faultIsOn(fault) ? "on" : "off", state.faultLabel(fault)]
        }
        return Self.plainColumns(rows, ascii: state.plainASCII)
    }
}

extension AppView {
    static func drawFaultsPanel(_ buffer: inout ScreenBuffer, _ state: AppState, _ panel: FaultsPanelState) {
        let switches = FaultSwitch.allCases
        // Wide enough for the longest value ("[x] 3DS: directory server answering a malformed message").
        let width = min(buffer.width - 4, 62)
        // The status line below stays visible: it says what the last switch did.
        let height = FaultsPanelState.rows(height: buffer.height) + 4
        let top = max(1, (buffer.height - height) / 2)
        let left = max(2, (buffer.width - width) / 2)
        buffer.fill(top: top, left: left, width: width, height: height, role: .text)
        // What the panel covers is not clickable through it; its switches are.
        buffer.targets = []
        Frame.draw(&buffer, top: top, left: left, width: width, height: height, title: "Faults — space switches, esc closes")
        let rows = height - 4
        let first = panel.firstShown(rows: rows)
        // Identity and network faults are read at each step; the bridge's and 3-D Secure's when a payment starts.
        // A focused label cut in its row (60 columns) is shown whole there instead, as the card picker shows its
        // focused card (it could be read only by switching it).
        let focusedLabel = switches.indices.contains(panel.focus) ? state.faultLabel(switches[panel.focus]) : ""
        let hint = CharacterWidth.of("[x] " + focusedLabel) > width - 6 ? focusedLabel : "Identity: next step · bridge, 3DS: next payment"
        buffer.put(CharacterWidth.truncate(hint, to: width - 4), row: top + 1, column: left + 2, role: .hint, limit: width - 4)
        for (offset, fault) in switches.enumerated().dropFirst(first).prefix(rows) {
            let row = top + 2 + offset - first
            let focused = offset == panel.focus
            buffer.targets.append(ClickTarget(row: row, column: left + 2, width: width - 4, stop: offset))
            let on = state.faultIsOn(fault)
            buffer.put(focused ? "›" : " ", row: row, column: left + 2, role: focused ? .fieldFocused : .fieldBlurred)
            // Narrower than that (60 columns), a label ends in "…": the row above shows the focused one whole.
            let entry = CharacterWidth.truncate("[\(on ? "x" : " ")] \(state.faultLabel(fault))", to: width - 6)
            buffer.put(entry, row: row, column: left + 4, role: focused ? .menuFocused : on ? .error : .text, limit: width - 6)
        }
        // Entries that do not fit: the panel's last row says how many, and where.
        let below = switches.count - first - rows
        let more = [first > 0 ? "↑ \(first) above" : nil, below > 0 ? "↓ \(below) more" : nil].compactMap { $0 }
        if !more.isEmpty {
            buffer.put(more.joined(separator: " · "), row: top + height - 2, column: left + 4, role: .hint, limit: width - 6)
        }
        buffer.cursor = nil
    }
}
