import Determinism
import Dispatch
import FlowCatalog
import FlowEngine
import Foundation
import IdpFlows
import LegacyFlows
import Simulation
import Testing

/// A flow cancelled while an SDK call waits on the simulated network: what the IdP got, and the next flow.
@Suite struct CancelInFlightTests {
    @Test func theNextFlowDoesNotWaitForARequestTheCancelledOneLeftHanging() throws {
        let clock = ManualClock()
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.aliceActivation])
        service.environment.world.identityFaults.requestTimeout = true
        let first = service.start(.activate)
        #expect(clock.waitForPendingTimers(atLeast: 1))
        service.cancel(flowID: first)
        #expect(service.drive(frontEnd) { frontEnd.results.count == 1 })
        #expect(frontEnd.results.first?.outcome == .cancelled)
        service.environment.world.identityFaults.requestTimeout = false
        // The clock does not move: the cancelled request's 30 s never pass.
        service.start(.activate)
        let second = service.drive(frontEnd, timeout: .seconds(5)) { frontEnd.results.count == 2 }
        #expect(second, "the second activation waits for the first one's hanging request")
        #expect(frontEnd.results.last?.outcome == .success)
    }

    /// A wrong password whose form is on its way to the IdP when the flow is cancelled never arrives: it is not
    /// counted towards the lock, and the log says nothing was sent, truly.
    @Test func aCancelledRequestIsNeverDeliveredNorCounted() throws {
        let clock = ManualClock(countingWork: true)
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil))
        let frontEnd = RecordingFrontEnd.answering([["username": "alice", "password": "wrong", "activation-code": "123456"]])
        service.environment.world.identityFaults.addedLatency = .seconds(1)
        let flow = service.start(.activate)
        // Round trips until the form's answer is on its way: the connection's is let through, then the form is
        // asked for and answered, and its POST waits on the network (the clock stops once the answer is logged).
        let answered = { frontEnd.events.contains { $0.step == .provideCredentials && $0.status == "answered" } }
        #expect(service.settle(frontEnd, clock: clock, until: answered))
        #expect(clock.pendingTimerCount == 1, "the answered form waits on the network")
        service.cancel(flowID: flow)
        service.settle(frontEnd, clock: clock)
        #expect(frontEnd.results.first?.outcome == .cancelled)
        #expect(service.environment.world.identityProvider.failedAttempts(tenantId: "demo", username: "alice") == 0)
        #expect(!frontEnd.events(of: flow).contains { $0.from == .identityProvider && $0.step.rawValue == "POST /authorize" })
        // The log showed the POST leave: it says too that it never arrived, before the cancel.
        let events = frontEnd.events(of: flow)
        let abandoned = try #require(events.firstIndex { $0.status == EngineStatus.abandoned }, "\(events.map(\.step.rawValue))")
        #expect(events[abandoned].step.rawValue == "POST /authorize")
        #expect(events[abandoned].from == .idpSdk && events[abandoned].to == .idpSdk, "the IdpSdk's own note, no message to the IdP")
        // On the thread the request left from, not the cancelling one (the terminal's main).
        #expect(events[abandoned].thread == "IdpSdk", "\(events[abandoned].thread)")
        #expect(events[abandoned].detail.contains("the IdP never got it, so the form counts for nothing (no failed attempt"))
        #expect(abandoned < (events.firstIndex { $0.step == .cancel } ?? -1))
    }

    /// An activation cancelled while its token request is on its way: the note says no tokens came of it, and not
    /// that no code was used (the form before it spent the activation code, as the advice then says).
    @Test func anAbandonedTokenRequestSaysTheActivationCodeStaysSpent() throws {
        let (service, frontEnd, flow, clock) = activationWithItsTokenRequestOnItsWay()
        service.cancel(flowID: flow)
        service.settle(frontEnd, clock: clock)
        let note = try #require(frontEnd.events(of: flow).first { $0.status == EngineStatus.abandoned }, "\(frontEnd.events(of: flow).map(\.step.rawValue))")
        #expect(note.step.rawValue == "POST /token")
        #expect(note.detail == "abandoned on its way by the cancel: the IdP never got it, so no tokens were issued "
            + "(what the IdP took before it stands: an activation code it accepted stays spent)", "\(note.detail)")
        // The result says the real SDKs have no such cancel: an app waits for the call (it read as though they had).
        let result = try #require(frontEnd.results.first)
        #expect(result.summary.row("real SDKs")?.value.hasPrefix("no cancel here: an app waits for SetAuthorisationCode's result") == true,
                "\(String(describing: result.error)) \(String(describing: result.failedStep)) \(result.summary.rows)")
    }

    /// An activation whose token request is on its way (a second's latency, the manual clock stopped there).
    private func activationWithItsTokenRequestOnItsWay() -> (FlowService, RecordingFrontEnd, Int, ManualClock) {
        let clock = ManualClock(countingWork: true)
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        service.environment.world.identityFaults.addedLatency = .seconds(1)
        let flow = service.start(.activate)
        let tokenSent = { frontEnd.events.contains { $0.step.rawValue == "POST /token" && $0.from == .masterController } }
        #expect(service.settle(frontEnd, clock: clock, until: tokenSent))
        return (service, frontEnd, flow, clock)
    }

    /// A signal there leaves the code as spent as an Esc does, and the advice says so: "run the flow again" alone sent
    /// the user to a code already used (the chaos tester's SIGTERM to `run activate`).
    @Test func anActivationInterruptedAfterTheCodeWasAcceptedSaysItIsSpent() throws {
        let (service, frontEnd, flow, clock) = activationWithItsTokenRequestOnItsWay()
        service.cancel(flowID: flow, reason: .signal(SIGTERM))
        service.settle(frontEnd, clock: clock)
        let result = try #require(frontEnd.results.first)
        #expect(result.status == "INTERRUPTED")
        #expect(result.advice?.hasPrefix("The process was ended by a signal before the flow ended. The IdP spent the activation code") == true,
                "\(result.advice ?? "")")
    }

    /// A round trip waiting on the network holds no thread: while the activation's form is on its way, the device's
    /// queue runs other work at once (the IdpSdk's job slept on it until the clock moved).
    @Test func aRoundTripWaitingOnTheNetworkLeavesTheDevicesQueueFree() throws {
        let clock = ManualClock(countingWork: true)
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        service.environment.world.identityFaults.addedLatency = .seconds(1)
        service.start(.activate)
        let answered = { frontEnd.events.contains { $0.step == .provideCredentials && $0.status == "answered" } }
        #expect(service.settle(frontEnd, clock: clock, until: answered))
        #expect(clock.pendingTimerCount == 1, "the answered form waits on the network")
        let ran = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            service.environment.deviceQueue.sync {}
            ran.signal()
        }
        #expect(ran.wait(timeout: .now() + 10) == .success, "the device's queue waited for the clock")
        #expect(clock.pendingTimerCount == 1, "the clock has not moved")
        service.settle(frontEnd, clock: clock)
        #expect(frontEnd.results.first?.outcome == .success)
    }

    /// The Q2 module's sign-in likewise: three wrong passwords cancelled on their way to Core lock nobody.
    @Test func cancelledQ2SignInsAreNeverDeliveredNorCounted() throws {
        let clock = ManualClock(countingWork: true)
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil))
        let wrong = ["username": "alice", "password": "wrong"]
        let frontEnd = RecordingFrontEnd.answering([wrong, wrong, wrong, Demo.alice])
        service.environment.world.identityFaults.addedLatency = .seconds(1)
        for attempt in 1...3 {
            let flow = service.start(.q2Login)
            // The sign-in's prompt is answered as it is delivered; then the request to Core waits on the network.
            #expect(service.drive(frontEnd) { clock.pendingTimerCount > 0 }, "attempt \(attempt)")
            service.cancel(flowID: flow)
            service.settle(frontEnd, clock: clock)
            #expect(frontEnd.results.last?.outcome == .cancelled)
            #expect(!frontEnd.events(of: flow).contains { $0.from == .q2Core }, "Core answered a cancelled request")
            #expect(frontEnd.events(of: flow).contains {
                $0.status == EngineStatus.abandoned && $0.step.rawValue == "POST /mobilews/logonUser" && $0.detail.contains("Q2 Core never got it")
            }, "attempt \(attempt)")
            // The history lists whom the cancelled sign-in was for: the name was typed.
            #expect(try service.history?.list(limit: 1).first?.user == "alice")
        }
        service.environment.world.identityFaults.addedLatency = .zero
        service.start(.q2Login)
        #expect(service.drive(frontEnd) { frontEnd.results.count == 4 })
        #expect(frontEnd.results.last?.outcome == .success, "\(frontEnd.results.last?.error?.message ?? "")")
    }

    /// The request is abandoned by the cancel itself, not later: a clock that passes the latency right after the
    /// cancel, while the engine's side queue is still busy, delivers nothing.
    @Test func aCancelAbandonsTheRequestBeforeTheClockMovesOn() throws {
        let clock = ManualClock(countingWork: true)
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil))
        let frontEnd = RecordingFrontEnd.answering([["username": "alice", "password": "wrong"]])
        service.environment.world.identityFaults.addedLatency = .seconds(1)
        let flow = service.start(.q2Login)
        #expect(service.drive(frontEnd) { clock.pendingTimerCount > 0 })
        let busy = DispatchSemaphore(value: 0)
        service.sideQueue.async { busy.wait() }
        service.cancel(flowID: flow)
        clock.advance(by: .seconds(60))
        // The sign-in's request holds the device's queue while it waits: once the queue is free, the request
        // either went (and Core answered) or was abandoned.
        service.environment.deviceQueue.sync {}
        busy.signal()
        service.settle(frontEnd, clock: clock)
        #expect(frontEnd.results.last?.outcome == .cancelled)
        #expect(!frontEnd.events(of: flow).contains { $0.from == .q2Core }, "Core answered a cancelled request")
    }
}

