import Determinism
import Foundation
import IdentityProvider
import JSONText
import Q2ModuleInterfaces
import Q2Core
import Secrets
import Testing
import Threading

/// A Core with alice / wonderland, on a manual clock.
func core(faults: FaultSwitchboard = FaultSwitchboard(), clock: ManualClock = ManualClock()) -> Q2CoreServer {
    let random = RandomSource(seed: 3)
    let network = SimulatedNetwork(clock: clock, faults: faults)
    return Q2CoreServer(
        tenant: "demo", users: [UserConfiguration(username: "alice", password: Secret("wonderland"))], lockout: LockoutPolicy(),
        store: MemoryIdentityProviderStore(), network: network, random: random, clock: clock, faults: faults)
}

func login(_ core: Q2CoreServer, _ password: String, faults: FaultSwitchboard = FaultSwitchboard(), reason: String? = nil) async
    -> Result<PasswordAuthenticationResult, MobileCoreLoginFailure>
{
    let authentication = CorePasswordAuthentication(core: core, security: SimulatedSecurityModule(faults: faults, reason: reason))
    do {
        return .success(try await authentication.authenticate(using: PasswordCredential(username: "alice", password: password)))
    } catch let failure as MobileCoreLoginFailure {
        return .failure(failure)
    } catch {
        return .failure(.genericError(error: error, statusCode: nil, hydraCode: nil))
    }
}

@Suite struct Q2ModuleTests {
    @Test func aRightPasswordLogsInWithAQ2TokenAndUserData() async throws {
        let result = try await login(core(), "wonderland").get()
        #expect(result.statusCode == 200)
        #expect(result.username == "alice" && result.authenticationMethod == .password)
        let token = try #require(result.q2token)
        #expect(!token.isEmpty)
        #expect(result.userDataJSON?["firstName"] == .string("Alice"))
        let response = result.asAuthenticationModuleResponse()
        #expect(response.username == "alice")
        #expect(!"\(result)".contains(token) && "\(result)".contains("q2token: <redacted>"))
    }

