import Crypto
import Foundation
import IdentityProvider
import IdpSdk
import KSMasterController
import Secrets
import Testing

@Suite struct IdpSdkServiceTests {
    let activation = ["username": "alice", "password": "wonderland", "activation-code": "123456"]

    @Test func provideCredentialsRunsOffTheMainThreadOncePerFormPage() async throws {
        let harness = SDKHarness()
        let interaction = ScriptedInteraction.answering(activation)
        let result = await harness.authorizationCode(
            harness.service(), await harness.astClientData(), clientId: KSMClientId.enrollment, interaction)
        #expect(!result.hasError())
        #expect(result.authorizationCode != nil)
        let calls = interaction.calls
        #expect(calls.map(\.data.inputFieldIds) == [[IdpSdkConstants.USERNAME, IdpSdkConstants.PASSWORD], ["activation-code"]])
        #expect(calls.map(\.data.page) == [1, 2])
        #expect(calls.allSatisfy { !$0.onMainThread && $0.queue == "IdpSdk" })
    }

    @Test func theFieldIdsAreTheKeysTheValuesGoUnder() {
        #expect([IdpSdkConstants.USERNAME, IdpSdkConstants.PASSWORD, IdpSdkConstants.ACTIVATION_CODE, IdpSdkConstants.NEW_PASSWORD,
                  IdpSdkConstants.CURRENT_PASSWORD] == ["username", "password", "activation-code", "new-password", "current-password"])
        #expect(IdpSdkInputFieldId.allCases.filter { !$0.isSecret } == [.username])
    }

    /// The Android migration guide's handler: each value keyed by the field id it is given, as the iOS guide's
    /// literal keys are. Both activate.
    @Test func valuesKeyedByTheFieldIdsTheSdkGaveAreTaken() async throws {
        let harness = SDKHarness()
        let values = [IdpSdkConstants.USERNAME: "alice", IdpSdkConstants.PASSWORD: "wonderland", IdpSdkConstants.ACTIVATION_CODE: "123456"]
        let result = await harness.authorizationCode(
            harness.service(), await harness.astClientData(), clientId: KSMClientId.enrollment,
            ScriptedInteraction { data in
                var credentials: [String: String] = [:]
                for fieldId in data.inputFieldIds { credentials[fieldId] = values[fieldId] }
                return IdpSdkProvideCredentialsResult(credentials: credentials)
            })
        #expect(!result.hasError(), "\(String(describing: result.idpSdkError))")
        #expect(result.authorizationCode != nil)
    }

    @Test func returningAnErrorCancelsWithThatSameError() async throws {
        let harness = SDKHarness()
        let cancel = IdpSdkError(subsystem: 42, errorCode: 7, errorDescription: "User cancelled")
        let result = await harness.authorizationCode(
            harness.service(), await harness.astClientData(), clientId: KSMClientId.enrollment,
            ScriptedInteraction { _ in IdpSdkProvideCredentialsResult(error: cancel) })
        #expect(result.idpSdkError == cancel)
        #expect(result.authorizationCode == nil)
        #expect(harness.idp.openSessionCount == 0)
    }

    @Test func aMissingOrOversizedAnswerIsAnSdkError() async throws {
        let harness = SDKHarness()
        let missing = await harness.authorizationCode(
            harness.service(), await harness.astClientData(), clientId: KSMClientId.enrollment,
            .answering(["username": "alice"]))
        #expect(missing.idpSdkError == IdpSdkError(subsystem: 510, errorCode: 3, errorDescription: "provideCredentials returned no value for \"password\""))
        let elsewhere = await harness.authorizationCode(
            harness.service(), await harness.astClientData(), clientId: KSMClientId.enrollment,
            ScriptedInteraction { _ in IdpSdkProvideCredentialsResult(credentials: ["alice": "secret-pw"]) })
        #expect(elsewhere.idpSdkError?.errorDescription == "provideCredentials returned no value for \"username\"")
        let long = await harness.authorizationCode(
            harness.service(), await harness.astClientData(), clientId: KSMClientId.enrollment,
            .answering(["username": "alice", "password": String(repeating: "p", count: 257)]))
        #expect(long.idpSdkError?.errorCode == 4)
        #expect(long.idpSdkError?.errorDescription.contains("ppp") == false)
    }

    @Test func aPinnedChainThatIsNotTheIdpsFailsWithAPinningError() async throws {
        let harness = SDKHarness()
        let interaction = ScriptedInteraction.answering(activation)
        let result = await harness.authorizationCode(
            harness.service(chain: IdentityProviderCertificates.impostorPEM), await harness.astClientData(),
            clientId: KSMClientId.enrollment, interaction)
        #expect(result.idpSdkError?.subsystem == 511)
        #expect(result.idpSdkError?.errorCode == 2)
        #expect(result.idpSdkError?.errorDescription.hasPrefix("certificate pinning failed") == true)
        #expect(interaction.calls.isEmpty, "no credentials may be asked for over an untrusted connection")
    }

    /// The chain as DER bytes (an Android app's `.cer` asset) pins as the PEM text does; it was refused (510/2).
    @Test func aDERChainPinsAsThePEMOneDoes() async throws {
        let harness = SDKHarness()
        let der = Data(try CertificateChain(pem: IdentityProviderCertificates.genuinePEM).certificates.flatMap(\.der))
        let result = await harness.authorizationCode(
            harness.service(chainBytes: der), await harness.astClientData(), clientId: KSMClientId.enrollment, .answering(activation))
        #expect(result.authorizationCode != nil, "\(String(describing: result.idpSdkError))")
        let impostor = Data(try CertificateChain(pem: IdentityProviderCertificates.impostorPEM).certificates.flatMap(\.der))
        let refused = await harness.authorizationCode(
            harness.service(chainBytes: impostor), await harness.astClientData(), clientId: KSMClientId.enrollment, .answering(activation))
        #expect(refused.idpSdkError?.subsystem == 511 && refused.idpSdkError?.errorCode == 2)
    }

    @Test func anIdpPresentingAnotherChainFailsPinning() async throws {
        let harness = SDKHarness()
        harness.idp.presentImpostorChain(true)
        let result = await harness.authorizationCode(
            harness.service(), await harness.astClientData(), clientId: KSMClientId.enrollment, .answering(activation))
        #expect(result.idpSdkError?.errorCode == 2)
    }

    @Test func anUnparsableChainAndAnUnknownURLAreClearErrors() async throws {
        let harness = SDKHarness()
        let bad = await harness.authorizationCode(
            harness.service(chain: "not a certificate"), await harness.astClientData(), clientId: KSMClientId.login,
            .answering([:]))
        #expect(bad.idpSdkError?.subsystem == 510)
        #expect(bad.idpSdkError?.errorCode == 2)
        let nowhere = await harness.authorizationCode(
            harness.service(url: "https://nowhere.test"), await harness.astClientData(), clientId: KSMClientId.login,
            .answering([:]))
        #expect(nowhere.idpSdkError == IdpSdkError(subsystem: 511, errorCode: 1, errorDescription: "no identity provider answers at https://nowhere.test"))
    }

    /// The IdP's URL as an app's configuration may spell it, with a trailing slash or the host in capitals, reaches
    /// the IdP (it was "no identity provider answers", 511/1, as if the network were down); another path does not.
    @Test func theIdpURLIsMatchedAsAServerWould() async throws {
        let harness = SDKHarness()
        let base = harness.idp.baseURL
        let path = try #require(base.dropFirst("https://".count).firstIndex(of: "/"))
        let shouted = base[..<path].uppercased() + base[path...]
        #expect(shouted == "HTTPS://IDP.DEMO.IDP-TUI.TEST/auth")
        for url in [base + "/", shouted] {
            let result = await harness.authorizationCode(harness.service(url: url), await harness.astClientData(), clientId: KSMClientId.login, .answering([:]))
            #expect(result.idpSdkError?.subsystem == 513, "\(url): \(String(describing: result.idpSdkError))")
        }
        let elsewhere = await harness.authorizationCode(
            harness.service(url: harness.idp.baseURL + "/other"), await harness.astClientData(), clientId: KSMClientId.login, .answering([:]))
        #expect(elsewhere.idpSdkError?.subsystem == 511)
    }

    /// On a tenant whose form asks for the username first, a login calls `provideCredentials` twice, a field each,
    /// on the IdpSdk's queue (REFERENCE.md §1: "may be called several times in one run (e.g. username first, then
    /// password)"); an app that answers only the fields asked logs in.
    @Test func aUsernameFirstLoginAsksTwice() async throws {
        var configuration = IdentityProviderConfiguration.demo()
        configuration.tenants[0].usernameFirst = true
        let harness = SDKHarness(configuration)
        let (activated, _) = await harness.signIn(clientId: KSMClientId.enrollment, activation)
        #expect(!activated.hasError())
        _ = await harness.controller.receive(KSMRestartEvent())
        let interaction = ScriptedInteraction.answering(["username": "alice", "password": "wonderland"])
        let login = await harness.authorizationCode(harness.service(), await harness.astClientData(), clientId: KSMClientId.login, interaction)
        #expect(login.authorizationCode != nil, "\(String(describing: login.idpSdkError))")
        #expect(interaction.calls.map(\.data.inputFieldIds) == [["username"], ["password"]])
        #expect(interaction.calls.allSatisfy { !$0.onMainThread && $0.queue == "IdpSdk" })
    }

    /// With `shouldHashPin` on a tenant that expects hashed PINs and asks for the username first, the password's page
    /// is hashed with the name given on the page before: it went as typed, and the right PIN was refused (and counted)
    /// every time.
    @Test func aPasswordOnAPageOfItsOwnIsHashedWithTheNameBefore() async throws {
        let configuration = IdentityProviderConfiguration(tenants: [TenantConfiguration(
            id: "demo",
            users: [UserConfiguration(username: "alice", password: Secret("2468"), activationCode: ActivationCodeConfiguration(code: Secret("123456")))],
            expectsHashedPins: true, usernameFirst: true)])
        let harness = SDKHarness(configuration)
        let (activated, _) = await harness.signIn(
            clientId: KSMClientId.enrollment, ["username": "alice", "password": "2468", "activation-code": "123456"],
            service: harness.service(hashPin: true))
        #expect(!activated.hasError(), "\(String(describing: activated.idpSdkError))")
    }

    /// The vendor's change- and forgot-password clients are named, so code written against the documents compiles,
    /// and the IdP says they are not simulated rather than not registered.
    @Test func thePasswordClientsAreNamedAndSaidToBeNotSimulated() async throws {
        let harness = SDKHarness()
        for client in [KSMClientId.changePassword, KSMClientId.forgotPassword] {
            let result = await harness.authorizationCode(harness.service(), await harness.astClientData(), clientId: client, .answering([:]))
            #expect(result.idpSdkError?.subsystem == 513 && result.idpSdkError?.errorCode == 4005)
            #expect(result.idpSdkError?.errorDescription.contains("\"\(client)\" is the vendor's, but its flow is not simulated") == true,
                    "\(String(describing: result.idpSdkError))")
        }
    }

    @Test func idpErrorPagesArriveAsSubsystem513() async throws {
        let harness = SDKHarness()
        let result = await harness.authorizationCode(
            harness.service(), await harness.astClientData(), clientId: KSMClientId.login, .answering([:]))
        #expect(result.idpSdkError == IdpSdkError(subsystem: 513, errorCode: 4041, errorDescription: IdpFailure.notActivated.message))
    }

    @Test func shouldHashPinWorksAgainstATenantThatExpectsIt() async throws {
        let configuration = IdentityProviderConfiguration(tenants: [TenantConfiguration(
            id: "demo",
            users: [UserConfiguration(username: "alice", password: Secret("wonderland"),
                                      activationCode: ActivationCodeConfiguration(code: Secret("123456")))],
            expectsHashedPins: true)])
        let hashing = SDKHarness(configuration)
        let (ok, _) = await hashing.signIn(clientId: KSMClientId.enrollment, activation, service: hashing.service(hashPin: true))
        #expect(!ok.hasError())

        let plain = SDKHarness(configuration)
        let (refused, _) = await plain.signIn(clientId: KSMClientId.enrollment, activation, service: plain.service(hashPin: false))
        #expect(refused.idpSdkError?.errorCode == 4011)
    }

    @Test func resultsNeverPrintTheCode() async throws {
        let harness = SDKHarness()
        let result = await harness.authorizationCode(
            harness.service(), await harness.astClientData(), clientId: KSMClientId.enrollment, .answering(activation))
        let code = try #require(result.authorizationCode)
        #expect(!"\(result)".contains(code))
    }
}
