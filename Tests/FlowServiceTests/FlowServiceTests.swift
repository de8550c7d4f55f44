import Determinism
import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import IdentityProvider
import IdpFlows
import IdpSdk
import KSMasterController
import LegacyFlows
import Q2Flows
import Scenario
import Simulation
import Testing

@Suite struct FlowServiceFlowTests {
    @Test func activationThenLoginThenLogout() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice, [:], Demo.alice])
        #expect(service.statusLine == "not activated")

        let activated = try #require(service.run(.activate, with: frontEnd))
        #expect(activated.outcome == .success)
        #expect(activated.status == "OK")
        #expect(activated.user == "alice")
        #expect(activated.astClientId?.count == 26 && activated.astClientId != ClientData.unactivatedAstClientId)
        #expect(activated.authenticationMode == KSMAuthenticationMode.no)
        #expect(service.statusLine == "logged in as alice")

        let login = try #require(service.run(.login, with: frontEnd))
        #expect(login.outcome == .success)
        #expect(login.astClientId == activated.astClientId)

        let logout = try #require(service.run(.logout, with: frontEnd))
        #expect(logout.outcome == .success)
        #expect(service.statusLine == "activated as alice")
        #expect(service.events(frontEnd, flow: logout.flowID) == ["App→MC-SDK Restart", "MC-SDK→App Restart"])

        #expect(service.run(.login, with: frontEnd)?.outcome == .success)
        #expect(service.statusLine == "logged in as alice")
    }

    /// The task that runs the flows waiting holds its service until none is left, and must let go of it then.
    @Test func aServiceLetGoAfterItsFlowsIsFreed() throws {
        weak var released: FlowService?
        do {
            let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
            let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice])
            #expect(service.run(.activate, with: frontEnd)?.outcome == .success)
            #expect(service.run(.login, with: frontEnd)?.outcome == .success)
            released = service
        }
        // The runner lets go of the service once it finds the lineup empty, just after the last result.
        let deadline = ContinuousClock.now + .seconds(20)
        while released != nil && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(released == nil)
    }

    @Test func activationRunsTheThreeStepsInOrderWithProvideCredentialsOnABackgroundThread() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        let result = try #require(service.run(.activate, with: frontEnd))
        #expect(service.events(frontEnd, flow: result.flowID) == [
            "App→MC-SDK Start", "MC-SDK→App Start",
            "App→MC-SDK GetAstClientData", "MC-SDK→App GetAstClientData",
            "App→IdpSdk getAuthorizationCode",
            "IdpSdk→IdP GET /authorize", "IdP→IdpSdk GET /authorize",
            "IdpSdk→App provideCredentials", "App→IdpSdk provideCredentials",
            "IdpSdk→IdP POST /authorize", "IdP→IdpSdk POST /authorize",
            "IdpSdk→App provideCredentials", "App→IdpSdk provideCredentials",
            "IdpSdk→IdP POST /authorize", "IdP→IdpSdk POST /authorize",
            "IdpSdk→App getAuthorizationCode",
            "App→MC-SDK SetAuthorisationCode",
            "MC-SDK→IdP POST /token", "IdP→MC-SDK POST /token",
            "MC-SDK→App SetAuthorisationCode",
        ])
        let events = frontEnd.events
        #expect(events.map(\.sequence) == Array(1...events.count))
        #expect(events.allSatisfy { !$0.mainThread })
        let callbacks = events.filter { $0.step == .provideCredentials }
        #expect(callbacks.allSatisfy { $0.thread == "IdpSdk" })
        #expect(events.filter { $0.from == .app && $0.to == .masterController }.allSatisfy { $0.thread == "idp-tui.flow" })
        #expect(events.filter { $0.from == .masterController && $0.to == .app }.allSatisfy { $0.thread == "MC-SDK" && $0.duration != nil })
        #expect(events.filter { $0.to == .identityProvider }.map(\.thread) == ["IdpSdk", "IdpSdk", "IdpSdk", "MC-SDK"])
        #expect(frontEnd.prompts.map(\.fields) == [[.username, .password], [.activationCode]])
        #expect(frontEnd.prompts.map(\.title) == ["Activate device — step 1 of 2", "Activate device — step 2 of 2"])
    }

    @Test func noEventOrResultCarriesASecret() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice, ["username": "alice", "password": "builder"]])
        for kind in [FlowKind.activate, .login, .login] { _ = service.run(kind, with: frontEnd) }
        let encoder = JSONEncoder()
        var text = frontEnd.events.map { String(decoding: try! encoder.encode($0), as: UTF8.self) }.joined()
        text += frontEnd.results.map { String(decoding: try! encoder.encode($0), as: UTF8.self) }.joined()
        text += "\(frontEnd.events) \(frontEnd.results) \(frontEnd.prompts)"
        #expect(frontEnd.results.map(\.outcome) == [.success, .success, .failure])
        for secret in Demo.secrets { #expect(!text.contains(secret), "\(secret) leaked") }
    }
}

