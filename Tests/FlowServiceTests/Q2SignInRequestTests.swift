import FlowEngine
import Q2Flows
import Testing

/// The Q2 sign-in screen's request: what it takes as the app's answer.
@Suite struct Q2SignInRequestTests {
    /// "Not you?" (another account, forget the credential) is an answer only where a credential is saved; the
    /// screen asked again after it has none, and an empty form.
    @Test func theChoiceAboutASavedCredentialNeedsOne() {
        let saved = Q2SignIn(banner: nil, savedUsername: "alice", launch: .normal)
        #expect(saved.accepts(.q2AnotherAccount) && saved.accepts(.q2ForgetSavedCredential) && saved.accepts(.q2AutoLogin))
        let again = Q2SignIn(banner: nil, savedUsername: nil, launch: .normal, setAside: Q2SetAside(.anotherAccount, username: "alice"))
        #expect(!again.accepts(.q2AnotherAccount) && !again.accepts(.q2ForgetSavedCredential))
        #expect(again.accepts(.credentials([:])))
        #expect(again.knownUsername == nil, "the form asked again starts empty")
    }
}
