import Foundation
import IdpTuiWorld
import KSMasterController
import Q2ModuleInterfaces
import SafepayDropsSDK
import Testing
import Threading

/// Tests that run side by side each need a world of their own: `SimulatedWorld.use()` swaps one world under all
/// of them (a library user's parallel Q2 tests saw each other's attempts), `withWorld` gives a task its own.
@Suite struct WorldPerTaskTests {
    /// One login of alice on a platform made now, in the current world: its HTTP status.
    private func q2Status(_ password: String) async -> Int? {
        let authentication = SimulatedQ2Platform().context.passwordAuthentication
        do {
            return try await authentication.authenticate(using: PasswordCredential(username: "alice", password: password)).statusCode
        } catch let failure as MobileCoreLoginFailure {
            if case .invalidCredentials(_, let status, _) = failure { return status }
            return nil
        } catch {
            return nil
        }
    }

    @Test func aTaskInWithWorldHasItsOwnWorldAndTheSDKsMadeThereUseIt() async throws {
        let outside = SimulatedWorld.current
        let firstWorld = Locked<SimulatedWorld?>(nil)
        try await SimulatedWorld.withWorld { first in
            firstWorld.withLock { $0 = first }
            #expect(SimulatedWorld.current === first && first !== outside)
            #expect(await Task { SimulatedWorld.current }.value === first, "a task started inside inherits the world")
            for _ in 0..<3 { _ = await q2Status("nope") }
            #expect(await q2Status("wonderland") == 423, "alice is locked out in this world")
            try await SimulatedWorld.withWorld { second in
                #expect(SimulatedWorld.current === second && second !== first)
                #expect(await q2Status("wonderland") == 200, "not in another")
            }
            #expect(SimulatedWorld.current === first)
            #expect(await q2Status("wonderland") == 423)
            #expect(await Task.detached { SimulatedWorld.current }.value !== first, "a detached task has the process's world")
        }
        #expect(SimulatedWorld.current !== firstWorld.withLock { $0 }, "outside, the process's world again")
    }

    /// The factory keeps a device for each world, so two tests side by side do not take each other's.
    @Test func eachWorldHasItsOwnMasterController() async throws {
        final class Consumer: KSAsyncEventReceiver, Sendable {
            func receive(_ event: any KsEvent, withCompletionHandler completionBlock: (((any KsEvent)?) -> Void)?) {}
        }
        let consumer = Consumer()
        try await SimulatedWorld.withWorld { _ in
            let first = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer))
            try await SimulatedWorld.withWorld { _ in
                let second = try #require(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer))
                #expect(second !== first)
            }
            #expect(KSMasterControllerFactory.getMasterController(withParmeter: "", andConsumer: consumer) === first)
        }
    }

    @Test func aWorldFromAFileThatIsWrongIsAnErrorAndBodyDoesNotRun() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("world-per-task-\(UUID().uuidString).json").path
        try Data("{\"name\": 3}".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ran = Locked(false)
        await #expect(throws: SimulatedWorldError.self) {
            try await SimulatedWorld.withWorld(scenarioFile: path) { _ in ran.withLock { $0 = true } }
        }
        #expect(!ran.withLock { $0 })
    }
}

/// The Drops view's person at the page, as a library user scripts them.
@Suite struct ScriptedPaymentTests {
    @MainActor final class Calls: SafepayPayerAuthenticationDelegate {
        var names: [String] = []
        var failure: PayerAuthenticationErrorData?
        func onPayerAuthenticationSuccess(data: PayerAuthenticationSuccessData) { names.append("success") }
        func onPayerAuthenticationFailure(data: PayerAuthenticationErrorData) {
            names.append("failure")
            failure = data
        }
        func onPayerAuthenticationRequired(data: PayerAuthenticationData) { names.append("required") }
        func onPayerAuthenticationFrictionless(data: PayerAuthenticationData) { names.append("frictionless") }
        func onPayerAuthenticationUnavailable(data: PayerAuthenticationData) { names.append("unavailable") }
        func onSafepayError(error: SafepayErrorData) { names.append("error") }
    }

    static let configuration = SafepayPayerAuthenticationConfiguration(
        environment: .sandbox, authToken: "token-abc", tracker: "trk_42", deviceDataCollectionJWT: "eyJhbGciOi.x.y",
        deviceDataCollectionURL: "https://centinelapistag.cardinalcommerce.com/V1/Cruise/Collect",
        billing: BillingAddress(street1: "1 Main St", city: "Springfield", country: "US"),
        authorizationOptions: AuthorizationOptions(doCapture: true, doCardOnFile: false))