    @Test func eachFailureCase() async throws {
        let server = core()
        guard case .failure(.invalidCredentials(_, 401, 1001)) = await login(server, "nope") else { Issue.record("wrong password"); return }
        _ = await login(server, "nope")
        guard case .failure(.invalidCredentials(_, 423, 1003)) = await login(server, "nope") else { Issue.record("lockout"); return }
        guard case .failure(.invalidCredentials(_, 423, 1003)) = await login(server, "wonderland") else { Issue.record("locked"); return }

        let offline = FaultSwitchboard()
        offline.faults.networkUnavailable = true
        guard case .failure(.networkUnavailable) = await login(core(faults: offline), "wonderland") else { Issue.record("offline"); return }

        let broken = FaultSwitchboard()
        broken.faults.serverError = true
        guard case .failure(.genericError(_, 500, 9000)) = await login(core(faults: broken), "wonderland") else { Issue.record("500"); return }

        let rooted = FaultSwitchboard()
        rooted.faults.insecureDevice = true
        guard case .failure(.insecure(let reason)) = await login(core(faults: rooted), "wonderland", faults: rooted) else {
            Issue.record("insecure")
            return
        }
        #expect(reason == "the device is rooted or jailbroken")
        // What an app shows with `localizedDescription` is the message ("The operation could not be completed").
        #expect(MobileCoreLoginFailure.insecure(reason: reason).localizedDescription
            == "the security module blocked the login: the device is rooted or jailbroken")
        guard case .failure(.insecure("Cydia found")) = await login(core(), "wonderland", reason: "Cydia found") else {
            Issue.record("insecure with a reason")
            return
        }
    }

    /// `wait` on a Dispatch thread, the test's task suspended meanwhile: what the test waits for (sign-ins
    /// going to sleep on the manual clock) must never depend on a free thread of the cooperative pool.
    static func offThePool<T: Sendable>(_ wait: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            // A queue of its own gets a thread of its own (an overcommitting queue), however busy the others are.
            DispatchQueue(label: "q2-test-wait").async { continuation.resume(returning: wait()) }
        }
    }

    @Test func aTimeoutIsARequestThatTimesOut() async throws {
        let clock = ManualClock()
        let faults = FaultSwitchboard()
        faults.faults.requestTimeout = true
        let bitten = Locked<[String]>([])
        faults.onTrigger { name in bitten.withLock { $0.append(name) } }
        let server = core(faults: faults, clock: clock)
        let logon = Task(executorPreference: Self.oneThread()) { () -> Result<LogonResponse, NetworkError> in
            do throws(NetworkError) {
                return .success(try await server.logonUser(userId: "alice", password: Secret("wonderland")))
            } catch {
                return .failure(error)
            }
        }
        let waiting = await Self.offThePool { clock.waitForPendingTimers(atLeast: 1) }
        // Without a sign-in waiting on the clock there is nothing to move on; awaiting it would never end.
        guard waiting else {
            Issue.record("the sign-in never waited on Core")
            return
        }
        clock.advance(by: .seconds(30))
        let seen = await logon.value
        guard case .failure(.timedOut(let after)) = seen else { Issue.record("\(seen)"); return }
        #expect(after == .seconds(30))
        #expect(bitten.withLock { $0 } == ["request timeout: Q2 Core does not answer within 30 s"])
    }

    /// Cancelling the task that awaits `authenticate(using:)` ends it at once with `CancellationError`, as an async
    /// URL session call ends, and Core never gets the request; it went on to the end of Core's 30 s timeout.
    @Test func cancellingTheSignInsTaskEndsItAtOnce() async {
        let clock = ManualClock()
        let faults = FaultSwitchboard()
        faults.faults.requestTimeout = true
        let server = core(faults: faults, clock: clock)
        let answered = Locked(0)
        server.observe { _, _ in answered.withLock { $0 += 1 } }
        let authentication = CorePasswordAuthentication(core: server, security: SimulatedSecurityModule(faults: faults, reason: nil))
        let ended = Locked<String?>(nil)
        let signIn = Task(executorPreference: Self.oneThread()) {
            let how: String
            do {
                _ = try await authentication.authenticate(using: PasswordCredential(username: "alice", password: "wonderland"))
                how = "signed in"
            } catch is CancellationError {
                how = "cancelled"
            } catch {
                how = "\(error)"
            }
            ended.withLock { $0 = how }
        }
        guard await Self.offThePool({ clock.waitForPendingTimers(atLeast: 1) }) else {
            Issue.record("the sign-in never waited on Core")
            return
        }
        signIn.cancel()
        // The clock does not move: only the cancel can end the wait (else it is let go, so that the test ends).
        let endedAtOnce = await Self.offThePool {
            let deadline = Date().addingTimeInterval(5)
            while ended.withLock({ $0 }) == nil && Date() < deadline { usleep(1_000) }
            if ended.withLock({ $0 }) == nil { clock.advance(by: .seconds(30)) }
            return ended.withLock { $0 } != nil
        }
        await signIn.value
        #expect(endedAtOnce, "the sign-in waited on after its task was cancelled")
        #expect(ended.withLock { $0 } == "cancelled")
        #expect(answered.withLock { $0 } == 0, "Core answered a cancelled sign-in")
    }

    /// One serial queue for the sign-ins' tasks: they run whatever the cooperative pool is doing (the suite's other
    /// tests keep its threads busy), and a sign-in that blocked its thread would stop every other one.
    static func oneThread() -> DispatchTaskExecutor { DispatchTaskExecutor(queue: DispatchQueue(label: "q2-sign-ins")) }

    /// `authenticate` is async: a sign-in waiting out Core's latency is a suspended task, not a blocked thread.
    /// It used to block its thread (a thread of the cooperative pool, in an app) for each round trip, so no more
    /// sign-ins than threads could be waiting at once, and the app's other async work waited with them. Here they
    /// share one thread: all of them wait at once only if none blocks it.
    @Test func signInsWaitingOnCoreHoldNoThread() async {
        let clock = ManualClock()
        let faults = FaultSwitchboard()
        faults.faults.addedLatency = .seconds(1)
        let server = core(faults: faults, clock: clock)
        let count = 8
        let finished = Locked(0)
        let thread = Self.oneThread()
        let signIns = (0..<count).map { _ in
            Task(executorPreference: thread) {
                let result = await login(server, "wonderland")
                finished.withLock { $0 += 1 }
                return result
            }
        }
        // Off the pool: the test waits on a queue of its own, whatever the pool and the sign-ins do.
        // Without every sign-in waiting at once, they are let go a round trip at a time, so that the test ends.
        let allWaiting = await Self.offThePool {
            let allWaiting = clock.waitForPendingTimers(atLeast: count, timeout: .seconds(5))
            let deadline = Date().addingTimeInterval(20)
            while finished.withLock({ $0 }) < count && Date() < deadline {
                clock.advance(by: .seconds(1))
                clock.waitForPendingTimers(atLeast: 1, timeout: .milliseconds(50))
            }
            return allWaiting
        }
        #expect(allWaiting, "\(clock.pendingTimerCount) of \(count) sign-ins waiting on the clock at once")
        // A sign-in not finished by now would be awaited forever: the test fails instead of hanging the suite.
        guard finished.withLock({ $0 }) == count else {
            Issue.record("\(finished.withLock { $0 }) of \(count) sign-ins finished")
            return
        }
        for signIn in signIns {
            if case .failure(let failure) = await signIn.value { Issue.record("\(failure)") }
        }
    }

    @Test func theSecurityModuleRunsBeforeThePasswordLogin() async {
        let rooted = FaultSwitchboard()
        rooted.faults.insecureDevice = true
        let server = core(faults: rooted)
        let seen = Locked(0)
        server.observe { _, _ in seen.withLock { $0 += 1 } }
        _ = await login(server, "wonderland", faults: rooted)
        #expect(seen.withLock { $0 } == 0, "Core was never asked")
    }

    @Test func aPasswordCredentialIsRedactedInEveryPrintingPath() {
        let credential = PasswordCredential(username: "alice", password: "hunter2-wonderland")
        var dumped = ""
        dump(credential, to: &dumped)
        let paths = [
            "\(credential)", String(describing: credential), String(reflecting: credential), credential.description,
            credential.debugDescription, dumped, Mirror(reflecting: credential).children.map { "\($0.value)" }.joined(),
            "\([credential])", "\(Optional(credential) as Any)",
        ]
        for text in paths {
            #expect(!text.contains("hunter2"), "\(text)")
        }
        #expect(paths[0].contains("<redacted>"))
        #expect(!((credential as Any) is any Encodable), "not Codable: it cannot be serialized")
        #expect(!((credential as Any) is any Decodable))
    }
}

