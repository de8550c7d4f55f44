import Foundation
import IdentityProvider
import IdpSdk
import IdpTuiWorld
import KSMasterController
import Q2ModuleInterfaces
import Testing
import ThreeDSecure

/// An app shows `error.localizedDescription` in an alert. Each error the SDKs hand out says what happened there, as
/// its `description` does; each said Foundation's "The operation could not be completed. (IdpSdk.IdpSdkError
/// error 1.)" but `MobileCoreLoginFailure`.
@Suite struct ErrorDescriptionTests {
    /// What an app's alert shows: the error as `any Error`, as a `catch` hands it over.
    private func alert(_ error: any Error) -> String { error.localizedDescription }

    @Test func anIdpSdkErrorSaysItsDescription() async {
        // The guide's cancel, as the app returns it and the IdpSdk hands it back.
        #expect(alert(IdpSdkError(1000, 1, "User cancelled")) == "User cancelled")
        // A wrong password, as the IdP answers it: the message, never the password.
        let harness = SDKHarness()
        let (result, _) = await harness.signIn(
            clientId: KSMClientId.enrollment, ["username": "alice", "password": "not-wonderland", "activation-code": "123456"])
        let error = result.idpSdkError
        #expect(error?.subsystem == 513 && error?.errorCode == 4011)
        let shown = error.map(alert) ?? ""
        #expect(shown == "wrong username or password (2 attempts left before the account locks)", "\(shown)")
        #expect(!shown.contains("not-wonderland"))
        // As an NSError, its code is the IdpSdkError's.
        #expect(error.map { ($0 as NSError).code } == 4011)
    }

    @Test func theWorldsErrorsSayTheirProblems() async throws {
        try await SimulatedWorld.withWorld { world in
            do {
                try world.setFaults(#"{"addedLatencyMs": -5}"#)
                Issue.record("a negative latency was taken")
            } catch {
                #expect(alert(error) == "setFaults: line 1, column 20: $.addedLatencyMs: must be from 0 to 60000", "\(alert(error))")
            }
        }
        do {
            _ = try SimulatedWorld.use(scenarioFile: "/nonexistent/scenario.json")
            Issue.record("a missing scenario file was used")
        } catch {
            #expect(alert(error) == error.description && alert(error).hasPrefix("/nonexistent/scenario.json: "), "\(alert(error))")
        }
    }

    @Test func theCardholdersErrorsSayTheProblemWithoutTheSecret() {
        do {
            _ = try ScriptedCardholder(cardNumber: "4000000000002504")
            Issue.record("a number failing the Luhn check was taken")
        } catch {
            #expect(alert(error) == "the card number fails the Luhn check; check for a mistyped digit", "\(alert(error))")
        }
        #expect(alert(CardNumber.Problem.wrongLength(brand: .visa, expected: [16])) == "a Visa card number has 16 digits")
        do {
            _ = try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCode: "98\u{7}76")
            Issue.record("a code with a control character was taken")
        } catch {
            #expect(alert(error).hasPrefix("oneTimeCode "), "\(alert(error))")
            #expect(!alert(error).contains("98") && !alert(error).contains("76"))
        }
    }

    /// Q2's failure already said its message; the errors it carries (Core's, the network's) say theirs too.
    @Test func theErrorsQ2sFailureCarriesSayTheirMessages() async throws {
        try await SimulatedWorld.withWorld { world in
            var carried: [String] = []
            for faults in [#"{"networkUnavailable": true}"#, #"{"serverError": true, "networkUnavailable": false}"#] {
                try world.setFaults(faults)
                do {
                    _ = try await SimulatedQ2Platform().context.passwordAuthentication
                        .authenticate(using: PasswordCredential(username: "bob", password: "builder"))
                    Issue.record("\(faults): signed in")
                } catch let failure as MobileCoreLoginFailure {
                    switch failure {
                    case .networkUnavailable(let error?), .genericError(let error?, _, _):
                        #expect(alert(error) == "\(error)")
                        #expect(alert(failure) == alert(error))
                        carried.append(alert(error))
                    default: Issue.record("\(faults): \(failure)")
                    }
                }
            }
            #expect(carried.count == 2)
            #expect(carried.first == NetworkError.offline.description)
            #expect(!carried.contains { $0.contains("could not be completed") || $0.contains("builder") }, "\(carried)")
        }
    }
}
