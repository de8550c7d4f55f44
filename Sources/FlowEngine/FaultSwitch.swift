/// One fault a person can switch while the program runs (the terminal UI's faults panel, plain mode's `f`). Each
/// family offers its own (``FlowFamily/faultSwitches``): the front ends list, draw and switch them without knowing
/// what they are, so a family with faults of its own changes nothing outside its module.
public struct FaultSwitch: Sendable {
    /// Its name in a scenario's `faults` (`networkUnavailable`, `bridge.loseAcks`, `threeDS.acs`).
    public let key: String
    /// Space moves it to its next value (off → unreachable → slow → … → off) rather than on or off.
    public let cycles: Bool
    /// A switch with several values: their names, in the order it moves to them (off after the last); empty for
    /// one that is on or off, or whose values its family does not name.
    public let values: [String]
    /// Which of ``values`` it has now (nil: off).
    private let value: @Sendable () -> Int?
    private let read: @Sendable () -> (isOn: Bool, label: String)
    private let change: @Sendable () -> (isOn: Bool, label: String)
    /// What switching says instead of switching, when a family's setting holds the fault on.
    private let heldNotice: String?

    /// A switch whose state `read` says now (on or off, and its label: what switching it on does, with the value it
    /// has or would take) and that `change` switches, live (a flow in flight meets it at its next step), returning
    /// its state read in the same step as the change (a flow may change it too: a runtime error turns itself off).
    public init(
        key: String, cycles: Bool = false, read: @escaping @Sendable () -> (isOn: Bool, label: String),
        change: @escaping @Sendable () -> (isOn: Bool, label: String)
    ) {
        self.init(key: key, cycles: cycles, values: [], value: { nil }, read: read, change: change, heldNotice: nil)
    }

    /// A switch with several `values`, named in the order it moves to them; `value` says which it has now (nil:
    /// off). Plain mode says them, where the panel shows the one it has in place (`19 off` read as on or off).
    public init(
        key: String, values: [String], value: @escaping @Sendable () -> Int?, read: @escaping @Sendable () -> (isOn: Bool, label: String),
        change: @escaping @Sendable () -> (isOn: Bool, label: String)
    ) {
        self.init(key: key, cycles: true, values: values, value: value, read: read, change: change, heldNotice: nil)
    }

    private init(
        key: String, cycles: Bool, values: [String], value: @escaping @Sendable () -> Int?,
        read: @escaping @Sendable () -> (isOn: Bool, label: String), change: @escaping @Sendable () -> (isOn: Bool, label: String),
        heldNotice: String?
    ) {
        self.key = key
        self.cycles = cycles
        self.values = values
        self.value = value
        self.read = read
        self.change = change
        self.heldNotice = heldNotice
    }

    /// What it is now, for drawing.
    public var state: FaultSwitchState {
        let (isOn, label) = read()
        return FaultSwitchState(key: key, isOn: isOn, label: label, cycles: cycles, values: values, value: values.isEmpty ? nil : value())
    }

    /// Switches it and says what it did: "switched on: …", or the value a switch with several is now set to ("switched
    /// off: 3DS: ACS answers normally" read twice).
    public func flip() -> String {
        if let heldNotice { return heldNotice }
        let (isOn, label) = change()
        return cycles ? "now \(label)" : "switched \(isOn ? "on" : "off"): \(label)"
    }

    /// Switches it off (a switch with several values, through them to off); false when it stays on (a family's
    /// setting holds it).
    @discardableResult
    public func switchOff() -> Bool {
        guard heldNotice == nil else { return !state.isOn }
        // A switch cycles through a handful of values: bounded, in case one never comes back to off.
        for _ in 0..<16 where state.isOn { _ = change() }
        return !state.isOn
    }

    /// This switch held on by a family's setting: always on, under `held`'s label, and switching it says why.
    func held(_ held: HeldFault) -> FaultSwitch {
        FaultSwitch(key: key, cycles: false, values: [], value: { nil }, read: { (true, held.label) }, change: { (true, held.label) },
                    heldNotice: held.notice)
    }
}

/// A fault switch as it is at one moment: what the front ends draw.
public struct FaultSwitchState: Sendable, Equatable {
    public let key: String
    public let isOn: Bool
    public let label: String
    public let cycles: Bool
    /// A switch with several values: their names in order, and which it has (nil: off).
    public let values: [String]
    public let value: Int?

    public init(key: String, isOn: Bool, label: String, cycles: Bool = false, values: [String] = [], value: Int? = nil) {
        self.key = key
        self.isOn = isOn
        self.label = label
        self.cycles = cycles
        self.values = values
        self.value = value
    }

    /// The values it moves to from the one it has, in order, up to off: "slow (+5 s), timing out, …".
    public var upcoming: [String] {
        values.isEmpty ? [] : Array(values[min(values.count, value.map { $0 + 1 } ?? 0)...])
    }
}

/// A fault a family's setting holds on for the whole session (`--insecure-device` holds the insecure device), by
/// the key of the switch it holds: the switch shows `label` and stays on, switching it says `notice`, and a headless
/// answer that switches it off is refused, saying what holds it (`heldBy`: "--insecure-device holds the device
/// insecure"), and the advice of a flow it stopped names the setting, not the switch (`advice`: "--insecure-device
/// holds for this session; run without it"), in every family the fault reaches.
public struct HeldFault: Sendable {
    public let key: String
    public let label: String
    public let notice: String
    public let heldBy: String
    public let advice: String?

    public init(key: String, label: String, notice: String, heldBy: String, advice: String? = nil) {
        self.key = key
        self.label = label
        self.notice = notice
        self.heldBy = heldBy
        self.advice = advice
    }
}

extension FlowService {
    /// Every family's fault switches, in the families' order; one a family's setting holds (``FlowFamily/heldFaults``)
    /// shows it and stays on.
    public var faultSwitches: [FaultSwitch] {
        let held = heldFaults
        return families.flatMap(\.faultSwitches).map { fault in
            held.first { $0.key == fault.key }.map(fault.held) ?? fault
        }
    }

    /// The faults the families' settings hold on for the session.
    public var heldFaults: [HeldFault] { families.flatMap(\.heldFaults) }

    /// What a flow's advice says ends the fault `key`: the setting that holds it on, or else turning the fault's
    /// switch off (`fault`: "the insecure-device fault"). The advice named both, the option to a session without it.
    public func howToEnd(_ key: String, fault: String) -> String {
        guard let held = heldFaults.first(where: { $0.key == key }) else { return "turn \(fault) off" }
        return held.advice ?? held.heldBy
    }

    /// Switches on every fault a family's setting holds, where something (a headless answer's faults, set for its
    /// flow over the run's) left it off.
    public func switchOnHeldFaults() {
        let switches = families.flatMap(\.faultSwitches)
        for held in heldFaults {
            guard let fault = switches.first(where: { $0.key == held.key }), !fault.state.isOn else { continue }
            _ = fault.flip()
        }
    }
}