@Suite struct FlowServiceErrorTests {
    func service(_ clock: ManualClock = ManualClock(), _ configuration: FlowConfiguration = FlowConfiguration())
        -> FlowService
    {
        FlowService(environment: SimulationEnvironment(clock: clock), configuration: configuration)
    }

    @Test func aWrongPasswordFailsWithWrongCredentials() throws {
        let frontEnd = RecordingFrontEnd.answering([["username": "alice", "password": "nope", "activation-code": "123456"]])
        let result = try #require(service().run(.activate, with: frontEnd))
        #expect(result.outcome == .failure)
        #expect(result.status == "WRONG_CREDENTIALS")
        #expect(result.error == FlowError(subsystem: 513, code: 4011, message: IdpFailure.wrongCredentials(attemptsLeft: 2).message))
        #expect(result.failedStep == .getAuthorizationCode)
        #expect(result.advice?.contains("user name and password") == true)
        #expect(!frontEnd.events.contains { $0.step == .setAuthorisationCode })
    }

    @Test func theThirdWrongPasswordLocksAndTheLockEnds() throws {
        let clock = ManualClock()
        let service = service(clock)
        let wrong = ["username": "alice", "password": "nope", "activation-code": "123456"]
        let frontEnd = RecordingFrontEnd.answering([wrong, wrong, wrong, Demo.aliceActivation, Demo.aliceActivation])
        let results = (0..<3).compactMap { _ in service.run(.activate, with: frontEnd) }
        clock.advance(by: .seconds(49))
        let locked = try #require(service.run(.activate, with: frontEnd))
        #expect((results + [locked]).map(\.status) == ["WRONG_CREDENTIALS", "WRONG_CREDENTIALS", "TEMPORARY_LOCKED", "TEMPORARY_LOCKED"])
        // The advice says how long the lock lasts, as the message above it does (it said "Wait until the lock ends").
        #expect(results.last?.advice == "Wait 5 min for the lock to end, then try again.")
        #expect(locked.error?.message.hasSuffix("try again in 4 min 11 s") == true && locked.advice == "Wait 4 min 11 s for the lock to end, then try again.",
                "\(locked.advice ?? "")")
        clock.advance(by: .seconds(251))
        #expect(service.run(.activate, with: frontEnd)?.outcome == .success)
    }

    @Test func aUsedActivationCodeFailsOnASecondDevice() throws {
        let first = service()
        #expect(first.run(.activate, with: .answering([Demo.aliceActivation]))?.outcome == .success)
        let second = FlowService(environment: first.environment.anotherDevice())
        let result = try #require(second.run(.activate, with: .answering([Demo.aliceActivation])))
        #expect(result.status == "ACTIVATION_CODE_USED")
        #expect(result.error?.code == 4014)
    }

    @Test func twoDevicesOnOneIdPEachLogOnlyTheirOwnIdPTraffic() throws {
        let first = service()
        let second = FlowService(environment: first.environment.anotherDevice())
        let firstEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        let secondEnd = RecordingFrontEnd.answering([["username": "bob", "password": "builder", "activation-code": "654321"]])
        first.start(.activate)
        second.start(.activate)
        #expect(first.drive(firstEnd) { !firstEnd.results.isEmpty })
        #expect(second.drive(secondEnd) { !secondEnd.results.isEmpty })
        let idpRequests = { (frontEnd: RecordingFrontEnd) in frontEnd.events.filter { $0.to == .identityProvider }.count }
        #expect(idpRequests(firstEnd) == 4, "GET /authorize, two POST /authorize, POST /token")
        #expect(idpRequests(secondEnd) == 4)
        #expect(firstEnd.results.first?.user == "alice" && secondEnd.results.first?.user == "bob")
    }

    @Test func anExpiredActivationCodeFails() throws {
        let clock = ManualClock()
        let service = service(clock)
        clock.advance(by: .seconds(31 * 24 * 3600))
        let result = try #require(service.run(.activate, with: .answering([Demo.aliceActivation])))
        #expect(result.status == "ACTIVATION_CODE_EXPIRED")
        #expect(result.error?.code == 4013)
    }

    @Test func loginBeforeActivationFailsWithoutAPrompt() throws {
        let frontEnd = RecordingFrontEnd.answering([Demo.alice])
        let result = try #require(service().run(.login, with: frontEnd))
        #expect(result.status == "ACTIVATION_REQUIRED")
        #expect(result.error?.subsystem == 513 && result.error?.code == 4041)
        #expect(frontEnd.prompts.isEmpty)
        // KOBIL's own code is shown as it is; one of idp-tui's says so (4043 beside 4041 and 4042 read as KOBIL's).
        #expect(result.summary.row("error")?.value == "513/4041")
    }

    @Test func anErrorCodeOfIdpTuisOwnIsSaidToBeOne() throws {
        let service = service()
        #expect(try #require(service.run(.activate, with: .answering([Demo.aliceActivation]))).outcome == .success)
        let twice = try #require(service.run(.activate, with: .answering([Demo.aliceActivation])))
        #expect(twice.error?.code == 4043)
        #expect(twice.summary.row("error")?.value == "513/4043 (idp-tui's code; the real one is not public)")
    }

    @Test func anotherAccountCannotLogInOnThisDevice() throws {
        let service = service()
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.bob])
        _ = service.run(.activate, with: frontEnd)
        let result = try #require(service.run(.login, with: frontEnd))
        #expect(result.status == "FAILED")
        #expect(result.error?.code == 4042)
        #expect(result.advice?.contains("activated for") == true)
    }

    @Test func activatingTwiceIsAnInvalidState() throws {
        let service = service()
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.aliceActivation])
        _ = service.run(.activate, with: frontEnd)
        let result = try #require(service.run(.activate, with: frontEnd))
        #expect(result.status == "INVALID_STATE")
        #expect(result.error?.code == 4043)
    }

    @Test func aWrongCertificateChainFailsPinningBeforeAnyPrompt() throws {
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        let configuration = FlowConfiguration(certificateChainPEM: IdentityProviderCertificates.impostorPEM)
        let result = try #require(service(ManualClock(), configuration).run(.activate, with: frontEnd))
        #expect(result.status == "NOT_REACHABLE")
        #expect(result.error?.subsystem == 511 && result.error?.code == 2)
        #expect(result.error?.message.contains("certificate pinning failed") == true)
        // The impostor's root has the real one's name: said to be another key under it, not only by fingerprints.
        #expect(result.error?.message.contains("presented a root named idp-tui Simulated Root CA, as the pinned one is, but with another key (SHA-256 ") == true,
                "\(result.error?.message ?? "")")
        #expect(result.error?.message.components(separatedBy: "Simulated Root CA").count == 2, "named once: \(result.error?.message ?? "")")
        #expect(frontEnd.prompts.isEmpty)
        // Refused in the TLS handshake: no HTTP request left the device (the log showed GET /authorize sent).
        #expect(!frontEnd.events.contains { $0.step.rawValue == "GET /authorize" }, "\(frontEnd.events.map(\.step.rawValue))")
    }

    @Test func hashingThePinAgainstAPlainTenantIsAWrongPassword() throws {
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        let result = try #require(service(ManualClock(), FlowConfiguration(shouldHashPin: true)).run(.activate, with: frontEnd))
        #expect(result.status == "WRONG_CREDENTIALS")
        #expect(result.error?.message.hasSuffix(#"shouldHashPin is true, so the password was sent hashed, and tenant "demo" expects it as typed"#) == true)
    }

    /// The migration guide's "After" does not hash (`shouldHashPin: false`) where its "Before" did: on a tenant that
    /// expects hashed PINs the right password fails, and the error says why (it said only "wrong username or password").
    @Test func notHashingThePinForAHashedPinTenantSaysSo() throws {
        var scenario = Scenario.embeddedDefault
        scenario.identityProvider.tenants[0].expectsHashedPins = true
        let service = FlowService(environment: SimulationEnvironment(scenario: scenario, clock: ManualClock()),
                                  configuration: FlowConfiguration(shouldHashPin: false))
        let result = try #require(service.run(.activate, with: RecordingFrontEnd.answering([Demo.aliceActivation])))
        #expect(result.status == "WRONG_CREDENTIALS")
        #expect(result.error?.message.hasSuffix(#"shouldHashPin is false, so the password was sent as typed, and tenant "demo" expects hashed PINs"#) == true,
                "\(result.error?.message ?? "")")
    }

    /// A tenant that expects hashed PINs gets no hashing hint on a wrong password: the password is wrong (it blamed
    /// the hashing).
    @Test func aWrongPasswordForAHashedPinTenantGivesNoHashingHint() throws {
        var scenario = Scenario.embeddedDefault
        scenario.identityProvider.tenants[0].expectsHashedPins = true
        let service = FlowService(environment: SimulationEnvironment(scenario: scenario, clock: ManualClock()),
                                  configuration: FlowConfiguration(shouldHashPin: true))
        var answers = Demo.aliceActivation
        answers["password"] = "not-it"
        let result = try #require(service.run(.activate, with: RecordingFrontEnd.answering([answers])))
        #expect(result.status == "WRONG_CREDENTIALS")
        #expect(result.error?.message.contains("shouldHashPin") == false, "\(result.error?.message ?? "")")
    }
}

