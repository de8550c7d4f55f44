import Determinism
import DropsWeb
import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import IdentityProvider
import IdpFlows
import IdpSdk
import KSMasterController
import PaymentFlows
import Q2Flows
import Secrets
import Simulation
import Synchronization
import Testing

/// Each fault surfaces as the error the real SDK would, and the log says a fault was injected.
@Suite struct FaultTests {
    func run(_ kind: FlowKind, faults: IdentityFaults, answers: [[String: String]] = [Demo.aliceActivation],
             clock: ManualClock = ManualClock(), prepare: (FlowService, RecordingFrontEnd) -> Void = { _, _ in })
        throws -> (FlowResult, [FlowEvent])
    {
        let service = FlowService(environment: SimulationEnvironment(clock: clock))
        let frontEnd = RecordingFrontEnd.answering(answers)
        prepare(service, frontEnd)
        service.environment.world.identityFaults = faults
        let result = try #require(service.run(kind, with: frontEnd))
        return (result, frontEnd.events(of: result.flowID))
    }

    func faultsLogged(_ events: [FlowEvent]) -> [String] {
        events.filter { $0.step == .fault }.map(\.detail)
    }

    @Test(arguments: [
        ("networkUnavailable", "NOT_REACHABLE", 511, 4, "network unavailable"),
        ("serverError", "FAILED", 513, 5000, "server error"),
        ("malformedPage", "FAILED", 510, 5, "malformed page"),
        ("pinningFails", "NOT_REACHABLE", 511, 2, "certificate pinning fails"),
    ])
    func identityFaultsFailTheLogin(fault: String, status: String, subsystem: Int, code: Int, logged: String) throws {
        var faults = IdentityFaults()
        switch fault {
        case "networkUnavailable": faults.networkUnavailable = true
        case "serverError": faults.serverError = true
        case "malformedPage": faults.malformedPage = true
        default: faults.pinningFails = true
        }
        let (result, events) = try run(.activate, faults: faults)
        #expect(result.outcome == .failure)
        #expect(result.status == status)
        #expect(result.error?.subsystem == subsystem && result.error?.code == code, "\(String(describing: result.error))")
        #expect(result.advice?.contains("fault") == true)
        // The advice says what to do, not again what happened (the error's message says that, on the row above it).
        let said = result.error?.message.components(separatedBy: ": ").last ?? ""
        #expect(!said.isEmpty && result.advice?.range(of: said, options: .caseInsensitive) == nil, "\(said) | \(result.advice ?? "")")
        // The start's notice is not a fault that bit: a step of its own.
        #expect(events.first { $0.step == .faultsOn }?.detail == logged)
        #expect(faultsLogged(events).contains { $0.hasPrefix(logged) }, "\(faultsLogged(events))")
        #expect(!faultsLogged(events).contains { $0.hasPrefix("faults on") })
    }

