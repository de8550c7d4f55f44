// Not from the guide: runs the guide's code against the simulated world, as an app would.
import ExampleSupport
import Foundation
import IdpSdk
import IdpTuiWorld
import KSMasterController

/// The app's consumer of the events the MC-SDK sends unasked.
final class EventConsumer: KSAsyncEventReceiver {
    func receive(_ event: any KsEvent, withCompletionHandler completionBlock: (((any KsEvent)?) -> Void)?) {
        print("MC-SDK sent \(event.getName())")
    }
}

public enum KobilExample {
    /// The IdpSdk way, on the demo world: activation as alice (two form pages), login, then a login the user
    /// cancels in `provideCredentials`.
    public static func idpSdk() async {
        let world = SimulatedWorld.current
        // The controller holds its consumer weakly, as a delegate: the consumer must outlive the calls.
        let consumer = EventConsumer()
        defer { withExtendedLifetime(consumer) {} }
        guard let masterController = KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer) else {
            print("no master controller")
            return
        }
        let start = await masterController.receive(KSMStartEvent()) as! KSMStartResultEvent
        print("StartEvent: \(start.status.name), sdkState \(start.sdkState.rawValue)")

        let handler = IdpHandler(
            masterController: masterController, screenLogger: ScreenLogger(), certificate: world.certificateChain,
            baseUrl: world.idpUrl, tenantId: world.tenantId)
        handler.username = "alice"
        handler.password = "wonderland"
        handler.activationCode = "123456"
        print("activation:")
        await handler.run(clientId: "KssIdpEnrollment")
        print("login:")
        await handler.run(clientId: "KssIdpLogin")

        // The guide's cancel: provideCredentials returns the error, and the IdpSdk completes with that same error.
        print("login, cancelled:")
        handler.userCancelled = true
        let astClientData = await handler.getAstClientData(tenantId: world.tenantId)
        let result = await withCheckedContinuation { continuation in
            handler.idpSdk.getAuthorizationCode(
                withAstClientData: .init(astClientData: astClientData), clientId: "KssIdpLogin", interactionInterface: handler,
                userId: "alice", traceParent: ""
            ) { result in continuation.resume(returning: result) }
        }
        print("IdpSdkResult: hasError \(result.hasError()), \(result.idpSdkError.map { "\($0)" } ?? "no error")")
        KSMasterControllerFactory.releaseMasterController()
    }

    /// The KSSIDP way: the wrapper on a tenant that expects hashed PINs (the guide's `shouldHashPin: true`), from
    /// the bank-qa scenario: erin activates, then logs in.
    public static func kssidp(scenarioFile: String) throws {
        let world = try SimulatedWorld.use(scenarioFile: scenarioFile)
        // The controller holds its consumer weakly, as a delegate: the consumer must outlive the calls.
        let consumer = EventConsumer()
        defer { withExtendedLifetime(consumer) {} }
        guard let masterController = KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer) else {
            print("no master controller")
            return
        }
        let started = DispatchSemaphore(value: 0)
        masterController.receive(KSMStartEvent()) { _ in started.signal() }
        started.wait()
        // The app ships the IdP's chain in its bundle; here it is written where the app would find it.
        let certificatePath = FileManager.default.temporaryDirectory.appendingPathComponent("idp-tui-example-chain.pem").path
        guard FileManager.default.createFile(atPath: certificatePath, contents: world.certificateChain) else {
            print("cannot write \(certificatePath)")
            return
        }
        let handler = KssIdpHandler(
            certificatePath: certificatePath, baseUrl: world.idpUrl, tenantId: "business", masterController: masterController,
            screenLogger: ScreenLogger())
        handler.username = "erin"
        handler.password = "2468"
        handler.activationCode = "900300"
        handler.initialize()
        print("KSSIDP activation:")
        handler.activate()
        _ = ExampleOutput.waitForLine(startingWith: "KSSIDP: ")
        ExampleOutput.clear()
        print("KSSIDP login:")
        handler.login()
        _ = ExampleOutput.waitForLine(startingWith: "KSSIDP: ")
        KSMasterControllerFactory.releaseMasterController()
    }
}
