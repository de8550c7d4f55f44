import Determinism
import DropsWeb
import FlowCatalog
import FlowEngine
import PaymentFlows
import Simulation
import Testing

/// A flow cancelled at a prompt ends through its SDK, which may wait on a slow server; `stopAwaitedCall` ends it at
/// once, as a cancel while a call is in flight does (a second Esc, an interrupt that must record the flow).
@Suite struct StopAwaitedCallTests {
    @Test func aPaymentCancelledAtItsChallengeWaitingOnASlowACSEndsAtOnce() throws {
        let clock = ManualClock()
        let service = FlowService(environment: SimulationEnvironment(clock: clock))
        service.world.bridgeFaults = BridgeFaults(threeDS: ThreeDSFaults(acs: .slow))
        let frontEnd = paying("4000000000002503")
        service.start(.payerAuth)
        // The ACS answers 5 s late: move the clock on until the challenge is asked.
        #expect(service.drive(frontEnd, until: {
            if frontEnd.prompts.count < 2, clock.pendingTimerCount > 0 { clock.advance(by: .seconds(5)) }
            return frontEnd.prompts.count == 2
        }))
        let flowID = frontEnd.prompts[1].flowID
        // Nothing to stop before a cancel.
        service.stopAwaitedCall(flowID: flowID)
        #expect(frontEnd.results.isEmpty)

        // The run's cancel at the open challenge: the page sends the ACS challengeCancel 01 and waits its 5 s. Waited
        // for by its CReq in the log, then by the ACS's wait on the clock (a pending timer alone could be another's,
        // and the stop then came before the CReq: flaky under load).
        let creqs = { frontEnd.events(of: flowID).filter { $0.step.rawValue == "CReq" && ($0.message ?? "").contains("challengeCancel") }.count }
        service.cancel(flowID: flowID)
        #expect(service.drive(frontEnd, timeout: .seconds(20), until: { creqs() > 0 && clock.pendingTimerCount > 0 }))
        #expect(frontEnd.results.isEmpty, "the cancel waits for the slow ACS")

        service.stopAwaitedCall(flowID: flowID)
        #expect(service.drive(frontEnd, until: { !frontEnd.results.isEmpty }), "ended without the clock moving")
        let result = try #require(frontEnd.results.first)
        #expect(result.outcome == .cancelled)
        // Said as the cardholder's cancel on the challenge screen, with the challengeCancel the CReq carried (it read
        // "cancelled while CReq was in flight", with none), and no advice to authorise after the cardholder's "no".
        #expect(result.failedStep == .challengeScreen)
        #expect(result.payment?.challengeCancel == "01")
        #expect(result.error?.message == "cancelled on the challenge screen: challengeCancel 01 went to the ACS, and the flow ended before its answer reached the app")
        #expect(result.advice == "Run 3-D Secure again, or ask for another payment method.")
    }
}
