import ExampleSupport
import IdpTuiWorld
import KobilMigration
import Q2CustomAuth
import SafepayPayment
import Testing

import struct Foundation.URL

/// Each document's code, run against a fresh demo world, does what the document says. One at a time: they
/// share the current world and what the examples print.
@Suite(.serialized) struct ExamplesTests {
    init() throws {
        try SimulatedWorld.use()
        ExampleOutput.clear()
    }

    @Test func theIdpHandlerActivatesOverTwoFormPagesLogsInAndCancelsWithUserCancelled() async {
        await KobilExample.idpSdk()
        let lines = ExampleOutput.all
        #expect(lines.first == "StartEvent: OK, sdkState ACTIVATION_REQUIRED")
        let activation = section(lines, from: "activation:", to: "login:")
        #expect(activation == [
            "provideCredentials: username, password", "provideCredentials: activation-code", "success: logged in as alice", "StatusType.OK",
        ])
        #expect(section(lines, from: "login:", to: "login, cancelled:") == [
            "provideCredentials: username, password", "success: logged in as alice", "StatusType.OK",
        ])
        #expect(lines.last == "IdpSdkResult: hasError true, IdpSdkError(1000/1): User cancelled")
        #expect(!lines.joined().contains("wonderland") && !lines.joined().contains("123456"))
    }

    @Test func theKssidpCodeActivatesAndLogsInOnATenantThatExpectsHashedPins() throws {
        try KobilExample.kssidp(scenarioFile: scenario("bank-qa"))
        #expect(ExampleOutput.all == ["KSSIDP login:", "KSSIDP: logged in as erin"])
    }

    @Test func theReadmesViewGetsOnPayerAuthenticationFrictionlessForAFrictionlessCard() async throws {
        let payment = await SafepayExample.pay()
        let line = try #require(await ExampleOutput.line(startingWith: "frictionless: "))
        #expect(line.contains("tracker: \"track_xxx\"") && line.contains("transStatus: \"Y\""))
        withExtendedLifetime(payment) {}
    }

    @Test func aChallengeCardGetsRequiredThenSuccessWithTheOneTimeCode() async throws {
        let payment = try await SafepayExample.payWithChallenge()
        let success = try #require(await ExampleOutput.line(startingWith: "success: "))
        // The README's configuration keeps no card on file (`doCardOnFile: false`): no payment method, as Safepay's
        // success payload has it (`"payment_method": null`); the authorization is there.
        #expect(success.contains("paymentMethod: nil") && success.contains("authorization: Optional(\"auth_"), "\(success)")
        let lines = ExampleOutput.all
        #expect(lines.count == 2 && lines[0].hasPrefix("required: "), "\(lines)")
        #expect(!lines.joined().contains("1234"))
        withExtendedLifetime(payment) {}
    }

    @Test func aDestroyedControllerCallsNothingBack() async throws {
        let destroyed = await SafepayExample.payAndDestroy()
        // A second payment on the same world runs through; the destroyed one has said nothing by then.
        let payment = await SafepayExample.pay()
        _ = try #require(await ExampleOutput.line(startingWith: "frictionless: "))
        await MainActor.run {}
        #expect(ExampleOutput.all.count == 1, "\(ExampleOutput.all)")
        withExtendedLifetime((destroyed, payment)) {}
    }

    @Test func theQuickStartsModuleSignsInAndAWrongPasswordIsInvalidCredentials() async throws {
        #expect(try await Q2Example.signIn(username: "alice", password: "wonderland") == "alice")
        #expect(ExampleOutput.all == ["signed in: AuthenticationModuleResponse(username: alice, authenticationMethod: password, q2token: <redacted>)"])
        ExampleOutput.clear()
        #expect(try await Q2Example.signIn(username: "alice", password: "not-the-password") == nil)
        let failure = try #require(ExampleOutput.all.first)
        #expect(failure.hasPrefix("MobileCoreLoginFailure.invalidCredentials: "))
        #expect(!failure.contains("not-the-password"))
    }

    private func section(_ lines: [String], from start: String, to end: String) -> [String] {
        guard let first = lines.firstIndex(of: start), let last = lines.firstIndex(of: end), first < last else { return [] }
        return Array(lines[(first + 1)..<last])
    }

    private func scenario(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../docs/scenarios/\(name).json")
            .standardized.path
    }
}
