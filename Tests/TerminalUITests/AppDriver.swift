import Determinism
import Dispatch
import FlowCatalog
import FlowEngine
import FlowRecords
import LegacyFlows
import Foundation
import Scenario
import Simulation
import TerminalUI
import Testing

/// A ``TerminalApp`` on a simulated device with a manual clock, driven the way the curses loop drives it.
final class AppDriver {
    let clock = ManualClock()
    let environment: SimulationEnvironment
    let service: FlowService
    let app: TerminalApp

    init(width: Int = 80, height: Int = 24, latency: Duration = .zero, configuration: FlowConfiguration = FlowConfiguration(),
         scenario: Scenario = .embeddedDefault, history: (any FlowHistory)? = MemoryFlowHistory()) {
        environment = SimulationEnvironment(scenario: scenario, clock: clock)
        environment.world.network.latency = latency
        service = FlowService(environment: environment, configuration: configuration, history: history)
        app = TerminalApp(service: service, width: width, height: height)
    }

    /// The faults panel's row of the switch a scenario names `key` (`threeDS.acs`).
    func faultRow(_ key: String) -> Int? { service.faultSwitches.firstIndex { $0.key == key } }

    /// Opens the faults panel, flips the switch a scenario names `key` (``faultRow(_:)``) and closes the panel.
    func flipFault(_ key: String, sourceLocation: SourceLocation = #_sourceLocation) {
        press(.character("f"))
        guard let row = faultRow(key) else {
            Issue.record("no fault switch \(key)", sourceLocation: sourceLocation)
            return
        }
        for _ in 0..<row { press(.down) }
        press(.character(" "), .escape)
    }

    func press(_ keys: Key...) {
        for key in keys { app.handle(key) }
    }

    func type(_ text: String) {
        for character in text { app.handle(.character(character)) }
    }

    /// Delivers service messages until `condition` holds (or 10 s of real time pass). Each delivery runs on the
    /// main queue, as the curses loop delivers on the main thread (the Q2 screen asks `shouldAllowAutoLogin()` on
    /// the main actor); the waiting does not, so the main queue stays free for the SDKs' main-actor callbacks.
    @discardableResult
    func pump(until condition: (TerminalApp) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(app) {
            guard ContinuousClock.now < deadline else { return false }
            if service.mailbox.waitForMessages(timeout: .milliseconds(50)) {
                // The test thread waits for the main queue: the app is never used by two threads at once.
                nonisolated(unsafe) let app = app
                let service = service
                DispatchQueue.main.sync { _ = service.deliverPendingMessages(to: app) }
            }
        }
        return true
    }

    var screen: ScreenState { app.state.screen }

    /// Chooses KSSIDP comparison on the home menu and waits until its report has arrived.
    func openComparison() {
        while MenuItem.all[app.state.menuSelection] != .kssidpComparison { press(.down) }
        press(.enter)
        pump { app in
            if case .comparison(let comparison) = app.state.screen { return !comparison.running }
            return false
        }
    }

    var isChoice: Bool {
        if case .choice = app.state.screen { return true }
        return false
    }

    var isForm: Bool {
        if case .form = app.state.screen { return true }
        return false
    }

    var isResult: Bool {
        if case .result = app.state.screen { return true }
        return false
    }

    var result: FlowResult? {
        if case .result(let result) = app.state.screen { return result }
        return nil
    }

    var formPage: Int? {
        if case .form(let form) = app.state.screen { return form.prompt.page }
        return nil
    }

    /// Home → Activate device → the first prompt.
    func openActivation() {
        press(.enter)
        pump { _ in self.isForm }
    }

    /// Types a user name, moves to the password field, types a password.
    func fill(username: String = "alice", password: String = "wonderland") {
        type(username)
        press(.tab)
        type(password)
    }

    /// Runs a KSSIDP activation as alice from the menu's "Activate device (KSSIDP)": its one form, every credential
    /// up front.
    func activateThroughKSSIDP() {
        while MenuItem.all[app.state.menuSelection] != .flow(.legacyActivate) { press(.down) }
        press(.enter)
        pump { _ in self.isForm }
        fill()
        press(.tab)
        type("123456")
        press(.enter)
        pump { _ in self.isResult }
    }

    /// Starts "Activate device (KSSIDP)" as alice, and cancels it once the wrapper's call is made: on a driver whose
    /// round trips wait on the manual clock, the call is then still in flight, and goes on.
    func cancelKSSIDPActivationInFlight(sourceLocation: SourceLocation = #_sourceLocation) {
        press(.character("6"), .enter)
        #expect(pump { _ in self.isForm }, sourceLocation: sourceLocation)
        fill()
        press(.tab)
        type("123456")
        press(.enter)
        #expect(pump { app in app.state.log.contains { $0.step.rawValue == "KssIdpWrapper.activate" } }, sourceLocation: sourceLocation)
        press(.escape)
        #expect(pump { _ in self.isResult }, sourceLocation: sourceLocation)
    }

    /// Runs a whole activation as alice.
    func activate(password: String = "wonderland") {
        openActivation()
        fill(password: password)
        press(.enter)
        pump { _ in self.formPage == 2 || self.isResult }
        if formPage == 2 {
            type("123456")
            press(.enter)
        }
        pump { _ in self.isResult }
    }
}
