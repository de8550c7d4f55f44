import Determinism
import IdentityProvider
import Secrets
import Synchronization
import Testing

/// A stored hash is computed at its first comparison, not when the scenario is loaded.
@Suite struct StoredHashTests {
    @Test func nothingIsHashedBeforeTheFirstComparisonAndThenOnlyOnce() {
        let made = Atomic(0)
        let hash = StoredHash(deferred: {
            made.add(1, ordering: .relaxed)
            return Secret("wonderland")
        }, iterations: 10, random: RandomSource(seed: 1))
        #expect(!hash.isComputed)
        #expect(made.load(ordering: .relaxed) == 0)
        #expect(!hash.matches(Secret("wonderlant")))
        #expect(hash.isComputed)
        #expect(hash.matches(Secret("wonderland")))
        #expect(!hash.matches(Secret("")))
        #expect(made.load(ordering: .relaxed) == 1)
    }

    @Test func aLazyHashDrawsItsSaltAtOnceSoLaterRandomValuesDoNotDependOnWhichUsersLogIn() {
        let used = RandomSource(seed: 3)
        let unused = RandomSource(seed: 3)
        let first = StoredHash(of: Secret("a"), iterations: 10, random: used)
        _ = StoredHash(of: Secret("b"), iterations: 10, random: unused)
        #expect(first.matches(Secret("a")))
        #expect(used.bytes(16) == unused.bytes(16))
    }

    @Test func anIdentityProviderOfManyUsersHashesOnlyTheOneWhoLogsIn() {
        var configuration = IdentityProviderConfiguration.demo()
        let many = (0..<2000).map { UserConfiguration(username: "user\($0)", password: Secret("password \($0)")) }
        configuration.tenants.append(TenantConfiguration(id: "many", users: many))
        let harness = IdpHarness(configuration)
        #expect(harness.idp.computedHashes == 0)
        #expect(harness.activate("alice", "wonderland", "123456") != nil)
        // alice's activation code and password.
        #expect(harness.idp.computedHashes == 2)
    }
}