    /// Configures `view` and waits (30 s of real time at most) until the payment has a final callback.
    @MainActor private func pay(_ view: SafepayPayerAuthenticationView, _ calls: Calls) async throws -> [String] {
        view.configure(Self.configuration)
        let deadline = ContinuousClock.now + .seconds(30)
        while !calls.names.contains(where: { $0 != "required" }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        return calls.names
    }

    /// The cardholder is read at `configure`: one set after the view was made applies to its next payment (it was
    /// read when the view was made, so a test meant to run a challenge passed as frictionless).
    @Test @MainActor func aCardholderSetAfterTheViewWasMadeTypesTheNextPayment() async throws {
        try await SimulatedWorld.withWorld { world in
            let view = SafepayPayerAuthenticationView()
            let calls = Calls()
            view.delegate = calls
            world.cardholder = try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCode: "1234")
            #expect(try await pay(view, calls) == ["required", "success"])
            calls.names = []
            world.cardholder = try ScriptedCardholder(cardNumber: "4000000000002925")
            let names = try await pay(view, calls)
            #expect(names == ["unavailable"], "the same view, configured again, with the new card (failed frictionless)")
        }
    }

    /// A choice of `Int.min` trapped on the page's queue (`choice - 1` overflowed) and took the process down; it is
    /// an option out of range, which the issuer refuses as any other.
    @Test @MainActor func anOutOfRangeChoiceIsRefusedNotACrash() async throws {
        try await SimulatedWorld.withWorld { world in
            let view = SafepayPayerAuthenticationView()
            let calls = Calls()
            view.delegate = calls
            world.cardholder = try ScriptedCardholder(cardNumber: "4000009900000012", choices: [Int.min])
            #expect(try await pay(view, calls) == ["required", "failure"])
            #expect(calls.failure?.threeDSecure?.transStatus == "N")
        }
    }

    /// With no card of Cardinal's in the scenario, the default cardholder types the scenario's own frictionless
    /// card (it typed 4000 0000 0000 2701 whatever the scenario, which the issuer then did not know).
    @Test @MainActor func theDefaultCardholderTypesTheScenariosFrictionlessCard() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("own-cards-\(UUID().uuidString).json").path
        let scenario = """
            {"scenario": 1, "name": "own cards", "app": {"tenant": "demo"},
             "identityProvider": {"tenants": [{"id": "demo", "users": [{"username": "alice", "password": "wonderland"}]}]},
             "payments": {"includeDefaultCards": false, "challenge": {"oneTimeCode": "5555"},
                          "cards": [{"number": "4111111111111111", "title": "Ours", "frictionless": "Y"}]}}
            """
        try Data(scenario.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await SimulatedWorld.withWorld(scenarioFile: path) { world in
            #expect(world.cardholder.cardNumber == "4111111111111111")
            let view = SafepayPayerAuthenticationView()
            let calls = Calls()
            view.delegate = calls
            let names = try await pay(view, calls)
            #expect(names == ["frictionless"])
        }
        #expect(SimulatedWorld.current.cardholder.cardNumber == "4000000000002701", "the demo's is Cardinal's")
    }

    /// `oneTimeCodes` are typed in turn, one per code screen: a wrong code, then the right one, succeeds (one code
    /// was typed on every screen, so no script could try a wrong one first); the last is typed again after.
    @Test @MainActor func aCardholderTypesItsCodesInTurn() async throws {
        try await SimulatedWorld.withWorld { world in
            let view = SafepayPayerAuthenticationView()
            let calls = Calls()
            view.delegate = calls
            world.cardholder = try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCodes: ["9999", "1234"])
            #expect(try await pay(view, calls) == ["required", "success"])
            calls.names = []
            // The same cardholder twice: each payment starts at the first code (9999 on, it would fail the second).
            world.cardholder = try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCodes: ["1234", "9999"])
            #expect(try await pay(view, calls) == ["required", "success"])
            calls.names = []
            #expect(try await pay(view, calls) == ["required", "success"], "a new payment starts at the first code")
            calls.names = []
            world.cardholder = try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCodes: ["9999"])
            #expect(try await pay(view, calls) == ["required", "failure"])
        }
        #expect(throws: ScriptedCardholder.InvalidOneTimeCode.self) { try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCodes: []) }
        let error = #expect(throws: ScriptedCardholder.InvalidOneTimeCode.self) {
            try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCodes: ["1234", "12\u{7}4"])
        }
        #expect(error?.description.hasPrefix("oneTimeCodes[1] ") == true, "\(String(describing: error))")
    }

    /// A cardholder given no code types the scenario's own, of the world the payment runs in, whenever it was made
    /// (it typed 1234, and failed every challenge of a scenario whose code is 5555).
    @Test @MainActor func aCardholderWithNoCodeTypesTheScenarios() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("own-code-\(UUID().uuidString).json").path
        let scenario = """
            {"scenario": 1, "name": "own code", "app": {"tenant": "demo"},
             "identityProvider": {"tenants": [{"id": "demo", "users": [{"username": "alice", "password": "wonderland"}]}]},
             "payments": {"challenge": {"oneTimeCode": "5555"}}}
            """
        try Data(scenario.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Made outside the world it pays in.
        let cardholder = try ScriptedCardholder(cardNumber: "4000000000002503")
        try await SimulatedWorld.withWorld(scenarioFile: path) { world throws in
            let view = SafepayPayerAuthenticationView()
            let calls = Calls()
            view.delegate = calls
            world.cardholder = cardholder
            #expect(try await pay(view, calls) == ["required", "success"])
        }
    }
}
