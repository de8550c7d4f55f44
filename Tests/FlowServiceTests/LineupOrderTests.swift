import Determinism
import DropsWeb
import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import PaymentFlows
import Simulation
import Testing

/// Everything a front end hears, in the order it hears it.
private final class OrderingFrontEnd: FlowFrontEnd {
    var log: [String] = []
    var results = 0
    func flowService(_ service: FlowService, didEmit event: FlowEvent) { log.append("event \(event.flowID) \(event.step.rawValue)") }
    func flowService(_ service: FlowService, needsAnswerTo prompt: FlowPrompt) { log.append("prompt \(prompt.flowID)") }
    func flowService(_ service: FlowService, didFinish result: FlowResult) {
        log.append("finished \(result.flowID)")
        results += 1
    }
}

/// Flows run one at a time and in order, a cancel in flight included: the cancelled flow's end (undoing its
/// call's set-up, its cancel event, its result and history) is all out before the next flow begins.
@Suite struct LineupOrderTests {
    /// A payment whose page never says it is ready waits on the clock; a flow queued behind it.
    private func cancelInFlight(before next: FlowKind) -> (FlowService, OrderingFrontEnd, first: Int, second: Int) {
        let clock = ManualClock()
        let service = FlowService(
            environment: SimulationEnvironment(clock: clock),
            configuration: FlowConfiguration(bridgeFaults: BridgeFaults(readyNeverComes: true)))
        let first = service.start(.payerAuth)
        let second = service.start(next)
        #expect(clock.waitForPendingTimers(atLeast: 1))
        service.cancel(flowID: first)
        return (service, OrderingFrontEnd(), first, second)
    }

    @Test func nothingOfAFlowCancelledInFlightComesAfterTheNextFlowBegins() throws {
        let (service, frontEnd, first, second) = cancelInFlight(before: .activate)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline && !frontEnd.log.contains("prompt \(second)") {
            if service.mailbox.waitForMessages(timeout: .milliseconds(100)) { service.deliverPendingMessages(to: frontEnd) }
        }
        let secondBegins = try #require(frontEnd.log.firstIndex { $0.hasPrefix("event \(second) ") })
        let firstEnds = try #require(frontEnd.log.firstIndex(of: "finished \(first)"))
        let lastOfFirst = try #require(frontEnd.log.lastIndex { $0.hasPrefix("event \(first) ") })
        #expect(firstEnds < secondBegins && lastOfFirst < secondBegins, "\(frontEnd.log)")
    }

    @Test func resultsAndHistoryKeepTheOrderTheFlowsWereStartedIn() throws {
        let (service, frontEnd, first, second) = cancelInFlight(before: .logout)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline && frontEnd.results < 2 {
            if service.mailbox.waitForMessages(timeout: .milliseconds(100)) { service.deliverPendingMessages(to: frontEnd) }
        }
        #expect(frontEnd.log.filter { $0.hasPrefix("finished") } == ["finished \(first)", "finished \(second)"])
        // Newest first.
        #expect(try #require(service.history).list(limit: 10).map(\.flow) == [FlowKind.logout.rawValue, FlowKind.payerAuth.rawValue])
    }
}
