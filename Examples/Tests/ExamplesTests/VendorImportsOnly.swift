// Compiled with Swift's MemberImportVisibility (Package.swift): a file sees only the members of the modules it
// imports itself. An app imports the vendors' modules and nothing of idp-tui's: what their public API hands it must
// be usable through them alone.
import IdpSdk
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
}
