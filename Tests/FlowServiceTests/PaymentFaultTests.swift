import Foundation
import Determinism
import DropsWeb
import FlowCatalog
import FlowEngine
import IdentityProvider
import PaymentFlows
import Scenario
import Simulation
import Testing
import ThreeDSecure

/// The 3-D Secure spec timers and the faults of every payment round trip, on the manual clock: each gives the
/// values, the callback and the next action docs/faults.md says, at the simulated time the timer says.
@Suite struct PaymentFaultTests {
    let clock = ManualClock(countingWork: true)

    /// Pays with the step-up card (right code) under `faults`, running until quiet: the clock moves from one
    /// deadline to the next, so each step's time is exact. Returns the result and the simulated seconds from the card form to each 3-D Secure step.
    func pay(threeDS: ThreeDSFaults = .none, identity: IdentityFaults = .none, card: String = "4000000000002503",
             timers: ThreeDSTimers = ThreeDSTimers()) throws -> (FlowResult, [String: Int64])
    {
        let (result, events) = try payLogging(threeDS: threeDS, identity: identity, card: card, timers: timers)
        let start = try #require(events.first { $0.step == .paymentDetails && $0.status == "entered" } ?? events.first).time
        var times: [String: Int64] = [:]
        for event in events where times[event.step.rawValue] == nil {
            times[event.step.rawValue] = start.duration(to: event.time).components.seconds
        }
        return (result, times)
    }

    /// ``pay(threeDS:identity:card:timers:)``'s payment: its result and its events.
    func payLogging(threeDS: ThreeDSFaults = .none, identity: IdentityFaults = .none, card: String = "4000000000002503",
                    timers: ThreeDSTimers = ThreeDSTimers()) throws -> (FlowResult, [FlowEvent])
    {
        var scenario = Scenario.embeddedDefault
        scenario.threeDSTimers = timers
        let service = FlowService(environment: SimulationEnvironment(scenario: scenario, clock: clock), configuration: FlowConfiguration())
        service.world.bridgeFaults = BridgeFaults(threeDS: threeDS)
        service.world.identityFaults = identity
        let frontEnd = paying(card, actions: [code("1234")])
        service.start(.payerAuth)
        service.settle(frontEnd, clock: clock)
        let result = try #require(frontEnd.results.first)
        return (result, frontEnd.events(of: result.flowID))
    }

    /// No ARes in time (Cardinal case 8): the 3DS Server's Erro 402 goes to the DS, as EMV 3DS sends it; it was
    /// drawn from the page to itself, as if it never left.
    @Test func theThreeDSServersTimeoutErroGoesToTheDirectoryServer() throws {
        let (result, events) = try payLogging(card: "4000000000002354")
        #expect(result.payment?.errorCode == "402")
        let erro = try #require(events.first { $0.step.rawValue == "Erro" })
        #expect(erro.from == .drops && erro.to == .directoryServer, "\(erro.from) → \(erro.to)")
    }

    @Test func aMethodThatNeverCompletesSendsTheAReqAfterTenSecondsWithCompIndN() throws {
        let (result, times) = try pay(threeDS: ThreeDSFaults(methodTimeout: true))
        #expect(result.status == PaymentStatus.authenticated)
        #expect(result.payment?.threeDSCompInd == "N")
        #expect(times["AReq"] == 10, "\(times)")
        // The fault comes after the Method it strikes, as every other one does (it came first, and the diagram put
        // its ⚡ on the Drops lane).
        let (_, events) = try payLogging(threeDS: ThreeDSFaults(methodTimeout: true))
        let method = events.firstIndex { $0.step.rawValue == "3DS Method" }, fault = events.firstIndex { $0.status == "FAULT" }
        #expect(method != nil && fault != nil && method! < fault!, "\(events.map(\.step.rawValue))")
    }

