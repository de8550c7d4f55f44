@testable import FlowCatalog
@testable import TerminalUI
import Scenario
import Testing

/// The KSSIDP comparison colours its verdicts by what they are, not by how their text begins: a difference or a
/// case's heading wrapped onto more rows keeps its colour on every row.
@Suite struct ComparisonColourTests {
    @Test func aWrappedDifferenceIsAnErrorOnEveryRow() throws {
        let driver = AppDriver(width: 60, height: 40)
        // The deliberately wrong orchestration's login, with a difference too long for one row at 60 columns (a
        // scenario's long user name in the device's state).
        let wrong = ParityCheck.run(variant: .enrollmentClientForLogin)
        let login = wrong.cases[0].steps[1]
        let long = "device: " + String(repeating: "a-long-user-name-", count: 3) + "@tenant activated ≠ not activated"
        let report = ParityReport(variant: wrong.variant, cases: [
            ParityCaseReport(name: wrong.cases[0].name, steps: [ParityStep(new: login.new, legacy: login.legacy, differences: [long])]),
            wrong.cases[1],
        ])
        driver.app.state.screen = .comparison(ComparisonState(report: report))
        let screen = driver.app.render()
        let rows = screen.text.split(separator: "\n", omittingEmptySubsequences: false)
        let roles = screen.roles.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(rows.firstIndex { $0.contains("✗ differs: device") }, "\(screen.text)")
        // The difference takes three rows; each is drawn as an error, text and all.
        #expect(rows[first + 2].contains("≠ not activated"), "\(screen.text)")
        for row in first...(first + 2) {
            let text = Array(rows[row])
            let drawn = roles[row].enumerated().filter { text[$0.offset] != " " && text[$0.offset] != "│" }.map(\.element)
            #expect(!drawn.isEmpty && drawn.allSatisfy { $0 == "E" }, "row \(row): \(rows[row]) \(roles[row])")
        }
        let heading = try #require(rows.firstIndex { $0.contains("✗ 1.") })
        #expect(roles[heading].contains("E"))
        #expect(rows.contains { $0.contains("✓ 2.") })
        #expect(rows[1].contains("KSSIDP comparison — 1 difference ─"), "\(rows[1])")
    }

    /// A scenario with no user to activate with is not checked: the screen says so, not "the orchestrations agree".
    @Test func aScenarioWithNoUserToActivateSaysNotRun() {
        var scenario = Scenario.embeddedDefault
        for index in scenario.identityProvider.tenants[0].users.indices {
            scenario.identityProvider.tenants[0].users[index].activationCode = nil
        }
        let driver = AppDriver(scenario: scenario)
        driver.openComparison()
        let text = driver.app.render().text
        #expect(text.contains("KSSIDP comparison — not run"), "\(text)")
        #expect(text.contains("No case ran: the scenario's app tenant \"demo\" has no user with an activation"), "\(text)")
        #expect(!text.contains("agree"), "\(text)")
    }
}
