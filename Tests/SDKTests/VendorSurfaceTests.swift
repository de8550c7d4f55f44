import Dispatch
import Foundation
import IdentityProvider
import IdpSdk
import IdpTuiWorld
import KSMasterController
import Q2ModuleInterfaces
import Testing
import Threading
import ThreeDSecure

@Suite struct StatusSpellingTests {
    @Test func iOSAndAndroidSpellingsAreTheSameStatus() {
        let status: KSMEventStatusType = .KSMOK
        #expect(status == StatusType.OK)
        #expect(StatusType.INTERNAL_ERROR == .KSMINTERNAL_ERROR)
        #expect("\(KSMEventStatusType.KSMWRONG_CREDENTIALS)" == "KSMWRONG_CREDENTIALS")
        #expect(KSMEventStatusType.KSMCANNOT_ACQUIRE_TOKEN_DATA.name == "CANNOT_ACQUIRE_TOKEN_DATA")
        let names = KSMEventStatusType.allCases.map(\.name)
        #expect(Set(names).count == names.count && names.allSatisfy { !$0.hasPrefix("KSM") && !$0.isEmpty })
    }
}

/// The vendors' initializers, given nothing but what a newcomer has, reach the current simulated world. One at
/// a time: they share ``SimulatedWorld/current`` and the factory's one device.
@Suite(.serialized) struct CurrentWorldTests {
    final class Consumer: KSAsyncEventReceiver, Sendable {
        let heard = Locked<[String]>([])

        func receive(_ event: any KsEvent, withCompletionHandler completionBlock: (((any KsEvent)?) -> Void)?) {
            // A runtime error as KOBIL's iOS samples read it: errorType, errorCode, errorDescription.
            let runtime = (event as? KSMErrorRuntimeEvent).map { " (\($0.errorType) \($0.errorCode): \($0.errorDescription))" } ?? ""
            heard.withLock { $0.append("\(event.getName()) on \(QueueName.current)\(runtime)") }
        }
    }

    init() throws {
        try SimulatedWorld.use()
        KSMasterControllerFactory.releaseMasterController()
    }

    @Test func theFactoryKeepsOneDeviceUntilReleasedOrTheWorldChanges() throws {
        let consumer = Consumer()
        let first = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer))
        #expect(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer) === first)
        KSMasterControllerFactory.releaseMasterController()
        let second = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer))
        #expect(second !== first)
        try SimulatedWorld.use()
        #expect(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer) !== second)
    }

    /// A world made where a freed one was (two `use()` calls: the second world takes the first's memory) is a new
    /// world: the factory gave back the old world's device, activated and talking to the old world's IdP.
    @Test func aWorldMadeWhereAGoneOneWasGetsANewDevice() throws {
        let consumer = Consumer()
        var previous = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer))
        for _ in 0..<10 {
            try SimulatedWorld.use()
            try SimulatedWorld.use()
            let next = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer))
            #expect(next !== previous)
            previous = next
        }
    }

    /// On a clock whose time stands still, as ReleasedControllerTests: an authorization code aged past its 60 s under
    /// a whole suite's load there.
    @Test func theVendorsInitializersLogInOnTheDemoWorldAndResultsComeOnTheSDKsQueues() async throws {
        try await SimulatedWorld.withWorld(SimulatedWorld(clock: StillClock())) { world in
            let consumer = Consumer()
            let device = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer))
            let queue = Locked<String?>(nil)
            let start = await withCheckedContinuation { continuation in
                device.receive(KSMStartEvent()) { result in
                    queue.withLock { $0 = QueueName.current }
                    continuation.resume(returning: result as? KSMStartResultEvent)
                }
            }
            #expect(start?.sdkState == .activationRequired)
            #expect(queue.withLock { $0 } == "MC-SDK")
            let ast = try #require(await device.receive(GetAstClientDataEvent(tenantId: world.tenantId)) as? GetAstClientDataResultEvent)
            let idpSdk = IdpSdkService(tenantId: world.tenantId, idpUrl: world.idpUrl, certificateChain: world.certificateChain, shouldHashPin: false)
            let interaction = ScriptedInteraction.answering(["username": "alice", "password": "wonderland", "activation-code": "123456"])
            let (code, completedOn) = await withCheckedContinuation { continuation in
                idpSdk.getAuthorizationCode(
                    withAstClientData: AstClientDataInfo(astClientData: ast), clientId: KSMClientId.enrollment, interactionInterface: interaction,
                    userId: nil, traceParent: ""
                ) { result in continuation.resume(returning: (result.authorizationCode, QueueName.current)) }
            }
            #expect(completedOn == "IdpSdk")
            #expect(interaction.calls.count == 2 && interaction.calls.allSatisfy { !$0.onMainThread })
            let authorisationCode = try #require(code)
            let set = try #require(await device.receive(SetAuthorisationCodeEvent(
                tenantId: world.tenantId, authenticationMode: .no, authorisationCode: authorisationCode, clientId: KSMClientId.enrollment))
                as? SetAuthorisationCodeResultEvent)
            #expect(set.status == StatusType.OK)
            #expect(set.userIdentifier == KsUserIdentifier(tenantId: "demo", userId: "alice"))
        }
    }

    @Test func theConsumerHearsTheRuntimeErrorTheControllerSendsUnasked() async throws {
        try await SimulatedWorld.withWorld(SimulatedWorld(clock: StillClock())) { world in
            let consumer = Consumer()
            let device = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer))
            _ = await device.receive(KSMStartEvent())
            let ast = try #require(await device.receive(KSMGetAstClientDataEvent(tenantId: world.tenantId)) as? KSMGetAstClientDataResultEvent)
            let idpSdk = IdpSdkService(tenantId: world.tenantId, idpUrl: world.idpUrl, certificateChain: world.certificateChain, shouldHashPin: false)
            let code = await withCheckedContinuation { continuation in
                idpSdk.getAuthorizationCode(
                    withAstClientData: AstClientDataInfo(astClientData: ast), clientId: KSMClientId.enrollment,
                    interactionInterface: ScriptedInteraction.answering(["username": "bob", "password": "builder", "activation-code": "654321"]),
                    userId: nil, traceParent: nil
                ) { continuation.resume(returning: $0.authorizationCode ?? "") }
            }
            world.identityFaults.runtimeError = true
            let reply = await device.receive(KSMSetAuthorisationCodeEvent(
                tenantId: world.tenantId, authenticationMode: .no, authorisationCode: code, clientId: KSMClientId.enrollment))
            // The consumer hears the ErrorRuntimeEvent; the sender gets its own result type (the guide casts it with as!).
            let result = try #require(reply as? KSMSetAuthorisationCodeResultEvent, "\(String(describing: reply))")
            #expect(result.status == .KSMINTERNAL_ERROR)
            #expect(result.errorDescription.contains("restarted itself"))
            #expect(consumer.heard.withLock { $0 } == [
                "ErrorRuntimeEvent on MC-SDK (runtimeError 1: internal error while storing the token data; the MC-SDK restarted itself)"])
        }
    }

    @Test func aScenarioFileThatIsWrongIsAnErrorNamingItsProblems() throws {
        let scratch = try ToolScratch("bad-world")
        let path = scratch.path("world.json").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(#"{"scenario": 1, "name": 7}"#.utf8))
        #expect {
            try SimulatedWorld.use(scenarioFile: path)
        } throws: { error in
            "\(error)".hasPrefix(path) && "\(error)".contains("$.name")
        }
        #expect(SimulatedWorld.current.scenarioName == "demo", "the current world stays")
    }
}