    @Test func aLostFirstCReqEndsTheChallengeAfterThirtySeconds() throws {
        let (result, times) = try pay(threeDS: ThreeDSFaults(firstCReqLost: true))
        #expect(result.status == PaymentStatus.authenticationFailed)
        #expect(result.payment?.callback == "onPayerAuthenticationFailure")
        #expect(result.payment?.transStatus == "N")
        #expect(result.payment?.transStatusReason == "14")
        #expect(result.payment?.challengeCancel == "05")
        #expect(result.payment?.interactionCounter == 0)
        #expect(result.payment?.nextAction == .retry)
        #expect(try #require(times["RReq"]) - times["ARes", default: 0] == 30, "\(times)")
    }

    @Test(arguments: [
        (ServerFault.unreachable, "405", "S", Int64(0)), (.timeout, "402", "S", 10), (.erro, "404", "D", 0),
        (.http500, "403", "S", 0), (.malformed, "203", "S", 0),
    ])
    func aDirectoryServerFaultEndsTheLookupWithoutAnARes(fault: ServerFault, code: String, component: String, after: Int64) throws {
        let (result, times) = try pay(threeDS: ThreeDSFaults(directoryServer: fault))
        #expect(result.status == PaymentStatus.authenticationUnavailable)
        #expect(result.payment?.callback == "onPayerAuthenticationUnavailable")
        #expect(result.payment?.enrolled == "U")
        #expect(result.payment?.transStatus == nil)
        #expect(result.payment?.eci == "07")
        #expect(result.payment?.errorCode == code)
        #expect(result.payment?.errorComponent == component)
        #expect(result.payment?.nextAction == .proceedWithoutLiabilityShift)
        #expect(try #require(times["Erro"]) - times["AReq", default: 0] == after, "\(times)")
        #expect(times["ARes"] == nil)
    }

    @Test(arguments: [
        (ServerFault.erro, "403", "A", NextAction.proceedWithoutLiabilityShift),
        (.http500, "403", "C", .retry), (.malformed, "203", "C", .retry),
    ])
    func anACSFaultEndsTheChallengeWithTheErro(fault: ServerFault, code: String, component: String, next: NextAction) throws {
        let (result, _) = try pay(threeDS: ThreeDSFaults(acs: fault))
        #expect(result.status == PaymentStatus.authenticationUnavailable)
        #expect(result.payment?.callback == "onPayerAuthenticationFailure")
        #expect(result.payment?.transStatus == "U")
        #expect(result.payment?.challengeCancel == "06")
        #expect(result.payment?.errorCode == code)
        #expect(result.payment?.errorComponent == component)
        #expect(result.payment?.nextAction == next)
    }

    /// The 3-D Secure messages of a payment in order, as "from→to type".
    /// The 3DS Server's Erro after a lookup that failed goes to the directory server, except the one saying it
    /// cannot be reached (405), a note on the Drops lane: it was drawn as delivered to the DS nobody could reach.
    @Test(arguments: [(ServerFault.unreachable, "Drops→Drops Erro"), (.timeout, "Drops→DS Erro"), (.erro, "DS→Drops Erro")])
    func aLookupErroGoesWhereItCan(fault: ServerFault, arrow: String) throws {
        let (_, events) = try payLogging(threeDS: ThreeDSFaults(directoryServer: fault))
        #expect(messageSequence(events).filter { $0.hasSuffix(" Erro") } == [arrow], "\(messageSequence(events))")
    }

    func messageSequence(_ events: [FlowEvent]) -> [String] {
        events.filter { $0.message != nil }.map { "\($0.from.rawValue)→\($0.to.rawValue) \($0.step.rawValue)" }
    }

    /// An Erro answers a CReq in place of a CRes, and a 3DS SDK that gave up on the ACS hears nothing more from
    /// it: no final CRes follows either Erro, while the ACS still reports the result to the directory server.
    @Test(arguments: [
        (ThreeDSFaults.none, "4000000000002644", "ACS→Drops Erro"), (ThreeDSFaults(acs: .http500), "4000000000002503", "Drops→ACS Erro"),
        (ThreeDSFaults(acs: .malformed), "4000000000002503", "Drops→ACS Erro"),
    ])
    func anErroEndsTheChallengeWithoutAFinalCRes(faults: ThreeDSFaults, card: String, erro: String) throws {
        let (result, events) = try payLogging(threeDS: faults, card: card)
        #expect(result.payment?.transStatus == "U")
        let sequence = messageSequence(events)
        let at = try #require(sequence.firstIndex(of: erro), "\(sequence)")
        #expect(Array(sequence[at...]) == [erro, "ACS→DS RReq", "DS→ACS RRes"], "\(sequence)")
    }