    @Test func aRequestTimeoutWaitsThirtySecondsThenFails() throws {
        var log: [String] = []
        let result = try activationTimingOut({ $0.world.identityFaults.requestTimeout = true }, log: &log)
        #expect(result.error?.message.contains("timed out after 30 s") == true)
        // The request is logged as it leaves, before the fault that strikes it; it has no answer (it was logged
        // only with its answer, and so never).
        let request = log.firstIndex(of: "IdpSdk→IdP GET /authorize"), fault = log.firstIndex(of: "simulator→IdP fault injected")
        #expect(request != nil && fault != nil && request! < fault!, "\(log)")
        #expect(!log.contains("IdP→IdpSdk GET /authorize"), "\(log)")
        #expect(result.advice == "No server answers while the request-timeout fault is on: turn it off, then run the flow again.",
                "\(result.advice ?? "")")
    }

    /// A latency the SDK's request timeout does not wait out (a scenario's 35 s) times out at 30 s, as the timeout
    /// fault does: it was answered after 35 s.
    @Test func aLatencyBeyondTheRequestTimeoutTimesOut() throws {
        let result = try activationTimingOut { $0.world.network.latency = .seconds(35) }
        // The advice names the latency, not the request-timeout fault, which is off.
        #expect(result.advice == "Each round trip takes 35 s, the scenario's network latency (35000 ms), and the SDK gives up after 30 s: lower network.latencyMs in the scenario, then run the flow again.",
                "\(result.advice ?? "")")
    }

    /// The added-latency fault past the SDK's timeout: the advice names it and its value, not the request-timeout fault.
    @Test func anAddedLatencyBeyondTheRequestTimeoutIsNamedInTheAdvice() throws {
        let result = try activationTimingOut { $0.world.identityFaults.addedLatency = .milliseconds(31_500) }
        #expect(result.advice == "Each round trip takes 31.5 s with the added-latency fault (+31500 ms), and the SDK gives up after 30 s: lower the added latency, then run the flow again.",
                "\(result.advice ?? "")")
    }

    /// An activation with the network `slow`ed, its first round trip waited out for the SDK's 30 s: it fails
    /// NOT_REACHABLE 511/5 after exactly 30 s on the clock.
    private func activationTimingOut(_ slow: (SimulationEnvironment) -> Void) throws -> FlowResult {
        var log: [String] = []
        return try activationTimingOut(slow, log: &log)
    }

    /// ... and its events, as `from→to step`.
    private func activationTimingOut(_ slow: (SimulationEnvironment) -> Void, log: inout [String]) throws -> FlowResult {
        let clock = ManualClock()
        let service = FlowService(environment: SimulationEnvironment(clock: clock))
        slow(service.environment)
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        service.start(.activate)
        #expect(clock.waitForPendingTimers(atLeast: 1))
        clock.advance(by: .seconds(30))
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        let result = try #require(frontEnd.results.first)
        #expect(result.status == "NOT_REACHABLE" && result.error?.code == 5, "\(result)")
        #expect(result.duration == .seconds(30))
        log = frontEnd.steps(of: result.flowID)
        return result
    }

    @Test func addedLatencyIsOnEveryRoundTrip() throws {
        let clock = ManualClock()
        // No prompt timeout: the only timers are the network's sleeps.
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        service.environment.world.identityFaults.addedLatency = .milliseconds(250)
        service.start(.activate)
        var roundTrips = 0
        while frontEnd.results.isEmpty && roundTrips < 10 {
            #expect(service.drive(frontEnd) { clock.pendingTimerCount > 0 || !frontEnd.results.isEmpty })
            if clock.pendingTimerCount > 0 {
                clock.advance(by: .milliseconds(250))
                roundTrips += 1
            }
        }
        // connect, two form submits, the token exchange.
        #expect(roundTrips == 4)
        let result = try #require(frontEnd.results.first)
        #expect(result.outcome == .success)
        #expect(result.duration == .milliseconds(1000))
        #expect(frontEnd.events.filter { $0.step == .fault && $0.detail.hasPrefix("added latency") }.count == 4)
    }

    @Test func anInsecureDeviceStopsAtStart() throws {
        var faults = IdentityFaults()
        faults.insecureDevice = true
        let (result, events) = try run(.activate, faults: faults)
        #expect(result.status == "INSECURE_DEVICE")
        #expect(result.failedStep == .start)
        #expect(result.error?.message.contains("rooted or jailbroken") == true)
        #expect(!events.contains { $0.step == .getAstClientData })
    }

    @Test func aRuntimeErrorRestartsTheMasterControllerAndTheNextFlowWorks() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.aliceActivation])
        service.environment.world.identityFaults.runtimeError = true
        let failed = try #require(service.run(.activate, with: frontEnd))
        #expect(failed.status == "INTERNAL_ERROR")
        // Its step is its event's name (`ErrorRuntime`, `ErrorRuntimeEvent`), as Start's is, and its code is not 0,
        // which read as "no error".
        #expect(frontEnd.events(of: failed.flowID).contains { $0.step.rawValue == "ErrorRuntime" })
        #expect(frontEnd.events(of: failed.flowID).contains { $0.detail == "ErrorRuntimeEvent: errorType=runtimeError, errorCode=1, "
            + #"errorDescription="internal error while storing the token data; the MC-SDK restarted itself"; send StartEvent before anything else"# })
        // The app's receiver hears the ErrorRuntimeEvent (every field) first; SetAuthorisationCode's result is its own type,
        // INTERNAL_ERROR (it was the ErrorRuntimeEvent itself, which the guide's as! cast traps on).
        let last = try #require(frontEnd.events(of: failed.flowID).suffix(2).map { ($0.step, $0.status) } as [(FlowStep, String?)]?)
        #expect(last.map(\.0) == [.errorRuntime, .setAuthorisationCode] && last.last?.1 == "INTERNAL_ERROR", "\(last)")
        // The event's own status column is its errorType: KSMErrorRuntimeEvent has no status.
        #expect(last.first?.1 == "runtimeError", "\(last)")
        #expect(!service.environment.masterController.snapshot.started, "the MC-SDK restarted itself")
        // The advice says what the next activation meets: its code is spent.
        // In memory (as here), restarting idp-tui gives the codes back; `idp-tui reset` would refuse --ephemeral. Said
        // without brackets in brackets ("(here: starting again (this state is in memory only) gives …)").
        #expect(failed.advice?.hasSuffix("activate again with another code; here, restarting idp-tui with --ephemeral gives the scenario's codes back.") == true,
                "\(failed.advice ?? "")")
        // Not "run the flow again", which would meet ACTIVATION_CODE_USED.
        #expect(failed.advice?.contains("run the flow again") == false, "\(failed.advice ?? "")")
        // Once a switch-on: the switch turned itself off (the panel and the next flow's "faults on" show it off).
        #expect(!service.environment.world.identityFaults.runtimeError)
        // The code was exchanged, so activating again is refused by the IdP (the device was bound before the
        // error), which is what a real device would see.
        let next = try #require(service.run(.activate, with: frontEnd))
        #expect(next.status != "INTERNAL_ERROR")
    }

    /// A login meets no activation code: its advice after a runtime error does not speak of one.
    @Test func aRuntimeErrorOnALoginAdvisesNothingAboutActivationCodes() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice])
        #expect(service.run(.activate, with: frontEnd)?.outcome == .success)
        service.environment.world.identityFaults.runtimeError = true
        let failed = try #require(service.run(.login, with: frontEnd))
        #expect(failed.status == "INTERNAL_ERROR")
        #expect(failed.advice?.contains("run the flow again") == true && failed.advice?.contains("activation") == false,
                "\(failed.advice ?? "")")
    }

    /// Core's lock (HTTP 423, hydraCode 1003) is advised as a lock, not as a wrong password.
    @Test func aQ2UserLockedOutIsAdvisedToWait() throws {
        let clock = ManualClock()
        let service = FlowService(environment: SimulationEnvironment(clock: clock))
        let wrong = ["username": "alice", "password": "nope"]
        let frontEnd = RecordingFrontEnd.answering([wrong, wrong, wrong, Demo.alice])
        var results: [FlowResult] = []
        for _ in 0..<3 { results.append(try #require(service.run(.q2Login, with: frontEnd))) }
        clock.advance(by: .seconds(49))
        results.append(try #require(service.run(.q2Login, with: frontEnd)))
        #expect(results[0].advice?.hasPrefix("Check the user id and password") == true)
        #expect(results[3].q2?.hydraCode == 1003, "\(results[3].error?.message ?? "")")
        // In the IdP's units ("300 s" was "5 min" there), and the advice says how long (it said "until the lock ends").
        #expect(results[2].error?.message == "too many failed logins: the user is locked out for 5 min")
        #expect(results[3].error?.message == "the user is locked out for another 4 min 11 s")
        #expect(results[3].advice == "Wait 4 min 11 s for the lock to end, then try again.")
    }

    /// Q2's NETWORK_UNAVAILABLE stands for no connectivity and for a request that timed out: the advice says which
    /// fault is on (it named "the network fault" for all of them).
    /// The insecure-device fault comes between the module's call to its security module and the deny it causes, as
    /// every fault comes after the call it strikes (it came before the call).
    @Test func theSecurityModulesFaultComesBetweenItsCallAndItsAnswer() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        service.world.identityFaults.insecureDevice = true
        let frontEnd = RecordingFrontEnd.answering([Demo.alice])
        let result = try #require(service.run(.q2Login, with: frontEnd))
        #expect(result.status == "INSECURE")
        let steps = frontEnd.steps(of: result.flowID)
        let call = steps.firstIndex(of: "Q2 SDK→SecurityModule allowLogin"), fault = steps.firstIndex(of: "simulator→SecurityModule fault injected")
        let answer = steps.firstIndex(of: "SecurityModule→Q2 SDK allowLogin")
        #expect(call != nil && fault != nil && answer != nil && call! < fault! && fault! < answer!, "\(steps)")
    }

    @Test func aQ2SignInThatTimedOutIsAdvisedByItsFault() throws {
        let clock = ManualClock(countingWork: true)
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil))
        let frontEnd = RecordingFrontEnd.answering([Demo.alice, Demo.alice, Demo.alice])
        var advice: [String] = []
        for fault in ["offline", "timeout", "latency"] {
            service.world.identityFaults = IdentityFaults()
            switch fault {
            case "offline": service.world.identityFaults.networkUnavailable = true
            case "timeout": service.world.identityFaults.requestTimeout = true
            default: service.world.identityFaults.addedLatency = .seconds(40)
            }
            service.start(.q2Login)
            let ended = frontEnd.results.count + 1
            service.settle(frontEnd, clock: clock)
            #expect(frontEnd.results.count == ended)
            let result = try #require(frontEnd.results.last)
            #expect(result.status == "NETWORK_UNAVAILABLE", "\(fault): \(result.status)")
            advice.append(result.advice ?? "")
        }
        #expect(advice == [
            "Bring the network back (the network-unavailable fault), then sign in again.",
            "No server answers while the request-timeout fault is on: turn it off, then sign in again.",
            "Each round trip takes 40 s with the added-latency fault (+40000 ms), and the request gives up after 30 s: lower the added latency, then sign in again.",
        ], "\(advice)")
    }

    /// A flow's log names, as it starts, only the faults on that can reach it: a bridge fault never in a KSSIDP
    /// activation's, and in a logout's only the insecure device.
    @Test func aFlowsLogNamesOnlyTheFaultsThatCanReachIt() throws {
        var faults = IdentityFaults()
        faults.pinningFails = true
        faults.clockSkew = .seconds(31 * 86_400)
        let bridgeFault: (FlowService, RecordingFrontEnd) -> Void = { service, _ in service.environment.world.bridgeFaults.wrongOrigin = true }
        let (_, legacy) = try run(.legacyActivate, faults: faults, prepare: bridgeFault)
        #expect(legacy.first { $0.step == .faultsOn }?.detail == "certificate pinning fails, clock skew 31 days ahead")
        let (_, logout) = try run(.logout, faults: faults, prepare: bridgeFault)
        #expect(!logout.contains { $0.step == .faultsOn })
        faults.insecureDevice = true
        let (_, insecure) = try run(.logout, faults: faults, prepare: bridgeFault)
        #expect(insecure.first { $0.step == .faultsOn }?.detail == "insecure device")
    }

    /// A payment lists the network's identity faults, then the bridge's, then 3-D Secure's, in their order.
    @Test func aPaymentsLogNamesTheNetworksTheBridgesAndThreeDSecuresFaultsInOrder() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        service.environment.world.identityFaults.networkUnavailable = true
        service.environment.world.identityFaults.serverError = true  // the IdP's: no payment meets it
        service.environment.world.bridgeFaults.lostAcks = 2
        service.environment.world.bridgeFaults.threeDS.acs = .timeout
        let frontEnd = RecordingFrontEnd { _ in .cancel }
        let result = try #require(service.run(.payerAuth, with: frontEnd))
        #expect(frontEnd.events(of: result.flowID).first { $0.step == .faultsOn }?.detail
            == "network unavailable, the first 2 bridge acks lost, ACS timing out")
    }

    /// A family that says nothing of which faults reach it meets the identity side's, not a payment's; its own
    /// simulator's faults follow the world's in its flow's log.
    @Test func aNewFamilysLogNamesTheIdentityFaultsAndItsOwn() throws {
        let environment = SimulationEnvironment(clock: ManualClock())
        let toast = ToastFamily()
        let service = FlowService(world: environment.world, deviceQueue: environment.deviceQueue, families: [toast])
        environment.world.identityFaults.pinningFails = true
        environment.world.bridgeFaults.wrongOrigin = true
        toast.burns.withLock { $0 = true }
        let frontEnd = RecordingFrontEnd()
        let result = try #require(service.run(ToastFamily.toast, with: frontEnd))
        #expect(result.outcome == .success)
        #expect(frontEnd.events(of: result.flowID).first { $0.step == .faultsOn }?.detail == "certificate pinning fails, every slice burns")
    }

    @Test func faultsSwitchedOffMidFlowStopBiting() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        service.environment.world.identityFaults.serverError = true
        let frontEnd = RecordingFrontEnd { prompt in
            var values: [String: Secret] = [:]
            for field in prompt.fields { values[field.key] = Demo.aliceActivation[field.key].map { Secret($0) } }
            return .credentials(values)
        }
        let failed = try #require(service.run(.activate, with: frontEnd))
        #expect(failed.status == "FAILED")
        service.environment.world.identityFaults.serverError = false
        let worked = try #require(service.run(.activate, with: frontEnd))
        #expect(worked.outcome == .success)
    }
}

