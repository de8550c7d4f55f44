import Determinism
import Secrets
import Threading

/// Everything the simulated identity provider starts with: its address, tenants, users and policies.
public struct IdentityProviderConfiguration: Sendable {
    /// Where the IdP answers; `IdpSdkService(idpUrl:)` and the master controller must name the same.
    public var baseURL: String
    public var tenants: [TenantConfiguration]
    public var lockout: LockoutPolicy
    /// How long an authorization code may wait before `SetAuthorisationCode` exchanges it.
    public var authorizationCodeLifetime: Duration
    /// How long a login form stays open between `provideCredentials` answers.
    public var loginSessionLifetime: Duration
    /// PBKDF2 rounds for the stored password and activation-code hashes.
    public var passwordHashIterations: Int

    public init(
        baseURL: String = IdentityProviderConfiguration.defaultBaseURL,
        tenants: [TenantConfiguration],
        lockout: LockoutPolicy = LockoutPolicy(),
        authorizationCodeLifetime: Duration = .seconds(60),
        loginSessionLifetime: Duration = .seconds(600),
        passwordHashIterations: Int = 1000
    ) {
        self.baseURL = baseURL
        self.tenants = tenants
        self.lockout = lockout
        self.authorizationCodeLifetime = authorizationCodeLifetime
        self.loginSessionLifetime = loginSessionLifetime
        self.passwordHashIterations = passwordHashIterations
    }

    public static let defaultBaseURL = "https://idp.demo.idp-tui.test/auth"

    /// The embedded default scenario: tenant `demo`, users alice and bob, each with an activation code
    /// that expires 30 days after the IdP starts.
    public static func demo() -> IdentityProviderConfiguration {
        IdentityProviderConfiguration(tenants: [
            TenantConfiguration(id: "demo", users: [
                UserConfiguration(
                    username: "alice", password: Secret("wonderland"),
                    activationCode: ActivationCodeConfiguration(code: Secret("123456"))),
                UserConfiguration(
                    username: "bob", password: Secret("builder"),
                    activationCode: ActivationCodeConfiguration(code: Secret("654321"))),
            ])
        ])
    }
}

/// A tenant (realm) of the IdP.
public struct TenantConfiguration: Sendable {
    public var id: String
    /// True when the tenant expects passwords hashed by the SDK (`shouldHashPin`), see ``PinHashing``.
    public var expectsHashedPins: Bool
    /// True when the login form asks for the username on a page of its own, then the password (identifier first):
    /// the SDK calls `provideCredentials` once for each, as REFERENCE.md §1 says it may.
    public var usernameFirst: Bool
    private var list: UserList

    public init(id: String, users: [UserConfiguration], expectsHashedPins: Bool = false, usernameFirst: Bool = false) {
        self.id = id
        self.expectsHashedPins = expectsHashedPins
        self.usernameFirst = usernameFirst
        list = UserList(users)
    }

    /// A tenant whose users are made when they are first asked for (a scenario file's users, checked when the
    /// file was read and turned into values at the tenant's first login: a scenario of 10,000 users starts as
    /// fast as the demo). `load` must make exactly `userCount` users.
    public init(id: String, userCount: Int, expectsHashedPins: Bool = false, usernameFirst: Bool = false,
                load: @escaping @Sendable () -> [UserConfiguration]) {
        self.id = id
        self.expectsHashedPins = expectsHashedPins
        self.usernameFirst = usernameFirst
        list = UserList(count: userCount, load: load)
    }

    public var users: [UserConfiguration] {
        get { list.users }
        set { list = UserList(newValue) }
    }

    /// How many users the tenant has, without making them.
    public var userCount: Int { list.count }

    /// Whether the users have been made (tests: a scenario's users are not made before they are needed).
    public var usersAreLoaded: Bool { list.isLoaded }
}

/// A tenant's users, made once, at the first use, by whichever thread asks first.
private final class UserList: Sendable {
    private enum State {
        case pending(@Sendable () -> [UserConfiguration])
        case loaded([UserConfiguration])
    }

    let count: Int
    private let state: Locked<State>

    init(_ users: [UserConfiguration]) {
        count = users.count
        state = Locked(.loaded(users))
    }

    init(count: Int, load: @escaping @Sendable () -> [UserConfiguration]) {
        self.count = count
        state = Locked(.pending(load))
    }

    var users: [UserConfiguration] {
        state.withLock { state in
            switch state {
            case .loaded(let users):
                return users
            case .pending(let load):
                let users = load()
                state = .loaded(users)
                return users
            }
        }
    }

    var isLoaded: Bool {
        state.withLock { if case .loaded = $0 { true } else { false } }
    }
}

/// A user as the scenario gives it; the IdP keeps only hashes of the password and the code.
public struct UserConfiguration: Sendable {
    public var username: String
    public var password: Secret
    public var activationCode: ActivationCodeConfiguration?

    public init(username: String, password: Secret, activationCode: ActivationCodeConfiguration? = nil) {
        self.username = username
        self.password = password
        self.activationCode = activationCode
    }
}

/// A one-time activation code.
public struct ActivationCodeConfiguration: Sendable {
    public var code: Secret
    /// The code expires this long after the IdP starts.
    public var validFor: Duration

    public init(code: Secret, validFor: Duration = .seconds(30 * 24 * 3600)) {
        self.code = code
        self.validFor = validFor
    }
}

/// How many wrong passwords or activation codes in a row lock a user, and for how long.
public struct LockoutPolicy: Sendable, Equatable {
    public var maxFailures: Int
    public var lockDuration: Duration

    public init(maxFailures: Int = 3, lockDuration: Duration = .seconds(300)) {
        self.maxFailures = maxFailures
        self.lockDuration = lockDuration
    }
}
