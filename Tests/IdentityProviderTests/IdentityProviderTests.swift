import Threading
import Crypto
import Determinism
import IdentityProvider
import Secrets
import Testing

@Suite struct BundledChainTests {
    /// Start-ups load the chains on another thread while they read the scenario: providers made meanwhile, on
    /// several threads, each present the genuine chain and the impostor in their places.
    @Test func providersMadeWhileTheChainsLoadPresentEachInItsPlace() async throws {
        let genuine = try CertificateChain(pem: IdentityProviderCertificates.genuinePEM)
        let impostor = try CertificateChain(pem: IdentityProviderCertificates.impostorPEM)
        IdentityProviderCertificates.prepareInBackground()
        let presented = await withTaskGroup(of: (CertificateChain, CertificateChain).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let idp = IdpHarness().idp
                    return (idp.genuineChain, idp.impostorChain)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(presented.count == 4)
        for (presentedGenuine, presentedImpostor) in presented {
            #expect(presentedGenuine == genuine)
            #expect(presentedImpostor == impostor)
        }
    }
}

@Suite struct LoginFormTests {
    @Test func activationAsksForCredentialsThenTheActivationCode() {
        let harness = IdpHarness()
        let first = harness.authorize(.enrollment)
        #expect(first.fields == [.username, .password])
        let second = harness.submit(first, [.username: "alice", .password: "wonderland"])
        #expect(second.fields == [.activationCode])
        #expect(harness.submit(second, [.activationCode: "123456"]).isRedirect)
    }

    @Test func loginAsksForUsernameAndPasswordOnly() {
        let harness = IdpHarness()
        let ast = harness.activate("alice", "wonderland", "123456")!
        let page = harness.authorize(.login, ast: ast)
        #expect(page.fields == [.username, .password])
        #expect(harness.submit(page, [.username: "alice", .password: "wonderland"]).isRedirect)
    }

    /// A tenant whose form asks for the username first: a page for each, the SDK's `provideCredentials` called once
    /// for each (REFERENCE.md §1: "username first, then password"). A name alone is never judged, so that the first
    /// page does not tell which users exist; the password's page does, and counts a failure as any login does.
    @Test func aUsernameFirstFormAsksForEachOnAPageOfItsOwn() {
        var configuration = IdentityProviderConfiguration.demo()
        configuration.tenants[0].usernameFirst = true
        let harness = IdpHarness(configuration)
        let first = harness.authorize(.enrollment)
        #expect(first.fields == [.username])
        let second = harness.submit(first, [.username: "alice"])
        #expect(second.fields == [.password])
        let third = harness.submit(second, [.password: "wonderland"])
        #expect(third.fields == [.activationCode])
        let redirect = harness.submit(third, [.activationCode: "123456"])
        let ast = try? harness.exchange(redirect, client: .enrollment).get().astClientId
        #expect(ast != nil)
        let login = harness.authorize(.login, ast: ast ?? "")
        #expect(login.fields == [.username])
        #expect(harness.submit(harness.submit(login, [.username: "alice"]), [.password: "wonderland"]).isRedirect)
        let nobody = harness.submit(harness.authorize(.login, ast: ast ?? ""), [.username: "nobody"])
        #expect(nobody.fields == [.password], "an unknown name is not told apart on its own page")
        let wrong = harness.submit(harness.submit(harness.authorize(.login, ast: ast ?? ""), [.username: "alice"]), [.password: "nope"])
        #expect(wrong.failure == .wrongCredentials(attemptsLeft: 2))
    }

    @Test func aMissingOrOversizedFieldIsRejected() {
        let harness = IdpHarness()
        let missing = harness.submit(harness.authorize(.enrollment), [.username: "alice"])
        #expect(missing.failure == .invalidRequest("the form field \"password\" is missing"))
        let long = String(repeating: "x", count: FormField.maximumLength + 1)
        let oversized = harness.submit(harness.authorize(.enrollment), [.username: "alice", .password: long])
        #expect(oversized.failure?.code == 4000)
    }

