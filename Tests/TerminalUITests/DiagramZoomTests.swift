import FlowEngine
import Testing
@testable import TerminalUI

/// `z` zooms the sequence diagram over the main panel, as it zooms the focused log: at 80×24 an activation's
/// diagram showed 12 of its 17 arrows. While zoomed, the hidden screen takes no keys (Enter on a hidden result
/// went home). `v` from a zoomed log gave the diagram unzoomed.
@Suite struct DiagramZoomTests {
    private func arrows(_ driver: AppDriver) -> Int {
        driver.app.render().text.split(separator: "\n").filter { $0.contains("─▶") || $0.contains("◀─") }.count
    }

    @Test func zZoomsTheDiagramAndTheHiddenResultTakesNoKeys() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.character("v"))
        let before = arrows(driver)
        #expect(driver.app.render().text.contains("Device activated"))
        driver.press(.character("z"))
        var text = driver.app.render().text
        #expect(arrows(driver) > before, "\(before) arrows before: \(text)")
        #expect(!text.contains("Device activated"), "the result is under the diagram: \(text)")
        #expect(text.contains("z esc unzoom"), "\(text)")
        driver.press(.enter)
        #expect(driver.isResult, "Enter on the hidden result does not go home")
        #expect(driver.app.render().text.contains("the diagram is zoomed: z or esc shows the screen again"))
        driver.press(.escape)
        text = driver.app.render().text
        #expect(driver.isResult && text.contains("Device activated"), "\(text)")
        #expect(arrows(driver) == before)
    }

    /// The zoom goes with the keys between the diagram and the log: v from a zoomed log, Tab from a zoomed diagram,
    /// and Esc from that log back to the diagram.
    @Test func theZoomGoesBetweenTheLogAndTheDiagram() {
        let driver = AppDriver()
        driver.activate()
        driver.press(.tab, .character("z"))
        #expect(driver.app.state.logFocus?.zoomed == true)
        driver.press(.character("v"))
        #expect(driver.app.state.isDiagramZoomed)
        driver.press(.tab)
        #expect(driver.app.state.logFocus?.zoomed == true, "Tab from the zoomed diagram")
        driver.press(.escape)
        #expect(driver.app.state.isDiagramZoomed, "Esc back to the diagram, zoomed")
        driver.press(.character("v"))
        #expect(!driver.app.state.logAsSequence && !driver.app.state.isDiagramZoomed, "v: the list, as the screen shows it")
        #expect(driver.app.render().text.contains("Device activated"))
    }

    /// A form that comes shows: the zoomed diagram gives way, as the zoomed log does (the form's time runs). On the
    /// form, z is typed.
    @Test func aFormComingUnzoomsTheDiagram() {
        let driver = AppDriver(latency: .seconds(5))
        driver.press(.enter)
        #expect(driver.clock.waitForPendingTimers(atLeast: 1))
        driver.press(.character("v"), .character("z"))
        #expect(driver.app.state.isDiagramZoomed, "zoomed while the call is in flight")
        driver.clock.advance(by: .seconds(60))
        #expect(driver.pump { _ in driver.isForm })
        #expect(!driver.app.state.isDiagramZoomed)
        #expect(driver.app.render().text.contains("Username"), "\(driver.app.render().text)")
        driver.press(.character("z"))
        guard case .form(let form) = driver.screen else { Issue.record("no form"); return }
        #expect(form.inputs.first?.text == "z")
        #expect(!driver.app.state.isDiagramZoomed)
    }
}
