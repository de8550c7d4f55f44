import Foundation
import IdpSdk
import IdpTuiWorld
import KSMasterController
import Q2ModuleInterfaces
import SafepayDropsSDK
import Testing

/// Every printing path of a value: what a log line, a crash report or a debugger would show.
func printedForms(of value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    var printed = ""
    print(value, to: &printed)
    var debugPrinted = ""
    debugPrint(value, to: &debugPrinted)
    return [
        "\(value)", String(describing: value), String(reflecting: value), dumped, printed, debugPrinted, "\([value])",
        "\(Optional(value) as Any)", Mirror(reflecting: value).children.map { "\($0.label ?? ""): \($0.value)" }.joined(separator: ", "),
    ]
}

/// The public types that carry a credential keep the vendors' `String`s and still never print them, and none of
/// them can be encoded.
@Suite struct CredentialRedactionTests {
    @Test func provideCredentialsResultRedactsEveryValue() {
        let result = IdpSdkProvideCredentialsResult(credentials: [
            "username": "alice", "password": "hunter2-wonderland", "activation-code": "918273",
        ])
        for text in printedForms(of: result) {
            #expect(!text.contains("hunter2") && !text.contains("918273"), "\(text)")
        }
        #expect("\(result)".contains("password: <redacted>"))
        #expect(!((result as Any) is any Encodable))
    }

    /// The merchant's auth token and device-data JWT (also where it rides in the collection URL's query) never print;
    /// they did in full.
    @Test func aDropsConfigurationsTokenAndJWTNeverPrint() {
        let configuration = SafepayPayerAuthenticationConfiguration(
            environment: .sandbox, authToken: "tok-5ecret-merchant", tracker: "trk_42", deviceDataCollectionJWT: "eyJ5ecret.jwt.sig",
            deviceDataCollectionURL: "https://collect.example/V1/Collect?jwt=eyJ5ecret.jwt.sig#frag",
            billing: nil, authorizationOptions: AuthorizationOptions(doCapture: true, doCardOnFile: false))
        for text in printedForms(of: configuration) { #expect(!text.contains("5ecret"), "\(text)") }
        #expect("\(configuration)".contains("trk_42") && "\(configuration)".contains("https://collect.example/V1/Collect?<redacted>"))
        #expect(configuration.authToken == "tok-5ecret-merchant", "the vendor's String, unchanged")
    }

    /// A JWT or a long token in the collection URL's path is redacted too (only the query was).
    @Test func aTokenInTheCollectionURLsPathNeverPrints() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI1ZWNyZXQifQ.c2lnbmF0dXJl"
        let opaque = "a5ecretOpaqueToken0123456789abcdefXYZ"
        for (url, shown) in [("https://collect.example/V1/\(jwt)/Collect", "https://collect.example/V1/<redacted>/Collect"),
                             ("https://collect.example/V1/Collect/\(opaque)", "https://collect.example/V1/Collect/<redacted>"),
                             ("https://collect.example/V1/Collect", "https://collect.example/V1/Collect")] {
            let configuration = SafepayPayerAuthenticationConfiguration(
                environment: .sandbox, authToken: "tok", tracker: "trk_42", deviceDataCollectionJWT: jwt,
                // No billing: it may be left out, as it is optional (it had to be passed as nil).
                deviceDataCollectionURL: url, authorizationOptions: AuthorizationOptions(doCapture: true, doCardOnFile: false))
            for text in printedForms(of: configuration) {
                #expect(!text.contains("eyJzdWIi") && !text.contains("a5ecretOpaque"), "\(text)")
            }
            #expect("\(configuration)".contains(shown), "\(configuration)")
        }
    }

    @Test func passwordCredentialRedactsThePassword() {
        let credential = PasswordCredential(username: "alice", password: "hunter2-wonderland")
        for text in printedForms(of: credential) { #expect(!text.contains("hunter2"), "\(text)") }
        #expect(credential.password == "hunter2-wonderland", "the vendor's String, unchanged")
        #expect(!((credential as Any) is any Encodable) && !((credential as Any) is any Decodable))
    }

    @Test func theSessionTokenNeverPrints() {
        let token = "q2t-5ecret-token"
        let result = PasswordAuthenticationResult(statusCode: 200, q2token: token, userDataJSON: ["firstName": .string("Alice")],
                                                  username: "alice", authenticationMethod: .password)
        for value in [result as Any, result.asAuthenticationModuleResponse() as Any] {
            for text in printedForms(of: value) { #expect(!text.contains("5ecret"), "\(text)") }
            #expect(!(value is any Encodable))
        }
        #expect("\(result)".contains("q2token: <redacted>"))
        // Without a token, `dump` says nil, not the text "nil".
        let refused = PasswordAuthenticationResult(statusCode: 401, q2token: nil, userDataJSON: nil, username: "alice", authenticationMethod: .password)
        for value in [refused as Any, refused.asAuthenticationModuleResponse() as Any] {
            var dumped = ""
            dump(value, to: &dumped)
            #expect(dumped.contains("- q2token: nil\n"), "\(dumped)")
        }
    }

    @Test func aScriptedCardholdersCodeAndCardNumberNeverPrint() throws {
        let cardholder = try ScriptedCardholder(cardNumber: "4000000000002503", oneTimeCode: "864209")
        for text in printedForms(of: cardholder) {
            #expect(!text.contains("864209") && !text.contains("4000000000002503"), "\(text)")
        }
        #expect("\(cardholder)".contains("•••• 2503"))
    }

    @Test func anAuthorizationCodeNeverPrints() {
        let result = IdpSdkResult(authorizationCode: "code-0f-the-idp")
        for text in printedForms(of: result) { #expect(!text.contains("0f-the-idp"), "\(text)") }
        // A failed result has no code: `dump` says nil, not the text "nil" (`- authorizationCode: "nil"`).
        var dumped = ""
        dump(IdpSdkResult(error: IdpSdkError(subsystem: 513, errorCode: 4011, errorDescription: "wrong")), to: &dumped)
        #expect(dumped.contains("- authorizationCode: nil\n"), "\(dumped)")
        dumped = ""
        dump(result, to: &dumped)
        #expect(dumped.contains("- authorizationCode: \"<redacted>\"\n"), "\(dumped)")
        // Nor on its way to the MC-SDK.
        let event = KSMSetAuthorisationCodeEvent(tenantId: "demo", authenticationMode: .no, authorisationCode: "code-0f-the-idp",
                                                 clientId: "KssIdpLogin")
        for text in printedForms(of: event) + [String(describing: event as any KsEvent)] {
            #expect(!text.contains("0f-the-idp"), "\(text)")
            #expect(text.contains("<redacted>") && text.contains("KssIdpLogin"), "\(text)")
        }
    }
}