    @Test func theRequestIsCheckedBeforeAnyFormIsShown() {
        let harness = IdpHarness()
        #expect(harness.authorize(.enrollment, tenant: "nope").failure == .unknownTenant("nope"))
        let unknownClient = harness.idp.authorize(AuthorizationRequest(
            tenantId: "demo", clientId: "KssIdpSomething", clientData: harness.clientData(),
            codeChallenge: IdpHarness.pkce().1, codeChallengeMethod: "S256"))
        #expect(unknownClient.failure == .unknownClient("KssIdpSomething"))
        let plain = harness.idp.authorize(AuthorizationRequest(
            tenantId: "demo", clientId: "KssIdpLogin", clientData: harness.clientData(),
            codeChallenge: IdpHarness.pkce().1, codeChallengeMethod: "plain"))
        #expect(plain.failure?.code == 4000)
        var forged = harness.clientData()
        forged.removeLast()
        let tampered = harness.idp.authorize(AuthorizationRequest(
            tenantId: "demo", clientId: "KssIdpEnrollment", clientData: forged + "A",
            codeChallenge: IdpHarness.pkce().1, codeChallengeMethod: "S256"))
        #expect(tampered.failure == .invalidRequest("clientData is malformed or its seal does not verify"))
    }

    @Test func anAbandonedOrExpiredFormIsGone() {
        let harness = IdpHarness()
        let page = harness.authorize(.enrollment)
        #expect(harness.idp.openSessionCount == 1)
        guard case .form(let form) = page else { Issue.record("no form"); return }
        harness.idp.abandon(sessionID: form.sessionID)
        #expect(harness.idp.openSessionCount == 0)
        let later = harness.authorize(.enrollment)
        harness.clock.advance(by: .seconds(601))
        #expect(harness.submit(later, [.username: "alice", .password: "wonderland"]).failure == .loginSessionExpired)
    }
}

@Suite struct LockoutTests {
    @Test func threeWrongPasswordsInARowLockTheUserForAWhile() {
        let harness = IdpHarness()
        let wrong: [FormField: String] = [.username: "alice", .password: "nope"]
        #expect(harness.signIn(.enrollment, wrong).failure == .wrongCredentials(attemptsLeft: 2))
        #expect(harness.signIn(.enrollment, wrong).failure == .wrongCredentials(attemptsLeft: 1))
        #expect(harness.signIn(.enrollment, wrong).failure == .userLocked(remaining: .seconds(300)))
        // Locked: even the right password is refused, and says how long is left.
        harness.clock.advance(by: .seconds(100))
        let right: [FormField: String] = [.username: "alice", .password: "wonderland", .activationCode: "123456"]
        #expect(harness.signIn(.enrollment, right).failure == .userLocked(remaining: .seconds(200)))
        harness.clock.advance(by: .seconds(200))
        #expect(harness.signIn(.enrollment, right).isRedirect)
        #expect(harness.idp.failedAttempts(tenantId: "demo", username: "alice") == 0)
    }

    @Test func onlyACompletedLoginResetsTheCount() {
        let harness = IdpHarness()
        _ = harness.signIn(.enrollment, [.username: "bob", .password: "nope"])
        _ = harness.signIn(.enrollment, [.username: "bob", .password: "nope"])
        #expect(harness.idp.failedAttempts(tenantId: "demo", username: "bob") == 2)
        let page = harness.submit(harness.authorize(.enrollment), [.username: "bob", .password: "builder"])
        #expect(page.fields == [.activationCode])
        #expect(harness.idp.failedAttempts(tenantId: "demo", username: "bob") == 2)
        #expect(harness.submit(page, [.activationCode: "654321"]).isRedirect)
        #expect(harness.idp.failedAttempts(tenantId: "demo", username: "bob") == 0)
    }

    @Test func wrongActivationCodesCountTowardsTheLock() {
        let harness = IdpHarness()
        let answers: [FormField: String] = [.username: "alice", .password: "wonderland", .activationCode: "000000"]
        #expect(harness.signIn(.enrollment, answers).failure == .wrongActivationCode(attemptsLeft: 2))
        #expect(harness.signIn(.enrollment, answers).failure == .wrongActivationCode(attemptsLeft: 1))
        #expect(harness.signIn(.enrollment, answers).failure == .userLocked(remaining: .seconds(300)))
    }

    @Test func thePolicyIsConfigurable() {
        var configuration = IdentityProviderConfiguration.demo()
        configuration.lockout = LockoutPolicy(maxFailures: 1, lockDuration: .seconds(60))
        let harness = IdpHarness(configuration)
        #expect(harness.signIn(.enrollment, [.username: "alice", .password: "x"]).failure == .userLocked(remaining: .seconds(60)))
    }

