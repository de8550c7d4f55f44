import Determinism
import FlowCatalog
import FlowEngine
import IdpFlows
import Simulation
import Testing

/// The MC-SDK's runtime error restarts it by itself, and a restart is the logout (RestartEvent): the session of the
/// user logged in before it ends. A tester found "the MC-SDK restarted itself" on the result screen under a status
/// line that still said "logged in as alice", and the next logout said a session had been open.
@Suite struct RuntimeErrorSessionTests {
    @Test func aRuntimeErrorsRestartEndsTheSessionBeforeIt() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice])
        #expect(service.run(.activate, with: frontEnd)?.outcome == .success)
        #expect(service.environment.masterController.snapshot.loggedIn)
        service.environment.world.identityFaults.runtimeError = true
        let failed = try #require(service.run(.login, with: frontEnd))
        #expect(failed.status == "INTERNAL_ERROR")
        #expect(!service.environment.masterController.snapshot.loggedIn, "the restart ended alice's session")
        #expect(service.statusLine == "activated as alice")
        // The next logout finds nobody logged in: the device stays activated.
        let logout = try #require(service.run(.logout, with: frontEnd))
        #expect(logout.outcome == .success)
        #expect(logout.device?.wasLoggedIn == false, "\(String(describing: logout.device))")
    }
}
