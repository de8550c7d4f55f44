// Compiled with Swift's MemberImportVisibility (Package.swift): a file sees only the members of the modules it
// imports itself. An app imports the vendors' modules and nothing of idp-tui's: what their public API hands it must
// be usable through them alone.
import IdpSdk
import IdpTuiWorld
import Q2ModuleInterfaces
import Testing

@Suite struct VendorImportsOnlyTests {
    /// An app's test reads what its handler answered: the answer's secrets through IdpSdk (`Secret` is idp-tui's).
    @Test func anInteractionsAnswerIsReadThroughIdpSdkAlone() {
        let answer = IdpSdkProvideCredentialsResult(credentials: ["username": "alice", "password": "wonderland"])
        #expect(answer.credentials["password"]?.reveal() == "wonderland")
        #expect(!"\(answer)".contains("wonderland"))
    }

    /// `userDataJSON`'s values are matched by their cases through Q2ModuleInterfaces (`JSONValue` is idp-tui's).
    @Test func userDataJSONIsMatchedThroughQ2ModuleInterfacesAlone() {
        let userData: [String: JSONValue] = ["name": .string("Alice"), "accounts": .array([.number(2)])]
        guard case .string(let name)? = userData["name"] else {
            Issue.record("no name")
            return
        }
        #expect(name == "Alice")
    }

    /// What `ScriptedCardholder` throws is caught by its type through IdpTuiWorld (`CardNumber` is idp-tui's, and
    /// needed `import ThreeDSecure` until session 51).
    @Test func aCardholdersProblemIsCaughtThroughIdpTuiWorldAlone() {
        do {
            _ = try ScriptedCardholder(cardNumber: "4000000000002504")
            Issue.record("a number failing the Luhn check was taken")
        } catch let problem as CardNumber.Problem {
            #expect(problem == .failsLuhnCheck)
        } catch {
            Issue.record("\(error)")
        }
    }

    /// What Q2's `.networkUnavailable` carries is matched by its type through Q2ModuleInterfaces (`NetworkError` is
    /// idp-tui's, and needed `import IdentityProvider` until session 51).
    @Test func whatANetworkFailureCarriesIsMatchedThroughQ2ModuleInterfacesAlone() async throws {
        try await SimulatedWorld.withWorld { world in
            try world.setFaults(#"{"networkUnavailable": true}"#)
            do {
                _ = try await SimulatedQ2Platform().context.passwordAuthentication
                    .authenticate(using: PasswordCredential(username: "alice", password: "wonderland"))
                Issue.record("signed in offline")
            } catch MobileCoreLoginFailure.networkUnavailable(let error as NetworkError) {
                #expect(error == .offline)
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
