import FlowService
import Foundation
import Secrets

#if canImport(Glibc)
    import Glibc
#endif

/// The headless front end: runs flows in order on one simulated device, answers prompts from the answers
/// document, and writes one JSON line per event and per result.
public final class HeadlessRunner: FlowFrontEnd {
    /// Exit statuses.
    public enum Exit {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        public static let cancelled: Int32 = 3
    }

    private let service: FlowService
    private let flows: [FlowKind]
    private let answers: [FlowAnswers]
    private let write: (String) -> Void
    private var index = 0
    private var currentFlowID: Int?
    private var outcomes: [FlowOutcome] = []
    private var usageError: UsageError?
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `answers` holds one entry per flow; `write` receives each output line without its newline.
    public init(service: FlowService, flows: [FlowKind], answers: [FlowAnswers], write: @escaping (String) -> Void) {
        precondition(answers.count == flows.count, "one answers object per flow")
        self.service = service
        self.flows = flows
        self.answers = answers
        self.write = write
    }

    /// Runs every flow and returns the exit status: 0 all succeeded, 1 one failed, 3 one was cancelled (and
    /// none failed). Throws the usage error that stopped the run, such as a missing answer.
    public func run() throws(UsageError) -> Int32 {
        startNext()
        while currentFlowID != nil {
            _ = service.mailbox.waitForMessages()
            service.deliverPendingMessages(to: self)
        }
        if let usageError { throw usageError }
        if outcomes.contains(.failure) { return Exit.failure }
        if outcomes.contains(.cancelled) { return Exit.cancelled }
        return Exit.success
    }

    private func startNext() {
        guard usageError == nil, index < flows.count else {
            currentFlowID = nil
            return
        }
        currentFlowID = service.start(flows[index])
    }

    // MARK: FlowFrontEnd

    public func flowService(_ service: FlowService, didEmit event: FlowEvent) {
        emit("event", event)
    }

    public func flowService(_ service: FlowService, needsAnswerTo prompt: CredentialPrompt) {
        let given = answers[index]
        if given.cancel {
            service.answer(prompt, with: .cancel)
            return
        }
        var values: [String: Secret] = [:]
        for field in prompt.fields {
            guard let value = given.values[field.key] else {
                let place = flows.count == 1 ? "answers" : "answers[\(index)]"
                usageError = UsageError(
                    "\(place) (\(prompt.flow.rawValue)) has no \"\(field.key)\", which the identity provider asks for on page \(prompt.page) of \(prompt.pageCount)")
                service.answer(prompt, with: .cancel)
                return
            }
            values[field.key] = value
        }
        service.answer(prompt, with: .credentials(values))
    }

    public func flowService(_ service: FlowService, didFinish result: FlowResult) {
        emit("result", result)
        outcomes.append(result.outcome)
        index += 1
        startNext()
    }

    private func emit(_ type: String, _ value: some Encodable) {
        guard let data = try? encoder.encode(value) else { return }
        let body = String(decoding: data.dropFirst(), as: UTF8.self)
        write("{\"type\":\"\(type)\"," + body)
    }
}