@Suite struct OfflineLoginTests {
    @Test func afterALogoutALoginWithALocalAuthenticationModeIsOffline() throws {
        let service = FlowService(
            environment: SimulationEnvironment(clock: ManualClock()), configuration: FlowConfiguration(authenticationMode: .biometric))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, [:], Demo.alice])
        #expect(service.run(.activate, with: frontEnd)?.outcome == .success)
        #expect(service.run(.logout, with: frontEnd)?.outcome == .success)
        let login = try #require(service.run(.login, with: frontEnd))
        #expect(login.outcome == .success && login.offline)
        let steps = frontEnd.events(of: login.flowID).map { "\($0.from.rawValue)→\($0.to.rawValue) \($0.step.rawValue)" }
        #expect(steps == ["App→MC-SDK Start", "MC-SDK→App Start", "App→MC-SDK OfflineLogin", "MC-SDK→App OfflineLogin"])
        #expect(frontEnd.prompts.count == 2, "no credentials asked for the offline login")
        #expect(service.statusLine == "logged in as alice")
    }

    @Test func withAuthenticationModeNoTheOfflineLoginFailsAndTheIdPLoginFollows() throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, [:], Demo.alice])
        _ = service.run(.activate, with: frontEnd)
        _ = service.run(.logout, with: frontEnd)
        let login = try #require(service.run(.login, with: frontEnd))
        #expect(login.outcome == .success && !login.offline)
        let offline = try #require(frontEnd.events(of: login.flowID).first { $0.step == .offlineLogin && $0.from == .masterController })
        #expect(offline.status == "NO_TOKEN_DATA_AVAILABLE")
        #expect(offline.detail.contains("logging in at the IdP instead"))
        #expect(frontEnd.events(of: login.flowID).contains { $0.step == .provideCredentials })
    }

    @Test func anExpiredOfflineTokenNeedsTheIdP() throws {
        let clock = ManualClock()
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(authenticationMode: .pin))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, [:], Demo.alice])
        _ = service.run(.activate, with: frontEnd)
        _ = service.run(.logout, with: frontEnd)
        clock.advance(by: .seconds(31 * 86_400))
        let login = try #require(service.run(.login, with: frontEnd))
        #expect(!login.offline)
        #expect(frontEnd.events(of: login.flowID).first { $0.step == .offlineLogin && $0.from == .masterController }?.status == "LOGIN_REQUIRED")
    }
}

/// A family with a simulator of its own, whose fault is on.
private final class ToastFamily: FlowFamily {
    static let toast = FlowKind("toast", title: "Toast", lanes: [.app])
    static let kinds = [toast]
    let burns = Mutex(false)

    func run(_ run: FlowRun) async -> FlowResult? { run.result(.success, status: "OK", step: nil, error: nil) }

    func ownFaultsOn(for kind: FlowKind) -> [String] { burns.withLock { $0 } ? ["every slice burns"] : [] }
}