    /// Every answer for a user the tenant does not have is the one a known user's wrong password gets, the
    /// attempts left and the lock included: nothing tells whether the user exists.
    @Test func anUnknownUserLooksLikeAWrongPassword() {
        let harness = IdpHarness()
        for username in ["mallory", "alice"] {
            let answers: [FormField: String] = [.username: username, .password: "x"]
            #expect(harness.signIn(.enrollment, answers).failure == .wrongCredentials(attemptsLeft: 2), "\(username)")
            #expect(harness.signIn(.enrollment, answers).failure == .wrongCredentials(attemptsLeft: 1), "\(username)")
            #expect(harness.signIn(.enrollment, answers).failure == .userLocked(remaining: .seconds(300)), "\(username)")
            #expect(harness.signIn(.enrollment, answers).failure == .userLocked(remaining: .seconds(300)), "\(username)")
        }
    }
}

@Suite struct ActivationCodeTests {
    @Test func aCodeWorksOnce() {
        let harness = IdpHarness()
        #expect(harness.activate("alice", "wonderland", "123456", device: "device-1") != nil)
        let again = harness.signIn(.enrollment, device: "device-2",
                                   [.username: "alice", .password: "wonderland", .activationCode: "123456"])
        #expect(again.failure == .activationCodeUsed)
    }

    @Test func aCodeExpires() {
        let harness = IdpHarness()
        harness.clock.advance(by: .seconds(30 * 24 * 3600 + 1))
        let page = harness.signIn(.enrollment, [.username: "alice", .password: "wonderland", .activationCode: "123456"])
        #expect(page.failure == .activationCodeExpired)
    }
}

@Suite struct DeviceBindingTests {
    @Test func activationMintsAnAstClientIdBoundToTheUser() throws {
        let harness = IdpHarness()
        let page = harness.signIn(.enrollment, [.username: "alice", .password: "wonderland", .activationCode: "123456"])
        let tokens = try harness.exchange(page, client: .enrollment).get()
        #expect(tokens.activated)
        #expect(tokens.astClientId.count == 26)
        #expect(tokens.astClientId != IdpHarness.zeros)
        #expect(harness.idp.boundUser(astClientId: tokens.astClientId) == "alice")
    }

    @Test func loginOnAnUnactivatedDeviceIsRefusedBeforeTheForm() {
        #expect(IdpHarness().authorize(.login).failure == .notActivated)
        // Client data fetched before an activation says "not activated": the message says how to get fresh data.
        #expect(IdpFailure.notActivated.message.contains("send GetAstClientDataEvent again"))
    }

    @Test func activatingAnActivatedDeviceIsRefusedBeforeTheForm() {
        let harness = IdpHarness()
        let ast = harness.activate("alice", "wonderland", "123456")!
        #expect(harness.authorize(.enrollment, ast: ast).failure == .alreadyActivated)
    }

    @Test func anotherAccountCannotLogInOnABoundDevice() {
        let harness = IdpHarness()
        let ast = harness.activate("alice", "wonderland", "123456")!
        let page = harness.signIn(.login, ast: ast, [.username: "bob", .password: "builder"])
        #expect(page.failure == .activatedForDifferentAccount)
    }

    @Test func aClientTheIdpDoesNotKnowCannotAcquireTokens() {
        let harness = IdpHarness()
        let unknown = String(repeating: "Z", count: 26)
        let page = harness.signIn(.login, ast: unknown, [.username: "alice", .password: "wonderland"])
        #expect(page.isRedirect)
        #expect(harness.exchange(page, client: .login, ast: unknown).failure == .unactivatedClient)
    }
}

@Suite struct AuthorizationCodeTests {
    func code(_ harness: IdpHarness) -> AuthorizationPage {
        harness.signIn(.enrollment, [.username: "alice", .password: "wonderland", .activationCode: "123456"])
    }

    @Test func aCodeCannotBeUsedTwice() {
        let harness = IdpHarness()
        let page = code(harness)
        #expect(harness.exchange(page, client: .enrollment).success != nil)
        #expect(harness.exchange(page, client: .enrollment).failure == .invalidGrant("the authorization code has already been used"))
    }

