import Determinism
import Foundation
import IdpSdk
import IdpTuiWorld
import KSMasterController
import Testing
import Threading
import kssidp

/// `KSMasterControllerFactory.releaseMasterController()` shuts the controller down, not the device: the released
/// controller refuses what is sent to it, and the next one is the same phone, still activated. The released one
/// kept working as a second live device, and the next one was a wiped device (`activationRequired`, no users)
/// (session 51).
@Suite struct ReleasedControllerTests {
    /// alice activates the world's device through `controller`; the result of SetAuthorisationCode.
    private func activateAlice(_ controller: MCSDK, in world: SimulatedWorld) async throws -> KSMSetAuthorisationCodeResultEvent {
        _ = await controller.receive(KSMStartEvent())
        let ast = try #require(await controller.receive(KSMGetAstClientDataEvent(tenantId: world.tenantId)) as? KSMGetAstClientDataResultEvent)
        let idpSdk = IdpSdkService(tenantId: world.tenantId, idpUrl: world.idpUrl, certificateChain: world.certificateChain, shouldHashPin: false)
        let interaction = ScriptedInteraction.answering(["username": "alice", "password": "wonderland", "activation-code": "123456"])
        let result = await withCheckedContinuation { continuation in
            idpSdk.getAuthorizationCode(
                withAstClientData: AstClientDataInfo(astClientData: ast), clientId: KSMClientId.enrollment, interactionInterface: interaction,
                userId: nil, traceParent: nil
            ) { continuation.resume(returning: $0) }
        }
        let code = try #require(result.authorizationCode)
        return try #require(await controller.receive(KSMSetAuthorisationCodeEvent(
            tenantId: world.tenantId, authenticationMode: .no, authorisationCode: code, clientId: KSMClientId.enrollment))
            as? KSMSetAuthorisationCodeResultEvent)
    }

    /// On a clock whose time stands still: under a whole suite's load this test took 115 s in CI, and the
    /// authorization code aged past its 60 s between its issue and its exchange ("the authorization code has expired").
    @Test func aReleasedControllerRefusesEventsAndTheNextOneIsTheSameActivatedDevice() async throws {
        try await SimulatedWorld.withWorld(SimulatedWorld(clock: StillClock())) { world in
            let consumer = CurrentWorldTests.Consumer()
            let first = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer))
            let activated = try await activateAlice(first, in: world)
            #expect(activated.status == .KSMOK, "\(activated.errorCode): \(activated.errorDescription)")
            KSMasterControllerFactory.releaseMasterController()

            // The released controller answers the vendor's invalid-state event, on its own queue.
            let queue = Locked<String?>(nil)
            let refused = await withCheckedContinuation { continuation in
                first.receive(KSMStartEvent()) { result in
                    queue.withLock { $0 = QueueName.current }
                    continuation.resume(returning: result)
                }
            }
            let invalid = try #require(refused as? KSMInvalidStateEvent, "\(String(describing: refused))")
            #expect(invalid.errorMessage.contains("released master controller"), "\(invalid.errorMessage)")
            #expect(queue.withLock { $0 } == "MC-SDK")
            #expect(await first.receive(KSMGetAstClientDataEvent(tenantId: world.tenantId)) is KSMInvalidStateEvent)

            // The next controller is a new one of the same device: alice's activation is kept, as on a phone.
            let second = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer))
            #expect(second !== first)
            #expect(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer) === second)
            let start = try #require(await second.receive(KSMStartEvent()) as? KSMStartResultEvent)
            #expect(start.status == .KSMOK)
            #expect(start.sdkState == .loginRequired)
            #expect(start.userList == [KsUserIdentifier(tenantId: "demo", userId: "alice")])
            let ast = try #require(await second.receive(KSMGetAstClientDataEvent(tenantId: world.tenantId)) as? KSMGetAstClientDataResultEvent)
            #expect(ast.astClientId == activated.astClientId)
            // The first stays released: a release is not undone by the next controller.
            #expect(await first.receive(KSMStartEvent()) is KSMInvalidStateEvent)
        }
    }

    /// The legacy wrapper holds the controller it was configured with: after a release its calls fail as an event
    /// failure with the MC-SDK's invalid state, saying why, and never reach the IdP.
    @Test func kssidpOnAReleasedControllerFailsWithInvalidState() async throws {
        try await SimulatedWorld.withWorld { world in
            let consumer = CurrentWorldTests.Consumer()
            let controller = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer))
            _ = await controller.receive(KSMStartEvent())
            KSMasterControllerFactory.releaseMasterController()
            let wrapper = KssIdpWrapper(config: KssIdpConfig(
                certificatePath: "/nonexistent/idp-chain.pem", baseUrl: world.idpUrl, tenantId: world.tenantId,
                masterController: controller, shouldKssIdpHandleTms: false, shouldHashPin: false))
            let (result, object) = await withCheckedContinuation { continuation in
                wrapper.activate(clientId: KSMClientId.enrollment, authMode: .no,
                                 credentials: ["username": "alice", "password": "wonderland", "activation-code": "123456"], parentSpan: nil
                ) { result, object in continuation.resume(returning: (result, object)) }
            }
            #expect(result.status == .KSMINVALID_STATE)
            guard case .eventFailed(let status, let description, _) = object.status else {
                Issue.record("\(object.status)")
                return
            }
            #expect(status == .KSMINVALID_STATE)
            #expect(description.contains("released master controller"), "\(description)")
        }
    }
}

/// The real clock's timers under a time that stands still: waits take their real time, and nothing ages.
struct StillClock: SimulationClock {
    let start = SystemClock().now
    var now: SimulationInstant { start }

    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        SystemClock().schedule(after: delay, action)
    }

    var pendingWork: PendingWork? { nil }
}
