import Determinism
@testable import FlowEngine
import Foundation
import IdentityProvider
import IdpSdk
import Secrets
import Testing

/// A front end for tests: records everything and answers prompts with a script.
final class RecordingFrontEnd: FlowFrontEnd {
    var events: [FlowEvent] = []
    var prompts: [FlowPrompt] = []
    var results: [FlowResult] = []
    /// Answers each prompt; nil leaves it open.
    var answer: (FlowPrompt) -> PromptAnswer?

    init(answer: @escaping (FlowPrompt) -> PromptAnswer? = { _ in nil }) {
        self.answer = answer
    }

    /// Answers from a list, one dictionary per flow in order of flow id.
    static func answering(_ perFlow: [[String: String]]) -> RecordingFrontEnd {
        RecordingFrontEnd { prompt in
            let answers = perFlow[min(prompt.flowID - 1, perFlow.count - 1)]
            var values: [String: Secret] = [:]
            for field in prompt.fields { values[field.key] = answers[field.key].map { Secret($0) } }
            return .credentials(values)
        }
    }

    func flowService(_ service: FlowService, didEmit event: FlowEvent) { events.append(event) }

    func flowService(_ service: FlowService, needsAnswerTo prompt: FlowPrompt) {
        prompts.append(prompt)
        if let answer = answer(prompt) { service.answer(prompt, with: answer) }
    }

    func flowService(_ service: FlowService, didFinish result: FlowResult) { results.append(result) }

    func events(of flowID: Int) -> [FlowEvent] { events.filter { $0.flowID == flowID } }
}

extension FlowService {
    /// Delivers messages until `condition` holds; false if it does not within `timeout` of real time.
    @discardableResult
    func drive(_ frontEnd: RecordingFrontEnd, timeout: Duration = .seconds(20), until condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            if mailbox.waitForMessages(timeout: .milliseconds(100)) { deliverPendingMessages(to: frontEnd) }
        }
        return true
    }

    /// Runs until nothing is left to happen, as a test's event loop would: the simulation runs everything it can
    /// (``PendingWork``: the clock must be `ManualClock(countingWork: true)`), then its messages are delivered (the
    /// front end may answer a prompt), then the clock moves to its next deadline (abandoned work asleep on the
    /// simulated network wakes, a prompt's timeout fires), and again, until nothing runs, nothing is delivered and
    /// no timer is left. No poll and no quiet window: it knows when the simulation is waiting for it. A flow left
    /// at a prompt it does not answer, with no timeout, is quiet too. A flow still running when all is quiet waits
    /// on something nothing counts, and is awaited through the mailbox.
    ///
    /// With `condition`, it stops as soon as the condition holds once the simulation is quiet and its messages
    /// are delivered, before the clock moves again: "run until the form is answered and its request is waiting on
    /// the network". Returns whether the condition holds.
    @discardableResult
    func settle(_ frontEnd: RecordingFrontEnd, clock: ManualClock, until condition: () -> Bool = { false },
                sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let pending = clock.pendingWork else {
            Issue.record("settle needs ManualClock(countingWork: true)", sourceLocation: sourceLocation)
            return false
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            guard pending.waitUntilNone(timeout: ContinuousClock.now.duration(to: deadline)) else { break }
            if deliverPendingMessages(to: frontEnd) > 0 { continue }
            if condition() { return true }
            if clock.advanceToNextDeadline() { continue }
            if activeFlowCount == 0 || channel.openPromptCount > 0 { return false }
            _ = mailbox.waitForMessages(timeout: ContinuousClock.now.duration(to: deadline))
        }
        // Counted work that cannot run: waiting for something nothing counts (a wait a cancel should have abandoned).
        Issue.record("""
            not quiet after 20 s: \(pending.count) counted still to run, \(activeFlowCount) flows, \(clock.pendingTimerCount) timers
            """, sourceLocation: sourceLocation)
        return false
    }

    /// Runs one flow to its end and returns its result.
    func run(_ kind: FlowKind, with frontEnd: RecordingFrontEnd) -> FlowResult? {
        let before = frontEnd.results.count
        start(kind)
        guard drive(frontEnd, until: { frontEnd.results.count > before }) else { return nil }
        return frontEnd.results.last
    }
}

enum Demo {
    static let aliceActivation = ["username": "alice", "password": "wonderland", "activation-code": "123456"]
    static let alice = ["username": "alice", "password": "wonderland"]
    static let bob = ["username": "bob", "password": "builder"]
    static let secrets = ["wonderland", "123456", "builder", "654321"]
}
