import FlowEngine
import FlowRecords
import Foundation
import IdentityProvider
import Secrets

#if canImport(Glibc)
    import Glibc
#endif

/// The headless front end: runs flows in order on one simulated device, answers prompts from the answers
/// document, and writes one JSON line per event and per result. What a family's prompts and answers need beyond
/// credential forms is its ``FamilyAnswering``.
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
    /// Each family's answer decoding, in ``AnswerFamilies/all``'s order.
    private let families: [any FamilyAnswering]
    /// Whether this flow has asked anything: answers it never asked for are noted when it ends.
    private var asked = false
    /// The credential fields this flow's forms asked for: a success that never asked for a key given is noted.
    private var askedKeys: Set<String> = []
    /// The faults of the scenario and the command line, which every flow starts from.
    private lazy var baseFaults = (identity: service.world.identityFaults, bridge: service.world.bridgeFaults)
    /// A card form answer held back for the answers' `delay`.
    /// `first`: what the cardholder does elsewhere just before (an out-of-band decision on the other device).
    private var delayed: (prompt: FlowPrompt, answer: PromptAnswer, due: ContinuousClock.Instant, first: (() -> Void)?)?
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `answers` holds one entry per flow; `write` receives each output line without its newline.
    /// `stopsBefore`: asked before each flow after the first; true ends the run there (a state file found damaged).
    private let stopsBefore: () -> Bool

    public init(service: FlowService, flows: [FlowKind], answers: [FlowAnswers], stopsBefore: @escaping () -> Bool = { false },
                write: @escaping (String) -> Void) {
        precondition(answers.count == flows.count, "one answers object per flow")
        self.stopsBefore = stopsBefore
        self.service = service
        self.flows = flows
        self.answers = answers
        self.write = write
        families = AnswerFamilies.all.map { $0.init(service: service) }
    }

    /// Runs every flow and returns the exit status: 0 all succeeded, 1 one failed, 3 one was cancelled (and
    /// none failed). Throws the usage error that stopped the run, such as a missing answer.
    /// `beforeFirstFlow` runs once the answers are known to fit, before anything runs.
    public func run(beforeFirstFlow: () throws(UsageError) -> Void = {}) throws(UsageError) -> Int32 {
        try checkAnswersBeforeRunning()
        try beforeFirstFlow()
        // On the main thread, the main queue runs here between messages: the Drops delegate calls back there.
        service.mailbox.serveMainQueue()
        // A signal (a CI job cancelled, Ctrl-C) interrupts the flow under way: its SDK is told as for an abort (a
        // challenge's ACS hears challengeCancel 06, not the cardholder's 01), its history says INTERRUPTED and by
        // which signal, and the process ends once its record is in the history, as the terminal
        // UI's does: a second for the flow to end through its SDK, then the call it awaits is ended at once, and a
        // second more (the loop below goes on running the main queue, where a payment ends). No flow starts after
        // it, and no line is printed.
        let service = service
        ProcessOutput.whenStopping {
            guard service.activeFlowCount > 0 else { return }
            service.cancelAll(ProcessOutput.stoppingSignal.map(CancelReason.signal) ?? .user)
            // Nothing more waits for another process's lock, as in the terminal UI: a store waiting at the signal
            // (the device's, after the IdP issued tokens) went on once the lock was free and committed, the device
            // activated under a flow recorded as interrupted, its advice "run the flow again" (the chaos tester).
            service.history?.stopWaitingForLock()
            func waitForIdle(_ seconds: Int) -> Bool {
                let deadline = ContinuousClock.now + .seconds(seconds)
                while service.activeFlowCount > 0 && ContinuousClock.now < deadline { usleep(1_000) }
                return service.activeFlowCount == 0
            }
            if !waitForIdle(1) {
                service.stopAwaitedCalls()
                _ = waitForIdle(1)
            }
            // Whether the records were kept, for the line said at the end, from the service: the main loop may not
            // have taken the results yet (the flow stops counting as active before its result is posted).
            for line in service.notSavedLines { ProcessOutput.noteUnsavedFlow(line) }
        }
        defer { ProcessOutput.whenStopping(nil) }
        startNext()
        while currentFlowID != nil {
            _ = service.mailbox.waitForMessages(timeout: delayed.map { max(.zero, $0.due - .now) })
            service.deliverPendingMessages(to: self)
            if let held = delayed, ContinuousClock.now >= held.due {
                delayed = nil
                held.first?()
                service.answer(held.prompt, with: held.answer)
            }
        }
        if let usageError { throw usageError }
        if outcomes.contains(.failure) { return Exit.failure }
        if outcomes.contains(.cancelled) { return Exit.cancelled }
        return Exit.success
    }

    /// The answers a flow cannot use, found before any flow starts: exit 2 then means that nothing ran.
    private func checkAnswersBeforeRunning() throws(UsageError) {
        let plan = AnswerPlan(flows: flows, answers: answers, baseFaults: baseFaults)
        for (position, kind) in flows.enumerated() {
            try checkFaults(answers[position], of: kind, at: plan.place(position))
        }
        for stage in AnswerCheck.allCases {
            for (position, kind) in flows.enumerated() where !answers[position].cancel {
                try answering(kind)?.check(plan, at: position, stage)
            }
        }
    }

    private func startNext() {
        guard usageError == nil, index < flows.count, !ProcessOutput.isStopped, index == 0 || !stopsBefore() else {
            currentFlowID = nil
            return
        }
        answering(flows[index])?.flowStarts()
        asked = false
        askedKeys = []
        // Faults an answer sets (on or off) hold for its flow only.
        let faults = answers[index].faults(over: baseFaults)
        service.world.updateFaults { $0 = faults.identity; $1 = faults.bridge }
        service.switchOnHeldFaults()
        currentFlowID = service.start(flows[index])
    }

    var place: String { flows.count == 1 ? "answers" : "answers[\(index)]" }

    /// The answer decoding of `kind`'s family.
    private func answering(_ kind: FlowKind) -> (any FamilyAnswering)? {
        families.first { type(of: $0).kinds.contains(kind) }
    }

    /// Refuses an answer's fault that would do nothing, as a bridge fault outside a payment is refused: one switched
    /// on that cannot reach the flow (an IdP fault in a payment), or one switched off that a family's setting holds
    /// on for the whole run (`insecureDevice: false` under `--insecure-device`). Both were taken and ignored.
    private func checkFaults(_ given: FlowAnswers, of kind: FlowKind, at place: String) throws(UsageError) {
        guard let members = given.faultsGiven?.members else { return }
        func position(_ key: String) -> String { members.first { $0.key == key }.map { " (\($0.value.position))" } ?? "" }
        let switched = given.faults(over: baseFaults).identity
        let keys = service.faultKeys(reaching: kind)
        let reaching = IdentityFaults.Fault.allCases.filter { keys.contains($0.key) }
        for fault in IdentityFaults.Fault.allCases
        where !reaching.contains(fault) && switched.isOn(fault) && !baseFaults.identity.isOn(fault) {
            let article = "aeiou".contains(kind.rawValue.first ?? "x") ? "an" : "a"
            let those = reaching.isEmpty ? "no identity fault can" : "those that can: \(reaching.map(\.key).joined(separator: ", "))"
            throw UsageError(
                "\(place) (\(kind.rawValue)) switches on \"faults.\(fault.key)\", which cannot reach \(article) \(kind.rawValue) flow (\(those))\(position(fault.key))")
        }
        for held in service.heldFaults where members.contains(where: { $0.key == held.key })
            && IdentityFaults.Fault.allCases.contains(where: { $0.key == held.key && !switched.isOn($0) }) {
            throw UsageError("\(place).faults.\(held.key) is false, but \(held.heldBy) for the whole run\(position(held.key))")
        }
    }

    /// Stops the run with a usage error, and aborts the flow at the prompt: its history says `ABORTED_BAD_INPUT`
    /// with the message (which names places, never values), not a user's cancel.
    func refuse(_ prompt: FlowPrompt, _ message: String) {
        usageError = UsageError(message)
        service.answer(prompt, with: .cancel(.badInput(message)))
    }

    // MARK: FlowFrontEnd

    public func flowService(_ service: FlowService, didEmit event: FlowEvent) {
        emit("event", event)
    }

    public func flowService(_ service: FlowService, needsAnswerTo prompt: FlowPrompt) {
        let given = answers[index]
        asked = true
        let family = answering(prompt.flow)
        if given.cancel {
            answer(prompt, with: .cancel, after: family?.delayBeforeCancelling(prompt, given) ?? .zero)
            return
        }
        if family?.answer(prompt, given, through: self) == true { return }
        if prompt.request is any CredentialForm {
            answerCredentials(prompt, given)
        } else {
            refuse(prompt, "\(place) (\(prompt.flow)): the runner cannot answer this prompt")
        }
    }

    private func answerCredentials(_ prompt: FlowPrompt, _ given: FlowAnswers) {
        askedKeys.formUnion(prompt.fields.map(\.key))
        var values: [String: Secret] = [:]
        for field in prompt.fields {
            guard let value = given.values[field.key] else {
                let asker = answering(prompt.flow).flatMap { type(of: $0).asker(of: prompt) }
                refuse(prompt, FlowAnswers.missing(field, prompt.flow, asker: asker, at: place, given).message)
                return
            }
            values[field.key] = value
        }
        service.answer(prompt, with: .credentials(values))
    }

    /// Answers `prompt` now, or holds the answer back for `delay` (the cardholder's time over a card form or a
    /// challenge screen).
    func answer(_ prompt: FlowPrompt, with answer: PromptAnswer, after delay: Duration, first: (() -> Void)? = nil) {
        if delay > .zero {
            delayed = (prompt, answer, .now + delay, first)
        } else {
            first?()
            service.answer(prompt, with: answer)
        }
    }

    public func flowService(_ service: FlowService, didFinish result: FlowResult) {
        delayed = nil
        // A flow stopped by bad answers still ends with its result line, as the history has it (cancelled,
        // ABORTED_BAD_INPUT): a script counting result lines counted one short (a tester). Exit 2 and the one line on
        // stderr say why; no later flow runs, and the notes below are left out.
        emit("result", result)
        // Only of a result printed: an abandoned flow's run ends with 2, its usage error said.
        if usageError == nil, let unsaved = result.notSavedLine { ProcessOutput.noteUnsavedFlow(unsaved) }
        if usageError == nil, !asked, let unused = Self.unusedAnswers(answers[index], result) {
            writeErrorLine("idp-tui: run: \(place) (\(result.flow.rawValue)): \(unused)")
        }
        // A success whose forms never asked for a key given (`new-password` where no page asks for it): the script
        // may count on a step that did not happen. Only after forms were answered (a Q2 auto-login's fallback
        // username and password are documented as unused), and only of a success (a failure stops before the rest).
        let unasked = answers[index].values.keys.filter { !askedKeys.contains($0) }.sorted()
        if usageError == nil, result.outcome == .success, !askedKeys.isEmpty, !unasked.isEmpty {
            let names = unasked.map { "\"\($0)\"" }.joined(separator: ", ")
            writeErrorLine("idp-tui: run: \(place) (\(result.flow.rawValue)): \(names) not used: no form of the flow asked for \(unasked.count == 1 ? "it" : "them")")
        }
        if usageError == nil, let family = answering(result.flow) {
            for note in family.notes(on: result, answers[index]) {
                writeErrorLine("idp-tui: run: \(place) (\(result.flow.rawValue)): \(note)")
            }
        }
        outcomes.append(result.outcome)
        index += 1
        startNext()
    }

    /// What a flow that asked nothing left of its answers, when the script may have counted on it: a `cancel` that
    /// cancelled nothing, or credentials a success never used (a login after a logout that OfflineLogin completed:
    /// a wrong password "passed"). Keys only, never values; nil when nothing was given for a prompt.
    static func unusedAnswers(_ given: FlowAnswers, _ result: FlowResult) -> String? {
        // A logout never asks: its `cancel` is documented to change nothing.
        guard result.flow.asksTheUser else { return nil }
        let why = result.offline
            ? "OfflineLogin logged the device's user in without asking (after a logout, a device keeps an offline token when its last online login used --auth-mode pin, password or biometric, maybe in an earlier run on this state file; no keeps none)"
            : "the flow ended without asking for anything"
        let cancel = given.cancel && result.outcome != .cancelled ? ["cancel"] : []
        let typed = result.outcome == .success ? given.values.keys.sorted() : []
        guard !(cancel + typed).isEmpty else { return nil }
        return "\((cancel + typed).map { "\"\($0)\"" }.joined(separator: ", ")) not used: \(why)"
    }

    private func emit(_ type: String, _ value: some Encodable) {
        guard let data = try? encoder.encode(value) else { return }
        let body = String(decoding: data.dropFirst(), as: UTF8.self)
        // A crafted state file's device (its user, its astClientId) reaches events and results: DEL and C1, which
        // JSONEncoder writes raw, are written as `\u` escapes too, as `history --json` writes them.
        write(VisibleText.escapedInJSON("{\"type\":\"\(type)\"," + body))
    }
}