    /// The first CReq never reached the ACS: its timer ends the challenge (RReq), but no CRes answers a CReq it
    /// never got.
    @Test func aLostFirstCReqGetsNoCRes() throws {
        let (result, events) = try payLogging(threeDS: ThreeDSFaults(firstCReqLost: true))
        #expect(result.payment?.challengeCancel == "05")
        // No screen reached the app: the payment failed at its first CReq (it said "challenge screen").
        #expect(result.failedStep?.rawValue == "CReq", "\(result.failedStep?.rawValue ?? "none")")
        let sequence = messageSequence(events)
        #expect(sequence.contains("ACS→DS RReq"), "\(sequence)")
        #expect(!sequence.contains { $0.hasSuffix("CRes") }, "\(sequence)")
    }

    /// An ACS that gets the first CReq and does not answer it (or answers past the 3DS SDK's wait) ends as at any
    /// CReq: the 3DS SDK gives up and tells the ACS (Erro 402, component C), which ends the challenge U, reason 22,
    /// challengeCancel 06. It ended N, 14, 05 ("first CReq not received by ACS"), as a lost CReq does, though the
    /// log showed the CReq sent (the 3-D Secure reviewer); no CRes comes either way.
    @Test(arguments: [ThreeDSFaults(acs: .timeout), ThreeDSFaults(acs: .slow)])
    func anACSThatDoesNotAnswerTheFirstCReqLetsThe3DSSDKGiveUp(faults: ThreeDSFaults) throws {
        // A slow ACS's 5 s outlast this 3 s wait.
        let timers = ThreeDSTimers(method: .seconds(2), lookup: .seconds(2), firstCReq: .seconds(3))
        let (result, events) = try payLogging(threeDS: faults, timers: timers)
        #expect(result.payment?.transStatus == "U" && result.payment?.transStatusReason == "22")
        #expect(result.payment?.challengeCancel == "06")
        #expect(result.payment?.errorCode == "402" && result.payment?.errorComponent == "C")
        #expect(result.failedStep?.rawValue == "CReq")
        let sequence = messageSequence(events)
        #expect(sequence.contains("Drops→ACS Erro") && sequence.contains("ACS→DS RReq") && !sequence.contains { $0.hasSuffix("CRes") }, "\(sequence)")
        let fault = events.first { $0.step.rawValue == "fault injected" }?.detail ?? ""
        #expect(fault.hasSuffix("the 3DS SDK gives up after 3 s"), "\(fault)")
        // The advice names the fault that bit (it was counted as a lost CReq, which was not on, and none was named).
        let name = faults.acs == .slow ? "ACS slow (+5 s)" : "ACS timing out"
        #expect(result.advice?.hasSuffix("Faults were on (\(name)): turn them off to rule them out.") == true, "\(result.advice ?? "")")
    }

    @Test func slowServersOnlyTakeLonger() throws {
        let (result, times) = try pay(threeDS: ThreeDSFaults(directoryServer: .slow, acs: .slow))
        #expect(result.status == PaymentStatus.authenticated)
        #expect(try #require(times["ARes"]) - times["AReq", default: 0] == 5, "\(times)")
    }

