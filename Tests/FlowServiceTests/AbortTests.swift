import Determinism
import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import PaymentFlows
import Q2Flows
import Secrets
import Simulation
import Testing

/// A front end that aborts a flow because its input cannot answer (``CancelReason/badInput(_:)``): the flow ends
/// `cancelled` with `ABORTED_BAD_INPUT`, in its result, its events and its history, never as the user's cancel.
@Suite struct FlowAbortTests {
    let clock = ManualClock(countingWork: true)
    let why = "answers has no \"activation-code\""

    func service(_ environment: SimulationEnvironment? = nil) -> FlowService {
        FlowService(environment: environment ?? SimulationEnvironment(clock: clock), configuration: FlowConfiguration())
    }

    @Test(arguments: [
        (FlowKind.activate, CancelReason.badInput("no answer"), "ABORTED_BAD_INPUT"), (.activate, .user, "USER_CANCEL"),
        (.legacyActivate, .badInput("no answer"), "ABORTED_BAD_INPUT"), (.legacyActivate, .user, "USER_CANCEL"),
        (.q2Login, .badInput("no answer"), "ABORTED_BAD_INPUT"), (.q2Login, .user, "USER_CANCEL"),
        (.payerAuth, .badInput("no answer"), "ABORTED_BAD_INPUT"), (.payerAuth, .user, "USER_CANCEL"),
    ])
    func aCancelAtTheFirstPromptEndsWithItsReasonsStatus(kind: FlowKind, reason: CancelReason, status: String) throws {
        let service = service()
        let frontEnd = RecordingFrontEnd { _ in .cancel(reason) }
        let result = try #require(service.run(kind, with: frontEnd))
        #expect(result.outcome == .cancelled)
        #expect(result.status == status)
        #expect(try service.history?.list(limit: 1).first?.status == status)
        let statuses = Set(frontEnd.events(of: result.flowID).compactMap(\.status))
        #expect(statuses.contains(status))
        #expect(!statuses.contains(status == "USER_CANCEL" ? "ABORTED_BAD_INPUT" : "USER_CANCEL"))
        if case .badInput = reason {
            #expect(result.error?.message.hasPrefix("aborted for bad input: no answer") == true, "\(result.error?.message ?? "")")
            #expect(result.advice == EngineStatus.abortedBadInputAdvice)
        }
    }

    @Test func anAbortOnTheActivationCodePageTellsTheSdkUserCancelledButTheHistoryAnAbort() throws {
        let service = service()
        let frontEnd = RecordingFrontEnd { [why] prompt in
            prompt.fields.contains { $0.key == "activation-code" }
                ? .cancel(.badInput(why)) : .credentials(["username": Secret("alice"), "password": Secret("wonderland")])
        }
        let result = try #require(service.run(.activate, with: frontEnd))
        #expect(result.status == "ABORTED_BAD_INPUT")
        // The SDK's API has one cancel: it completed with the app's "User cancelled", which the error keeps.
        #expect(result.error == FlowError(subsystem: 1000, code: 1, message: "aborted for bad input: \(why) (the SDK was told: User cancelled)"))
        #expect(!frontEnd.events.contains { $0.step == .setAuthorisationCode })
        let record = try #require(try service.history?.record(id: 1))
        #expect(record.summary.outcome == .cancelled && record.summary.status == "ABORTED_BAD_INPUT")
        #expect(record.resultJSON.contains(#""status":"ABORTED_BAD_INPUT""#))
        #expect(record.events.contains { $0.step == "provideCredentials" && $0.status == "ABORTED_BAD_INPUT" })
        #expect(!record.events.contains { $0.status == "USER_CANCEL" })
    }

    /// A signal at the IdP's prompt is said as one at the prompt's event too: it said "aborted for bad input" for
    /// every reason but the user's (the chaos tester's SIGTERM at the activation code).
    @Test func aSignalAtThePromptIsSaidAsOne() throws {
        let service = service()
        let frontEnd = RecordingFrontEnd { _ in .cancel(.signal(SIGTERM)) }
        let result = try #require(service.run(.activate, with: frontEnd))
        #expect(result.status == "INTERRUPTED")
        let prompt = try #require(frontEnd.events(of: result.flowID).last { $0.step == .provideCredentials })
        #expect(prompt.detail == "interrupted by SIGTERM; the SDK is told error 1000/1: User cancelled", "\(prompt.detail)")
    }

    @Test func anAbortWhileAStepIsInFlightIsAnAbort() throws {
        let environment = SimulationEnvironment(clock: clock)
        environment.world.network.latency = .seconds(2)
        let service = service(environment)
        let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation])
        let id = service.start(.activate)
        #expect(clock.waitForPendingTimers(atLeast: 1))
        service.cancel(flowID: id, reason: .badInput(why))
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        let result = try #require(frontEnd.results.first)
        #expect(result.outcome == .cancelled)
        #expect(result.status == "ABORTED_BAD_INPUT")
        #expect(result.error?.message.contains("aborted while getAuthorizationCode was in flight") == true)
        #expect(frontEnd.events.contains { $0.step == .cancel && $0.status == "ABORTED_BAD_INPUT" })
        service.settle(frontEnd, clock: clock)
    }

    @Test func anAbortOnAChallengeIsATransactionErrorNotTheCardholdersCancel() throws {
        let frontEnd = paying("4000000000002503", actions: [code("9876"), .cancel(.badInput("answers.otp has 1 code"))])
        let result = try #require(service().run(.payerAuth, with: frontEnd))
        #expect(result.outcome == .cancelled)
        #expect(result.status == "ABORTED_BAD_INPUT")
        #expect(result.failedStep == .challengeScreen)
        #expect(result.payment?.challengeCancel == "06")
        #expect(result.payment?.transStatus == "U")
        let creqs = frontEnd.events(of: result.flowID).filter { $0.step.rawValue == "CReq" }.compactMap(\.message)
        #expect(creqs.contains { $0.contains(#""challengeCancel":"06""#) })
        #expect(!creqs.contains { $0.contains(#""challengeCancel":"01""#) })
        #expect(result.advice == EngineStatus.abortedBadInputAdvice)
    }

    @Test func abortingThePaymentAtAChallengeSendsATransactionError() throws {
        let service = service()
        let frontEnd = paying("4000000000002503")
        let id = service.start(.payerAuth)
        #expect(service.drive(frontEnd) { !frontEnd.challengeScreens.isEmpty })
        service.cancel(flowID: id, reason: .badInput("the input ended"))
        #expect(service.drive(frontEnd) { !frontEnd.results.isEmpty })
        #expect(frontEnd.results.first?.status == "ABORTED_BAD_INPUT")
        #expect(frontEnd.results.first?.payment?.challengeCancel == "06")
    }
}
