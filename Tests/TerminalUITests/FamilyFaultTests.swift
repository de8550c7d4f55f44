import Determinism
import FlowCatalog
import FlowEngine
import Simulation
import Synchronization
import TerminalUI
import Testing

/// A family whose simulator has a fault of its own: its switch and what holds it are the family's.
private final class ToasterFamily: FlowFamily {
    static let kinds: [FlowKind] = []
    let burns = Mutex(false)
    let heldBy: String?

    init(heldBy: String? = nil) { self.heldBy = heldBy }

    func run(_ run: FlowRun) async -> FlowResult? { nil }

    var faultSwitches: [FaultSwitch] {
        [FaultSwitch(key: "toaster.burns") { [self] in
            (burns.withLock { $0 }, "toaster: every slice burns")
        } change: { [self] in
            burns.withLock { burns in
                burns.toggle()
                return (burns, "toaster: every slice burns")
            }
        }]
    }

    var heldFaults: [HeldFault] {
        heldBy.map { [HeldFault(key: "toaster.burns", label: "toaster: burns (\($0))", notice: "held on by \($0)", heldBy: "\($0) holds it")] } ?? []
    }
}

/// The faults panel and plain mode list every family's switches, one added by a family registered beside the catalog's
/// included: nothing in the terminal UI names them.
@Suite struct FamilyFaultTests {
    private func app(_ toaster: ToasterFamily) -> TerminalApp {
        let environment = SimulationEnvironment(clock: ManualClock())
        let service = FlowService(
            world: environment.world, deviceQueue: environment.deviceQueue,
            families: FlowCatalog.families(environment, FlowConfiguration()) + [toaster])
        return TerminalApp(service: service, width: 80, height: 24)
    }

    @Test func aFamilysOwnSwitchIsListedAndSwitchesItsFault() {
        let toaster = ToasterFamily()
        let app = app(toaster)
        app.handle(.character("f"))
        app.handle(.end)
        #expect(app.render().text.contains("› [ ] toaster: every slice burns"))
        #expect(!app.render().text.contains("fault on"))
        app.handle(.character(" "))
        #expect(toaster.burns.withLock { $0 })
        let screen = app.render().text
        #expect(screen.contains("› [x] toaster: every slice burns"))
        #expect(screen.contains("switched on: toaster: every slice burns"))
        app.handle(.escape)
        #expect(app.render().text.contains("⚡ 1 fault on"))
    }

    @Test func aSwitchAFamilysSettingHoldsStaysOnAndSaysWhy() {
        let toaster = ToasterFamily(heldBy: "--burn")
        let app = app(toaster)
        #expect(app.render().text.contains("⚡ 1 fault on"), "counted from the start")
        app.handle(.character("f"))
        app.handle(.end)
        #expect(app.render().text.contains("› [x] toaster: burns (--burn)"))
        app.handle(.character(" "))
        #expect(!toaster.burns.withLock { $0 }, "the held switch's own change does not run")
        #expect(app.render().text.contains("› [x] toaster: burns (--burn)"))
        #expect(app.render().text.contains("held on by --burn"))
    }

    /// With no family that offers a switch, `f` says so: the panel does not open empty, and plain mode asks nothing
    /// (its question took numbers from 1 to the count, a range that traps at 0).
    @Test func withNoSwitchOfferedFSaysSo() {
        let environment = SimulationEnvironment(clock: ManualClock())
        let service = FlowService(world: environment.world, deviceQueue: environment.deviceQueue, families: [SilentFamily()])
        let app = TerminalApp(service: service, width: 80, height: 24)
        app.handle(.character("f"))
        #expect(app.state.faultsPanel == nil)
        #expect(app.render().text.contains("no fault to switch: no flow family offers one"))
        _ = app.answerPlain("f")
        #expect(app.plainQuestion?.text.hasPrefix("Switch which fault?") != true)
    }
}

/// A fault that a flow turns off as it bites (the MC-SDK's runtime error) is off on the status line and in the
/// panel once it has: the switches are read again when the simulator reports a fault.
@Suite struct FaultTurnedOffByAFlowTests {
    @Test func theRuntimeErrorSwitchedOnInThePanelIsOffOnceItHasFired() throws {
        let driver = AppDriver()
        driver.press(.character("f"))
        for _ in 0..<(driver.faultRow("runtimeError") ?? 0) { driver.press(.down) }
        driver.press(.character(" "), .escape)
        #expect(driver.app.render().text.contains("⚡ 1 fault on"))
        driver.activate()
        #expect(driver.app.render().text.contains("INTERNAL_ERROR"), "the runtime error did not fire")
        #expect(!driver.app.render().text.contains("fault on"), "the status line still counts the fault that turned itself off")
        driver.press(.enter)
        driver.press(.character("f"))
        #expect(driver.app.render().text.contains("[ ] MC runtime error"))
    }
}

private final class SilentFamily: FlowFamily {
    static let kinds: [FlowKind] = []
    func run(_ run: FlowRun) async -> FlowResult? { nil }
}