    @Test func aPKCEMismatchIsRejected() {
        let harness = IdpHarness()
        let (otherVerifier, _) = IdpHarness.pkce("another-verifier-0123456789-0123456789-01")
        let result = harness.exchange(code(harness), client: .enrollment, verifier: otherVerifier)
        #expect(result.failure == .invalidGrant("the PKCE code verifier does not match the code challenge"))
    }

    @Test func aCodeIsShortLived() {
        let harness = IdpHarness()
        let page = code(harness)
        harness.clock.advance(by: .seconds(61))
        #expect(harness.exchange(page, client: .enrollment).failure == .invalidGrant("the authorization code has expired"))
    }

    @Test func aCodeIsBoundToItsClientTenantAndDevice() {
        let harness = IdpHarness()
        #expect(harness.exchange(code(harness), client: .login).failure?.code == 4400)
        #expect(harness.exchange(code(harness), client: .enrollment, tenant: "other").failure?.code == 4400)
        #expect(harness.exchange(code(harness), client: .enrollment, device: "device-2").failure?.code == 4400)
    }

    /// The names are quoted: an app's empty tenant id ended the message at "not " (a library tester).
    @Test func aWrongClientOrTenantIsNamedQuoted() {
        let harness = IdpHarness()
        #expect(harness.exchange(code(harness), client: .enrollment, tenant: "").failure
                == .invalidGrant(#"the authorization code was issued for tenant "demo", not """#))
        let another = IdpHarness()
        #expect(another.exchange(code(another), client: .login).failure
                == .invalidGrant(#"the authorization code was issued to client "KssIdpEnrollment", not "KssIdpLogin""#))
    }

    @Test func anUnknownCodeIsRejected() {
        let harness = IdpHarness()
        #expect(harness.exchange(.redirect(authorizationCode: "made-up"), client: .enrollment).failure
                == .invalidGrant("the authorization code is unknown"))
    }
}

@Suite struct PinHashingTests {
    @Test func aTenantThatExpectsHashedPinsRefusesThePlainPassword() {
        let configuration = IdentityProviderConfiguration(tenants: [
            TenantConfiguration(id: "demo", users: [UserConfiguration(username: "alice", password: Secret("wonderland"))],
                                expectsHashedPins: true)
        ])
        let harness = IdpHarness(configuration)
        let plain = harness.submit(harness.authorize(.enrollment), [.username: "alice", .password: "wonderland"])
        #expect(plain.failure == .wrongCredentials(attemptsLeft: 2))
        let hashed = PinHashing.hash(Secret("wonderland"), tenantId: "demo", username: "alice")
        #expect(hashed.byteCount == 64)
        let page = harness.submit(harness.authorize(.enrollment), [.username: "alice", .password: hashed.reveal()])
        #expect(page.fields == [.activationCode])
    }
}

extension Result {
    var success: Success? { try? get() }
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

/// A tenant's users become records at the tenant's first login, not when the IdP starts (issue 16, point 5), and
/// nothing an IdP hands out depends on which tenants have been used.
@Suite struct TenantsMadeAtFirstUseTests {
    static func configuration() -> IdentityProviderConfiguration {
        var configuration = IdentityProviderConfiguration.demo()
        configuration.tenants.append(TenantConfiguration(id: "other", userCount: 1) {
            [UserConfiguration(username: "carol", password: Secret("cpw"))]
        })
        return configuration
    }

    @Test func aTenantsUsersAreMadeAtItsFirstLogin() {
        let configuration = Self.configuration()
        let harness = IdpHarness(configuration)
        #expect(!configuration.tenants[1].usersAreLoaded)
        #expect(harness.activate("alice", "wonderland", "123456") != nil)
        #expect(!configuration.tenants[1].usersAreLoaded)
        let page = harness.submit(harness.authorize(.enrollment, tenant: "other"), [.username: "carol", .password: "cpw"])
        #expect(configuration.tenants[1].usersAreLoaded)
        #expect(page.fields == [.activationCode])
    }

    @Test func theIdsDrawnDoNotDependOnWhichTenantsWereUsed() {
        let untouched = IdpHarness(Self.configuration())
        let everyTenantMade = IdpHarness(Self.configuration())
        everyTenantMade.idp.computeStoredHashes()
        let ast = untouched.activate("alice", "wonderland", "123456")
        #expect(ast != nil && everyTenantMade.activate("alice", "wonderland", "123456") == ast)
    }
}
