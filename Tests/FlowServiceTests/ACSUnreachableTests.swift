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

/// A 3DS SDK that cannot reach the ACS (the ACS unreachable, or the device offline) ends the challenge with its
/// runtime error and tells the ACS nothing: no Erro, no RReq in the payment's log, and no final transStatus.
@Suite struct ACSUnreachableTests {
    let clock = ManualClock(countingWork: true)

    /// Pays with the step-up card; `atTheScreen` runs when the challenge screen comes, before its answer.
    func pay(acs: ServerFault? = nil, firstCReqLost: Bool = false, atTheScreen: @escaping @Sendable (FlowService) -> Void = { _ in })
        throws -> (FlowResult, [FlowEvent])
    {
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration())
        service.world.bridgeFaults = BridgeFaults(threeDS: ThreeDSFaults(firstCReqLost: firstCReqLost, acs: acs))
        let frontEnd = RecordingFrontEnd { prompt in
            switch prompt.request {
            case let request as PaymentDetailsRequest:
                let defaults = request.defaults
                return (try? PaymentForm.details(card: "4000000000002503", expiry: "12/30", amount: defaults.amount,
                                                 currency: defaults.currency, merchant: defaults.merchant)).map { .payment($0) } ?? .cancel
            case is ChallengeRequest:
                atTheScreen(service)
                return code("1234")
            default: return .cancel
            }
        }
        service.start(.payerAuth)
        service.settle(frontEnd, clock: clock)
        let result = try #require(frontEnd.results.first)
        return (result, frontEnd.events(of: result.flowID))
    }

    func steps(_ events: [FlowEvent]) -> [String] {
        events.map { "\($0.from.rawValue)→\($0.to.rawValue) \($0.step.rawValue)" }
    }

    @Test func anUnreachableACSGetsNoErroAndTheChallengeEndsOnTheDevice() throws {
        let (result, events) = try pay(acs: .unreachable)
        #expect(result.status == PaymentStatus.authenticationUnavailable)
        #expect(result.failedStep?.rawValue == "CReq")
        #expect(result.payment?.callback == "onPayerAuthenticationFailure")
        #expect(result.payment?.transStatus == nil, "the ARes's C is not the payment's outcome")
        #expect(result.payment?.challengeCancel == nil)
        #expect(result.payment?.errorCode == nil, "no Erro was sent or received")
        #expect(result.payment?.acsTransID != nil)
        #expect(result.payment?.nextAction == .retry)
        // The ACS ends it N by its timer: authorising without liability shift is not offered.
        #expect(result.advice?.hasPrefix("Run 3-D Secure again, or ask for another payment method.") == true, "\(result.advice ?? "")")
        #expect(result.error?.message.contains("runtime error: System Connection Failure: the ACS cannot be reached") == true,
                "\(result.error?.message ?? "")")
        let sequence = steps(events)
        let creq = try #require(sequence.firstIndex(of: "Drops→ACS CReq"), "\(sequence)")
        #expect(!sequence.contains { $0.hasSuffix(" Erro") || $0.hasSuffix(" RReq") || $0.hasSuffix(" CRes") }, "\(sequence)")
        let runtimeError = try #require(events.firstIndex { $0.step.rawValue == "runtimeError" }, "\(sequence)")
        #expect(runtimeError > creq)
        #expect(events[runtimeError].from == events[runtimeError].to, "the 3DS SDK's own event, not a message")
        #expect(events[runtimeError].detail.contains("its first-CReq timer (30 s) ends the challenge N, challengeCancel 05"),
                "\(events[runtimeError].detail)")
    }

    @Test func theNetworkLostMidChallengeEndsItOnTheDeviceAndNamesTheChallengeLimit() throws {
        let (result, events) = try pay { service in service.world.identityFaults.networkUnavailable = true }
        #expect(result.status == PaymentStatus.authenticationUnavailable)
        #expect(result.failedStep == .challengeScreen)
        #expect(result.payment?.transStatus == nil)
        #expect(result.payment?.errorCode == nil)
        #expect(result.advice?.hasPrefix("Bring the network back") == true, "\(result.advice ?? "")")
        let sequence = steps(events)
        #expect(sequence.filter { $0 == "Drops→ACS CReq" }.count == 2, "the first CReq, and the answer's, which never arrives: \(sequence)")
        #expect(!sequence.contains { $0.hasSuffix(" Erro") || $0.hasSuffix(" RReq") }, "\(sequence)")
        let runtimeError = try #require(events.first { $0.step.rawValue == "runtimeError" }, "\(sequence)")
        #expect(runtimeError.detail.contains("the network is unavailable: the device is offline"), "\(runtimeError.detail)")
        #expect(runtimeError.detail.contains("its challenge limit (600 s) ends the challenge N, challengeCancel 04"), "\(runtimeError.detail)")
    }

    /// A CReq that cannot leave the device is not lost on the way: with both faults on, the runtime error ends the
    /// payment at once (the lost CReq won: N, challengeCancel 05, after the ACS's 30 s).
    @Test func anUnreachableACSWinsOverALostFirstCReq() throws {
        let (result, events) = try pay(acs: .unreachable, firstCReqLost: true)
        #expect(result.status == PaymentStatus.authenticationUnavailable)
        #expect(result.payment?.challengeCancel == nil)
        #expect(events.contains { $0.step.rawValue == "runtimeError" }, "\(steps(events))")
        #expect(!events.contains { $0.status == "FAULT" && $0.detail.contains("the first CReq is lost") }, "\(steps(events))")
        let start = try #require(events.first).time
        #expect(start.duration(to: try #require(events.last).time) < .seconds(1), "no timer was waited for")
    }
}
