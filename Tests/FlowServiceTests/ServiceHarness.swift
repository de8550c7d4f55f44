import Determinism
import FlowEngine
import Foundation
import IdentityProvider
import IdpSdk
import Secrets

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

    /// Runs until nothing is left to happen: every queue of the device and the service has run what it holds,
    /// the clock has passed every deadline still pending (abandoned work sleeping on the simulated network),
    /// and every message has been delivered, and no flow is left whose end is still to be reported (a payment's
    /// cancel awaits its view's disposal on the main queue, holding no queue meanwhile). It ends when a round finds
    /// nothing to do, not after a fixed time; a flow left waiting at a prompt with no timeout stops it after 20 s.
    func settle(_ frontEnd: RecordingFrontEnd, clock: ManualClock) {
        var quietRounds = 0
        let deadline = ContinuousClock.now + .seconds(20)
        while quietRounds < 2 {
            var idle = activeFlowCount == 0 || ContinuousClock.now > deadline
            for queue in [environment.deviceQueue, sideQueue] {
                let drained = DispatchSemaphore(value: 0)
                queue.async { drained.signal() }
                // Work that waits on the clock holds its queue until the clock passes its deadline.
                while drained.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
                    idle = false
                    if clock.pendingTimerCount > 0 { clock.advance(by: .seconds(60)) }
                }
            }
            if clock.pendingTimerCount > 0 {
                idle = false
                clock.advance(by: .seconds(60))
            }
            if deliverPendingMessages(to: frontEnd) > 0 { idle = false }
            // A flow's end still to come (from the main queue, a timer): wait for a message rather than spin.
            if !idle && activeFlowCount > 0 { _ = mailbox.waitForMessages(timeout: .milliseconds(5)) }
            quietRounds = idle ? quietRounds + 1 : 0
        }
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