    /// A server's answer late within its timer explains no failure, as a latency within the timeouts does not: a
    /// card the issuer cannot authenticate fails without the advice naming the slow directory server.
    @Test func aLateAnswerWithinItsTimerIsNotNamedInTheAdvice() throws {
        let (slow, _) = try pay(threeDS: ThreeDSFaults(directoryServer: .slow), card: "4000000000002925")
        #expect(slow.outcome == .failure)
        #expect(slow.advice?.contains("Faults were on") == false, "\(slow.advice ?? "")")
        let (failing, _) = try pay(threeDS: ThreeDSFaults(directoryServer: .http500), card: "4000000000002925")
        #expect(failing.advice?.contains("Faults were on (directory server answering HTTP 500)") == true, "\(failing.advice ?? "")")
    }

    /// A slow directory server's 5 s outlast a scenario's 2 s lookup timer: the lookup gives up at 2 s, as with
    /// `timeout` (it used to take the ARes at 5 s).
    @Test func aSlowDirectoryServerPastAShorterLookupTimerTimesOut() throws {
        let timers = ThreeDSTimers(method: .seconds(2), lookup: .seconds(2), firstCReq: .seconds(3))
        let (slow, _) = try pay(threeDS: ThreeDSFaults(directoryServer: .slow), timers: timers)
        let (timeout, _) = try pay(threeDS: ThreeDSFaults(directoryServer: .timeout), timers: timers)
        #expect(slow.status == timeout.status && slow.payment?.errorCode == timeout.payment?.errorCode, "\(slow.status)")
        #expect(slow.payment?.errorCode == "402", "\(slow.payment?.errorCode ?? "none")")
        #expect(slow.duration == timeout.duration, "\(slow.duration) against \(timeout.duration)")
    }

    /// A slow ACS's 5 s outlast a scenario's 3 s wait for a CRes: the challenge ends as with `timeout`, at 3 s (it
    /// used to wait the 5 s first).
    @Test func aSlowACSPastAShorterCResWaitTimesOut() throws {
        let timers = ThreeDSTimers(method: .seconds(2), lookup: .seconds(2), firstCReq: .seconds(3))
        let (slow, _) = try pay(threeDS: ThreeDSFaults(acs: .slow), timers: timers)
        let (timeout, _) = try pay(threeDS: ThreeDSFaults(acs: .timeout), timers: timers)
        #expect(slow.status == timeout.status && slow.payment?.challengeCancel == timeout.payment?.challengeCancel, "\(slow.status)")
        #expect(slow.duration == timeout.duration, "\(slow.duration) against \(timeout.duration)")
    }

