import Determinism
import FlowCatalog
import FlowEngine
import IdentityProvider
import PaymentFlows
import Simulation
import ThreeDSecure
import Scenario
import Testing

/// The network lost (or its requests timing out) after the Drops page loaded, before the card is sent: the page
/// cannot reach Safepay, so no AReq goes, and the app hears Safepay's catch-all error, to retry once the network is
/// back. (It read as the 3DS Server's Erro 405, Enrolled U, "may authorise without liability shift".)
@Suite struct PaymentNetworkTests {
    let clock = ManualClock(countingWork: true)

    /// Pays with a frictionless card; `atTheForm` switches faults on as the card form is answered.
    func pay(card: String = "4000000000002701", timers: ThreeDSTimers = ThreeDSTimers(),
             atTheForm: @escaping @Sendable (inout IdentityFaults) -> Void) throws -> (FlowResult, [FlowEvent]) {
        var scenario = Scenario.embeddedDefault
        scenario.threeDSTimers = timers
        let service = FlowService(environment: SimulationEnvironment(scenario: scenario, clock: clock), configuration: FlowConfiguration())
        let frontEnd = RecordingFrontEnd { prompt in
            guard let request = prompt.request as? PaymentDetailsRequest else { return .cancel }
            atTheForm(&service.world.identityFaults)
            let defaults = request.defaults
            return (try? PaymentForm.details(card: card, expiry: "12/30", amount: defaults.amount,
                                             currency: defaults.currency, merchant: defaults.merchant)).map { .payment($0) } ?? .cancel
        }
        service.start(.payerAuth)
        service.settle(frontEnd, clock: clock)
        let result = try #require(frontEnd.results.first)
        return (result, frontEnd.events(of: result.flowID))
    }

    @Test func offlineAtTheCardFormTheAppHearsSafepaysErrorAndIsToldToBringTheNetworkBack() throws {
        let (result, events) = try pay { $0.networkUnavailable = true }
        #expect(result.status == PaymentStatus.safepayError, "\(result.status)")
        #expect(result.payment?.callback == "onSafepayError")
        #expect(result.payment?.nextAction == .retry)
        #expect(result.payment?.threeDSecure == nil, "no lookup was made")
        #expect(result.error?.message == "the payment could not reach Safepay: the network is unavailable: the device is offline",
                "\(result.error?.message ?? "")")
        #expect(result.advice == "Bring the network back (the network-unavailable fault), then run 3-D Secure again.", "\(result.advice ?? "")")
        let steps = events.map(\.step.rawValue)
        #expect(!steps.contains("AReq") && !steps.contains("Erro") && !steps.contains("3DS Method"), "nothing left the device: \(steps)")
        #expect(events.contains { $0.step == .fault && $0.detail.contains("network unavailable") }, "\(steps)")
    }

    @Test func aRequestTimeoutAtTheAReqIsSafepaysErrorToo() throws {
        let (result, events) = try pay { $0.requestTimeout = true }
        #expect(result.status == PaymentStatus.safepayError, "\(result.status)")
        #expect(result.error?.message == "the payment's request to Safepay got no answer: the request timed out after 30 s", "\(result.error?.message ?? "")")
        #expect(result.advice == "No server answers while the request-timeout fault is on: turn it off, then run 3-D Secure again.",
                "\(result.advice ?? "")")
        #expect(events.contains { $0.step.rawValue == "AReq" }, "the request left; no answer came")
        #expect(!events.contains { $0.step.rawValue == "ARes" || $0.step.rawValue == "Erro" })
    }

    /// A latency switched on at the card form that the request's timeout does not wait out: the advice names that
    /// timeout, not the page's ready timer (the page had been ready).
    @Test func aLatencyPastTheTimeoutAtTheCardFormNamesTheRequestsTimeout() throws {
        let (result, _) = try pay { $0.addedLatency = .seconds(40) }
        #expect(result.status == PaymentStatus.safepayError, "\(result.status)")
        #expect(result.advice?.contains("the request gives up after 30 s") == true, "\(result.advice ?? "")")
        #expect(result.advice?.contains("ready within") == false, "\(result.advice ?? "")")
    }

    /// A scenario's first-CReq timer under the latency: the first CReq's round trip outlasts it, and the advice
    /// names the latency against that timer (it fell back to the plain retry, and the tester retried into it).
    @Test func aLatencyPastAShortFirstCReqTimerIsNamedAgainstIt() throws {
        let (result, _) = try pay(card: "4000000000002503", timers: ThreeDSTimers(firstCReq: .seconds(12))) { $0.addedLatency = .seconds(15) }
        #expect(result.payment?.nextAction == .retry, "\(result.status)")
        #expect(result.advice?.contains("the ACS's first-CReq timer ends the challenge after 12 s") == true, "\(result.advice ?? "")")
        #expect(result.advice?.contains("lower the added latency") == true, "\(result.advice ?? "")")
    }
}