/// The app knows who the device is activated for: a login's form (the IdpSdk's and KSSIDP's) names that user;
/// an activation's names nobody.
@Suite struct KnownUsernameTests {
    @Test(arguments: [FlowKind.login, .legacyLogin])
    func aLoginsFormNamesTheDevicesUser(kind: FlowKind) throws {
        let service = FlowService(environment: SimulationEnvironment(clock: ManualClock()))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice])
        #expect(service.run(.activate, with: frontEnd)?.outcome == .success)
        #expect(frontEnd.prompts.allSatisfy { ($0.request as? any CredentialForm)?.knownUsername == nil })
        let before = frontEnd.prompts.count
        #expect(service.run(kind, with: frontEnd)?.outcome == .success)
        let login = try #require(frontEnd.prompts.dropFirst(before).first)
        #expect((login.request as? any CredentialForm)?.knownUsername == "alice")
    }
}

/// A KSSIDP activation cancelled while the wrapper's call is under way: the wrapper cannot be stopped, and its one
/// call hides whether the IdP has spent the code yet; the result says so (it said nothing, and the next activation
/// failed with ACTIVATION_CODE_USED).
@Suite struct LegacyCancelInFlightTests {
    /// Interrupted by a signal there, the wrapper's call ends with the process: the advice says the device is not
    /// activated (it said the wrapper may have gone on to activate it, and to log in, which then failed).
    @Test(arguments: [
        (CancelReason.user, "KSSIDP cannot be stopped once called: it may have gone on to activate the device, and the IdP"),
        (.signal(SIGTERM), "The process was ended by a signal before the flow ended. KSSIDP's call ended with the process, so the device is not activated"),
    ])
    func aKSSIDPActivationCancelledInFlightSaysTheCodeMayBeSpent(reason: CancelReason, advice: String) throws {
        let clock = ManualClock()
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        service.environment.world.identityFaults.addedLatency = .seconds(1)
        let flow = service.start(.legacyActivate)
        // The credentials are asked first; the wrapper's first round trip then waits on the clock, which stays.
        #expect(service.drive(frontEnd) { frontEnd.events.contains { $0.step.rawValue == "KssIdpWrapper.activate" } })
        service.cancel(flowID: flow, reason: reason)
        #expect(service.drive(frontEnd) { frontEnd.results.count == 1 })
        let result = try #require(frontEnd.results.first)
        #expect(result.outcome == .cancelled)
        #expect(result.failedStep?.rawValue == "KssIdpWrapper.activate")
        #expect(result.advice?.hasPrefix(advice) == true, "\(result.advice ?? "no advice")")
        // The login's cancel has nothing to spend.
        #expect(LegacyFamily(idp: try #require(service.family(IdpSdkFamily.self))).cancelAdvice(
            for: .legacyLogin, step: FlowStep("KssIdpWrapper.login")) == nil)
    }

    /// What the wrapper goes on to do after the cancel is the cancelled flow's, in its live log: the IdP's answers
    /// and the MC-SDK's requests, the faults that bite them, and the wrapper's answer, which the app no longer waits
    /// for. The IdP's half went missing (it went to the running flow, and there was none), and the answer was
    /// dropped. The history's transcript has it too, after the cancel, once the wrapper has answered (it ended at
    /// the cancel, written with the result).
    @Test func whatTheWrapperDoesAfterTheCancelIsInTheCancelledFlowsLog() throws {
        let clock = ManualClock(countingWork: true)
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        service.environment.world.identityFaults.addedLatency = .seconds(1)
        let flow = service.start(.legacyActivate)
        let called = { frontEnd.events.contains { $0.step.rawValue == "KssIdpWrapper.activate" } }
        #expect(service.settle(frontEnd, clock: clock, until: called))
        service.cancel(flowID: flow)
        let answered = { frontEnd.events.contains { $0.step.rawValue == "KssIdpWrapper.activate" && $0.from == .kssidp } }
        #expect(service.settle(frontEnd, clock: clock, until: answered))
        #expect(frontEnd.results.first?.outcome == .cancelled)

        let events = frontEnd.events(of: flow)
        let cancel = try #require(events.firstIndex { $0.step == .cancel })
        #expect(events[cancel].detail == "cancelled while KssIdpWrapper.activate was in flight; it goes on, and the app ignores its late result")
        let late = events[(cancel + 1)...]
        #expect(late.contains { $0.from == .identityProvider && $0.step.rawValue == "POST /token" && $0.status == "200" })
        #expect(late.contains { $0.from == .masterController && $0.step.rawValue == "POST /token" })
        #expect(late.contains { $0.step == .fault && $0.thread == "MC-SDK" })
        let answer = try #require(late.last)
        #expect(answer.from == .kssidp && answer.to == .app && answer.status == "Success")
        #expect(answer.detail.hasPrefix("after the cancel, unheard by the app: "), "\(answer.detail)")
        #expect(service.statusLine == "logged in as alice")
        // Nothing of it went to another flow, and the app heard no second result.
        #expect(frontEnd.events.allSatisfy { $0.flowID == flow })
        #expect(frontEnd.results.count == 1)

        // Added once the wrapper's call has ended, on the thread that ended it.
        let appended = { (try? service.history?.record(id: 1))??.events.contains { $0.from == "KSSIDP" && $0.to == "App" } == true }
        #expect(service.drive(frontEnd, until: appended))
        let record = try #require(try service.history?.record(id: 1))
        let recorded = record.events.map { "\($0.from)→\($0.to) \($0.step) \($0.status ?? "")" }
        let recordedCancel = try #require(record.events.firstIndex { $0.step == FlowStep.cancel.rawValue }, "\(recorded)")
        #expect(record.events.map(\.sequence) == Array(1...record.events.count), "numbered in order")
        let after = record.events[(recordedCancel + 1)...]
        #expect(after.contains { $0.from == "IdP" && $0.step == "POST /token" && $0.status == "200" }, "\(recorded)")
        #expect(after.last?.from == "KSSIDP" && after.last?.status == "Success", "\(recorded)")
        #expect(after.last?.detail.hasPrefix("after the cancel, unheard by the app: ") == true)
        // Exactly what the live log showed after the cancel.
        #expect(after.map(\.detail) == late.map(\.detail))
    }

    /// The next flow waits for the wrapper's call, which its SDK calls would meet halfway: a login started at once
    /// sent its GetAstClientData while the wrapper's activation ran, which replaced the wrapper's client data, and
    /// both failed. Waiting, it says for what; started after the wrapper's answer, it logs in as the user the
    /// wrapper activated. A cancel ends the wait at once.
    @Test func theNextFlowWaitsForTheWrappersCallAndACancelEndsTheWait() throws {
        let clock = ManualClock(countingWork: true)
        let service = FlowService(environment: SimulationEnvironment(clock: clock), configuration: FlowConfiguration(promptTimeout: nil))
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice])
        service.environment.world.identityFaults.addedLatency = .seconds(1)
        let activation = service.start(.legacyActivate)
        let called = { frontEnd.events.contains { $0.step.rawValue == "KssIdpWrapper.activate" } }
        #expect(service.settle(frontEnd, clock: clock, until: called))
        service.cancel(flowID: activation)
        #expect(service.drive(frontEnd) { frontEnd.results.count == 1 })

        // A cancel while it waits: it ends before it starts, the wrapper still at work.
        let cancelled = service.start(.login)
        #expect(service.drive(frontEnd) { frontEnd.events(of: cancelled).contains { $0.step == .waitingForFlow } })
        #expect(frontEnd.events(of: cancelled).first?.detail == "KssIdpWrapper.activate of flow \(activation), which its cancel could not stop")
        service.cancel(flowID: cancelled)
        #expect(service.drive(frontEnd) { frontEnd.results.count == 2 })
        #expect(frontEnd.results.last?.outcome == .cancelled)
        #expect(!frontEnd.events.contains { $0.from == .kssidp && $0.to == .app }, "the wrapper has not answered yet")

        let login = service.start(.login)
        let answered = { frontEnd.results.count == 3 }
        #expect(service.settle(frontEnd, clock: clock, until: answered))
        #expect(frontEnd.results.last?.outcome == .success, "\(String(describing: frontEnd.results.last))")
        let wrapperAnswer = try #require(frontEnd.events.firstIndex { $0.from == .kssidp && $0.to == .app })
        let loginStart = try #require(frontEnd.events.firstIndex { $0.flowID == login && $0.step == .start })
        #expect(wrapperAnswer < loginStart, "the login's Start comes after the wrapper's answer")
        #expect(frontEnd.events[wrapperAnswer].status == "Success")
    }
}