@Suite struct FlowServiceCancelTests {
    @Test func cancelAtThePromptSendsTheUserCancelledErrorToTheSdk() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd { _ in .cancel }
        let result = try #require(service.run(.activate, with: frontEnd))
        #expect(result.outcome == .cancelled)
        #expect(result.status == "USER_CANCEL")
        #expect(result.error == FlowError(subsystem: 1000, code: 1, message: "User cancelled"))
        // The SDK itself completed with the app's error, and nothing went to the MC afterwards.
        let sdkResult = try #require(frontEnd.events.last { $0.step == .getAuthorizationCode && $0.from == .idpSdk })
        #expect(sdkResult.status == "1000/1")
        #expect(!frontEnd.events.contains { $0.step == .setAuthorisationCode })
        #expect(service.statusLine == "not activated")
        #expect(service.environment.world.identityProvider.openSessionCount == 0)
    }

    @Test func cancellingTheFlowWhileAPromptIsOpenGoesThroughTheSdk() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd()
        let id = service.start(.login)
        _ = service.run(.logout, with: frontEnd)  // nothing: the login fails at once (not activated)
        let activation = service.start(.activate)
        #expect(service.drive(frontEnd) { !frontEnd.prompts.filter { $0.flowID == activation }.isEmpty })
        service.cancel(flowID: activation)
        #expect(service.drive(frontEnd) { frontEnd.results.contains { $0.flowID == activation } })
        let result = try #require(frontEnd.results.first { $0.flowID == activation })
        #expect(result.outcome == .cancelled)
        #expect(result.error?.message == "User cancelled")
        #expect(id != activation)
    }

    @Test func cancelWhileAStepIsInFlightEndsAtOnceAndSendsNothingMore() throws {
        let clock = ManualClock(countingWork: true)
        let environment = SimulationEnvironment(clock: clock)
        environment.world.network.latency = .seconds(2)
        let service = FlowService(environment: environment)
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        let id = service.start(.activate)
        // The IdpSdk is now waiting on the network (two simulated seconds that never pass by themselves).
        #expect(clock.waitForPendingTimers(atLeast: 1))
        service.cancel(flowID: id)
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        let result = try #require(frontEnd.results.first)
        #expect(result.outcome == .cancelled)
        #expect(result.failedStep == .getAuthorizationCode)
        #expect(result.error?.message.contains("in flight") == true)

        // Let the abandoned work finish: it must not prompt, and nothing is sent to the MC.
        service.settle(frontEnd, clock: clock)
        #expect(service.activeFlowCount == 0)
        #expect(frontEnd.prompts.isEmpty)
        #expect(!frontEnd.events.contains { $0.step == .setAuthorisationCode })
        #expect(service.statusLine == "not activated")
    }

    @Test func aFlowStartedAfterACancelInFlightRunsOnceTheDeviceIsFree() throws {
        let clock = ManualClock(countingWork: true)
        let environment = SimulationEnvironment(clock: clock)
        environment.world.network.latency = .seconds(2)
        let service = FlowService(environment: environment)
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.aliceActivation])
        let first = service.start(.activate)
        #expect(clock.waitForPendingTimers(atLeast: 1))
        service.cancel(flowID: first)
        // The cancelled flow's result comes while its call still holds the device (the clock has not moved).
        #expect(service.drive(frontEnd) { frontEnd.results.contains { $0.flowID == first } })
        #expect(frontEnd.results.first?.outcome == .cancelled)

        // The next flow runs whole once the device is free (the cancel abandoned the call's network wait).
        let second = service.start(.activate)
        service.settle(frontEnd, clock: clock)
        let result = try #require(frontEnd.results.first { $0.flowID == second })
        #expect(result.outcome == .success)
        #expect(service.statusLine == "logged in as alice")
        let secondEvents = frontEnd.events.filter { $0.flowID == second }
        #expect(secondEvents.first?.step == .start && secondEvents.last?.step == .setAuthorisationCode)
        // Events keep one order: nothing of the first flow comes after the second began.
        let firstOfSecond = try #require(secondEvents.first?.sequence)
        #expect(!frontEnd.events.contains { $0.flowID == first && $0.sequence > firstOfSecond })
    }

    @Test func cancelDuringSetAuthorisationCodeDiscardsTheLateResult() throws {
        let clock = ManualClock(countingWork: true)
        let environment = SimulationEnvironment(clock: clock)
        let service = FlowService(environment: environment)
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        // Latency only from the moment the code is in hand, so that the MC's token exchange is what waits.
        frontEnd.answer = { prompt in
            if prompt.fields == [.activationCode] { environment.world.network.latency = .seconds(1) }
            return .credentials(["username": .init("alice"), "password": .init("wonderland"), "activation-code": .init("123456")])
        }
        let id = service.start(.activate)
        // The IdpSdk's last submit waits on the network; run until the MC has the code and its token exchange is
        // the one waiting on the network.
        #expect(service.settle(frontEnd, clock: clock) { frontEnd.events.contains { $0.step == .setAuthorisationCode } })
        #expect(frontEnd.prompts.count == 2)
        #expect(clock.pendingTimerCount == 1)
        service.cancel(flowID: id)
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        let result = try #require(frontEnd.results.first)
        #expect(result.outcome == .cancelled)
        #expect(result.failedStep == .setAuthorisationCode)
        service.settle(frontEnd, clock: clock)
        #expect(!frontEnd.events.contains { $0.step == .setAuthorisationCode && $0.from == .masterController })
    }

    @Test func aPromptNobodyAnswersTimesOutOnTheSimulationClock() throws {
        let clock = ManualClock()
        let service = FlowService(
            environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: .seconds(300)))
        let frontEnd = RecordingFrontEnd()
        service.start(.activate)
        #expect(service.drive(frontEnd) { !frontEnd.prompts.isEmpty })
        clock.advance(by: .seconds(299))
        // The prompt's timeout is still set: it has not fired, so the flow still waits.
        #expect(clock.pendingTimerCount == 1)
        clock.advance(by: .seconds(1))
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        let result = try #require(frontEnd.results.first)
        #expect(result.outcome == .failure)
        #expect(result.status == "PROMPT_TIMEOUT")
        #expect(!service.answer(frontEnd.prompts[0], with: .cancel), "a timed-out prompt is closed")
    }

    @Test func aQueuedFlowCancelledBeforeItStartsSendsNothing() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd()
        let first = service.start(.activate)
        let second = service.start(.login)
        service.cancel(flowID: second)
        service.cancel(flowID: first)
        #expect(service.drive(frontEnd) { frontEnd.results.count == 2 })
        #expect(frontEnd.results.map(\.outcome) == [.cancelled, .cancelled])
        #expect(frontEnd.events(of: second).map(\.step) == [.cancel])
    }
}

extension FlowService {
    func events(_ frontEnd: RecordingFrontEnd, flow: Int) -> [String] {
        frontEnd.events(of: flow).map { "\($0.from.rawValue)→\($0.to.rawValue) \($0.step.rawValue)" }
    }
}