    @Test func withoutANetworkThePageCannotLoad() throws {
        var offline = IdentityFaults()
        offline.networkUnavailable = true
        let (result, times) = try pay(identity: offline)
        #expect(result.status == PaymentStatus.safepayError)
        #expect(result.error?.message == "the Drops page could not be loaded: the network is unavailable: the device is offline")
        #expect(result.payment?.nextAction == .retry)
        #expect(times["AReq"] == nil)
        #expect(result.advice == "Bring the network back (the network-unavailable fault), then run 3-D Secure again.",
                "\(result.advice ?? "")")
    }

    /// An added latency the page's 10 s wait for ready does not wait out: the advice names the latency (it offered
    /// to run 3-D Secure again, which meets the same latency); under the wait, the payment only takes longer.
    @Test func aLatencyPastThePagesReadyWaitIsNamedInTheAdvice() throws {
        var slow = IdentityFaults()
        slow.addedLatency = .seconds(12)
        let (result, times) = try pay(identity: slow)
        #expect(result.status == PaymentStatus.safepayError && result.payment?.nextAction == .retry, "\(result.status)")
        #expect(times["AReq"] == nil)
        #expect(result.advice == "Each round trip takes 12 s with the added-latency fault (+12000 ms), and the Drops page must be ready within 10 s: lower the added latency, then run 3-D Secure again.",
                "\(result.advice ?? "")")
    }

    /// The request-timeout fault bites the Drops page's own request: its line names no IdP (it said "the IdP
    /// does not answer within 30 s"), and the page's 10 s wait for ready gives up first.
    @Test func aRequestTimeoutNamesThePagesServerNotTheIdP() throws {
        var stuck = IdentityFaults()
        stuck.requestTimeout = true
        let (result, events) = try payLogging(identity: stuck)
        #expect(result.status == PaymentStatus.safepayError)
        let faults = events.filter { $0.step == .fault }.map(\.detail)
        #expect(faults.contains("request timeout: the server does not answer within 30 s"), "\(faults)")
        #expect(!faults.contains { $0.contains("IdP") }, "\(faults)")
        #expect(result.advice == "No server answers while the request-timeout fault is on: turn it off, then run 3-D Secure again.",
                "\(result.advice ?? "")")
    }

    @Test func addedLatencyDelaysEveryRoundTrip() throws {
        var slow = IdentityFaults()
        slow.addedLatency = .seconds(2)
        let (result, times) = try pay(identity: slow)
        #expect(result.status == PaymentStatus.authenticated)
        #expect(try #require(times["ARes"]) - times["AReq", default: 0] == 2, "\(times)")
        #expect(try #require(times["RReq"]) - times["CReq", default: 0] >= 4, "the first CReq and the answer's each take 2 s")
    }

    /// A cancel while the AReq is in flight: the card was sent, so the payment had started, and the result carries
    /// it and its next action as every payment's does (it had no `payment` and no `nextAction`).
    @Test func aCancelWhileTheAReqIsInFlightKeepsThePaymentAndItsNextAction() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration())
        let frontEnd = paying("4000000000002354")  // Cardinal case 8: the lookup answers only after 10 s
        let id = service.start(.payerAuth)
        #expect(service.drive(frontEnd) { frontEnd.steps(of: id).contains { $0.hasSuffix("AReq") } })
        service.cancel(flowID: id)
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        let result = try #require(frontEnd.results.first)
        #expect(result.outcome == .cancelled)
        #expect(result.error?.message.contains("while AReq was in flight") == true, "\(String(describing: result.error))")
        #expect(result.payment?.card == "•••• 2354")
        #expect(result.payment?.brand == "Visa")
        #expect(result.payment?.callback == nil)
        #expect(result.payment?.nextAction == .retry)
        // The cardholder's cancel is a "no": no advice to authorise without liability shift, as a retry's offers.
        #expect(result.advice == "Run 3-D Secure again, or ask for another payment method.")
    }

    /// A cancel while the page's payment awaits the ACS's lookup timer: the cancel's clean-up awaits the view's
    /// disposal on the main queue, then the cancelled result comes, once; the page's task, resumed when the clock
    /// passes the timer, adds nothing to the flow's log.
    @Test func aPaymentCancelledWhileThePageAwaitsTheClockEndsOnceAndQuietly() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration())
        let frontEnd = paying("4000000000002354")  // Cardinal case 8: the lookup answers only after 10 s
        let id = service.start(.payerAuth)
        #expect(service.drive(frontEnd) { frontEnd.steps(of: id).contains { $0.hasSuffix("AReq") } })
        #expect(clock.waitForPendingTimers(atLeast: 1), "the page awaits the lookup's timer")
        service.cancel(flowID: id)
        // The result comes with the clock still: what the flow logged by then is all it logs.
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        let logged = frontEnd.events(of: id).map(\.step.rawValue)
        service.settle(frontEnd, clock: clock)
        #expect(service.activeFlowCount == 0)
        #expect(frontEnd.results.map(\.outcome) == [.cancelled])
        #expect(frontEnd.events(of: id).map(\.step.rawValue) == logged)
    }

    /// A finished payment lets its service go: the cancel revision the payment set held its run through the payment,
    /// a cycle that kept every payment's run, service and world.
    @Test func aFinishedPaymentLetsItsServiceGo() throws {
        weak var gone: FlowService?
        do {
            let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration())
            gone = service
            let result = try #require(service.run(.payerAuth, with: paying("4000000000002701")))
            #expect(result.outcome == .success)
        }
        // The view is disposed of on the main queue, which lets the page go: a bounded wait for it, not a fixed one.
        let deadline = ContinuousClock.now + .seconds(5)
        while gone != nil && ContinuousClock.now < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.01)) }
        #expect(gone == nil)
    }
}