/// Q2 Core's users are the app tenant's, made at the first logon rather than when the world starts (a scenario's
/// users are made at their tenant's first use), with the salts drawn at start as before.
@Suite struct Q2CoreUsersAtFirstLogonTests {
    @Test func theAppTenantsUsersAreMadeAtTheFirstLogonAndTheRandomStreamIsUnchanged() async throws {
        let tenant = TenantConfiguration(id: "demo", userCount: 2) {
            [UserConfiguration(username: "alice", password: Secret("wonderland")), UserConfiguration(username: "bob", password: Secret("b"))]
        }
        let clock = ManualClock(), faults = FaultSwitchboard(), random = RandomSource(seed: 3)
        let server = Q2CoreServer(
            tenant: "demo", usersOf: tenant, lockout: LockoutPolicy(), store: MemoryIdentityProviderStore(),
            network: SimulatedNetwork(clock: clock, faults: faults), random: random, clock: clock, faults: faults)
        #expect(!tenant.usersAreLoaded)
        // One 16-byte salt per user drawn at start, as when the users were made then.
        let expected = RandomSource(seed: 3)
        _ = expected.bytes(32)
        #expect(random.bytes(8) == expected.bytes(8))
        #expect(try await login(server, "wonderland").get().statusCode == 200)
        #expect(tenant.usersAreLoaded)
    }
}
