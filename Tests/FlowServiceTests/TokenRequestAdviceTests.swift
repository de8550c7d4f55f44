import Determinism
import FlowEngine
import IdentityProvider
import IdpFlows
import Simulation
import Testing

/// An error with code 0 and no message, as the MC-SDK's token exchange gives one.
private let codeZero = FlowError(subsystem: nil, code: 0, message: "")

/// SetAuthorisationCode's POST /token gives no transport code: a fault that stops it is named by the advice from the
/// faults on, as at GET /authorize (it said "Check the identity provider's URL and the network").
@Suite struct TokenRequestFaultAdviceTests {
    @Test func aTokenRequestStoppedByAFaultNamesIt() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let family = try #require(service.family(IdpSdkFamily.self))
        func advice() -> String { family.advice(for: .login, status: "NOT_REACHABLE", error: codeZero, step: FlowStep("SetAuthorisationCode")) ?? "" }
        #expect(advice() == "Check the identity provider's URL and the network.", "\(advice())")
        service.world.identityFaults.networkUnavailable = true
        #expect(advice().contains("the network-unavailable fault"), "\(advice())")
        service.world.identityFaults = IdentityFaults()
        service.world.identityFaults.requestTimeout = true
        #expect(advice().contains("request-timeout fault"), "\(advice())")
    }
}

/// By SetAuthorisationCode the IdP has accepted, and so spent, the activation code: whatever ends the activation
/// there says so. A QA pass switched the network off while the code's page was on its way: the result said only
/// "Check the identity provider's URL and the network", and the next activation failed with ACTIVATION_CODE_USED.
@Suite struct SpentCodeAdviceTests {
    @Test(arguments: ["NOT_REACHABLE", "FAILED", "INTERNAL_ERROR"])
    func anActivationEndingAtSetAuthorisationCodeSaysItsCodeIsSpent(status: String) throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let family = try #require(service.family(IdpSdkFamily.self))
        let advice = family.advice(for: .activate, status: status, error: codeZero, step: FlowStep("SetAuthorisationCode")) ?? ""
        #expect(advice.contains("The IdP spent the activation code when it accepted it, before SetAuthorisationCode"), "\(advice)")
        #expect(advice.contains("gives the scenario's codes back"), "\(advice)")
        // Before it, and in a login, nothing was spent.
        for (kind, step) in [(FlowKind.activate, "getAuthorizationCode"), (.login, "SetAuthorisationCode")] {
            let other = family.advice(for: kind, status: status, error: codeZero, step: FlowStep(step)) ?? ""
            #expect(!other.contains("spent"), "\(kind) at \(step): \(other)")
        }
    }
}
