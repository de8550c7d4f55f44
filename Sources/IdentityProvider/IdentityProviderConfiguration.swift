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

    /// A lock's time as the IdP's and Q2 Core's messages say it, rounded up to a second: "45 s", "5 min", "4 min 11 s"
    /// (Q2 Core said "locked out for 300 s" where the IdP said "try again in 5 min").
    public static func spell(_ duration: Duration) -> String {
        let seconds = max(1, Int((Double(duration.nanoseconds) / 1e9).rounded(.up)))
        if seconds < 60 { return "\(seconds) s" }
        let minutes = seconds / 60
        let rest = seconds % 60
        return rest == 0 ? "\(minutes) min" : "\(minutes) min \(rest) s"
    }

    /// What to do about a lock that `message` reported, with the time it ends its message with (as ``spell(_:)``
    /// wrote it): "Wait 4 min 11 s for the lock to end, then try again." It said "Wait until the lock ends", while the
    /// message above it said when.
    public static func advice(reportedBy message: String?) -> String {
        let time = message?.firstMatch(of: /(\d+ min \d+ s|\d+ min|\d+ s)$/).map { String($0.output.1) }
        return time.map { "Wait \($0) for the lock to end, then try again." } ?? "Wait until the lock ends, then try again."
    }
}
