import Foundation
import IdpSdk
import IdpTuiWorld
import KSMasterController
import Q2ModuleInterfaces
import SafepayDropsSDK
import Testing
import kssidp

/// What an app's debug log or crash report shows of the SDK objects it holds (`dump` walks every stored property,
/// whatever its access): never the simulated servers' state that no device holds — the IdP's users, their salts and
/// hashes, its sessions, the key that seals `clientData`. A dump of the master controller printed all of them.
@Suite struct SimulatorInternalsTests {
    /// Words of the servers' state: a user the flow never named, the stores' fields, the demo password and codes.
    /// The world's randomness (its generator's state predicts every later code), the ACS's cards and challenges.
    static let serverState = ["bob", "salt", "StoredHash", "clientDataKey", "loadedUsers", "wonderland", "123456", "654321", "codeChallenge",
                              "SeededGenerator", "4000000000002503", "challengePolicy", "CardScenario",
                              // The merchant's token and JWT (ScriptedPaymentTests.configuration).
                              "token-abc", "eyJhbGciOi"]

    private func expectNoServerState(_ value: Any, _ name: String) {
        var dumped = ""
        dump(value, to: &dumped)
        for word in Self.serverState {
            #expect(!dumped.contains(word), "dump(\(name)) shows \"\(word)\": \(dumped.prefix(4000))")
        }
    }

    @Test func theIdpSdkObjectsShowNoServerState() async throws {
        let harness = SDKHarness()
        let service = harness.service()
        // alice activated and a login under way: the IdP holds her hashes and a session.
        let (result, _) = await harness.signIn(
            clientId: "KssIdpEnrollment", ["username": "alice", "password": "wonderland", "activation-code": "123456"], service: service)
        #expect(result.authorizationCode != nil)
        expectNoServerState(harness.controller, "master controller")
        expectNoServerState(service, "IdpSdkService")
    }

    @Test @MainActor func theWorldsSDKObjectsShowNoServerState() async throws {
        try await SimulatedWorld.withWorld { world in
            let receiver = Receiver()
            let controller = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: receiver))
            let config = KssIdpConfig(certificatePath: "", baseUrl: "https://idp.demo.idp-tui.test/auth", tenantId: "demo",
                                      masterController: controller, shouldKssIdpHandleTms: false, shouldHashPin: false)
            expectNoServerState(config, "KssIdpConfig")
            expectNoServerState(KssIdpWrapper(config: config), "KssIdpWrapper")
            expectNoServerState(SimulatedQ2Platform(), "SimulatedQ2Platform")
            // A payment configured: the page, its directory server and ACS.
            let view = SafepayPayerAuthenticationView()
            view.configure(ScriptedPaymentTests.configuration)
            expectNoServerState(view, "SafepayPayerAuthenticationView")
            expectNoServerState(world, "SimulatedWorld")
        }
    }

    /// The controller and KssIdpConfig show what an app knows of them: the device (its id, state, user), and the
    /// configuration as given; not the simulation's machinery (a task lane, a sealing key, a PKCE verifier, the
    /// network, a chain no app passes), which a tester's debug log showed.
    @Test func theControllerAndTheConfigurationShowWhatAnAppKnows() async throws {
        let harness = SDKHarness()
        let (result, _) = await harness.signIn(
            clientId: "KssIdpEnrollment", ["username": "alice", "password": "wonderland", "activation-code": "123456"], service: harness.service())
        #expect(result.authorizationCode != nil)
        var controller = ""
        dump(harness.controller, to: &controller)
        for word in ["deviceID", "sdkState", "alice"] { #expect(controller.contains(word), "\(controller)") }
        for word in ["SerialTaskLane", "clientDataSealer", "pending", "HMAC"] { #expect(!controller.contains(word), "\(controller)") }
        let config = KssIdpConfig(certificatePath: "/etc/idp.pem", baseUrl: "https://idp.demo.idp-tui.test/auth", tenantId: "demo",
                                  masterController: harness.controller, shouldKssIdpHandleTms: false, shouldHashPin: false)
        let printed = String(describing: config)
        #expect(printed.hasPrefix("KssIdpConfig(certificatePath: \"/etc/idp.pem\", baseUrl:"), "\(printed)")
        #expect(!printed.contains("network") && !printed.contains("certificateChain"), "\(printed)")
    }

    final class Receiver: KSAsyncEventReceiver, Sendable {
        func receive(_ event: any KsEvent, withCompletionHandler completionBlock: (((any KsEvent)?) -> Void)?) {}
    }
}