@Suite struct Q2PlatformTests {
    @Test func theContextFollowsTheLaunch() async {
        let world = SimulatedWorld(scenario: .embeddedDefault)
        for (launch, banner, auto) in [(Q2Launch.normal, nil, true), (.deepLink, "Please sign in to continue", true), (.push, nil, false)] {
            let platform = SimulatedQ2Platform(world: world, launch: launch, security: SimulatedSecurityModule(faults: world.faults))
            #expect(platform.context.presentWithLocalizedErrorMessage == banner)
            #expect(await MainActor.run { platform.context.shouldAllowAutoLogin() } == auto)
        }
    }

    /// An app's own security module decides the password login (it could not be given: the platform always took
    /// the simulation's).
    @Test func theAppsSecurityModuleDecidesTheLogin() async {
        struct Rooted: SecurityModule {
            func allowLogin() -> SecurityResult { .deny("our check found su") }
        }
        let platform = SimulatedQ2Platform(security: Rooted())
        await #expect {
            try await platform.context.passwordAuthentication.authenticate(using: PasswordCredential(username: "alice", password: "wonderland"))
        } throws: { error in
            if case MobileCoreLoginFailure.insecure(let reason) = error { reason == "our check found su" } else { false }
        }
    }

    @Test func aResponseWithoutASessionTokenIsRefused() async {
        let platform = SimulatedQ2Platform()
        let response = AuthenticationModuleResponse(username: "alice", authenticationMethod: .password, q2token: nil, userDataJSON: nil)
        await #expect(throws: MobileCoreLoginFailure.self) { try await platform.completePlatformAuthentication(with: response) }
        #expect(platform.session == nil)
    }
}

@Suite struct ScriptedCardholderTests {
    @Test func aNumberThatIsNotACardIsRefusedAndTheDefaultIsCardinalsFrictionlessCard() throws {
        #expect(throws: CardNumber.Problem.failsLuhnCheck) { try ScriptedCardholder(cardNumber: "4000000000002702") }
        #expect(try CardNumber(CardNumber.frictionlessTestCard.digits) == .frictionlessTestCard)
        #expect(ScriptedCardholder().cardNumber == "4000000000002701")
    }

    /// A one-time code no challenge screen takes (longer than 16 bytes, a control character, empty) is refused when
    /// the cardholder is made, as the answers' `otp` and a scenario's `oneTimeCode` refuse it, never naming it: it
    /// was taken, and the challenge then failed with reason 19 as if the code were wrong.
    @Test(arguments: ["12345678901234567", "12\u{1B}34", ""])
    func aOneTimeCodeNoScreenTakesIsRefused(_ code: String) {
        let error = #expect(throws: ScriptedCardholder.InvalidOneTimeCode.self) { try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCode: code) }
        #expect(error?.description == "oneTimeCode must be a code of 1 to 16 bytes, without control characters")
        #expect((try? ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCode: "1234567890123456")) != nil, "16 bytes are taken")
    }
}
