import DropsWeb
import FlowEngine
import FlowRecords
import Foundation
import IdentityProvider
import LegacyFlows
import PaymentFlows
import Q2Flows
import SafepayDropsSDK
import Secrets
import ThreeDSecure

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
    /// This flow's progress through its payment answers.
    private var payment = PaymentProgress()
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
    public init(service: FlowService, flows: [FlowKind], answers: [FlowAnswers], write: @escaping (String) -> Void) {
        precondition(answers.count == flows.count, "one answers object per flow")
        self.service = service
        self.flows = flows
        self.answers = answers
        self.write = write
    }

    /// Runs every flow and returns the exit status: 0 all succeeded, 1 one failed, 3 one was cancelled (and
    /// none failed). Throws the usage error that stopped the run, such as a missing answer.
    /// `beforeFirstFlow` runs once the answers are known to fit, before anything runs.
    public func run(beforeFirstFlow: () throws(UsageError) -> Void = {}) throws(UsageError) -> Int32 {
        try checkAnswersBeforeRunning()
        try beforeFirstFlow()
        // On the main thread, the main queue runs here between messages: the Drops delegate calls back there.
        service.mailbox.serveMainQueue()
        // A signal (a CI job cancelled, Ctrl-C) cancels the flow under way, as Esc would (a challenge on screen sends
        // the ACS its challengeCancel 01), and the process ends once its record is in the history, as the terminal
        // UI's does: a second for the flow to end through its SDK, then the call it awaits is ended at once, and a
        // second more (the loop below goes on running the main queue, where a payment ends). No flow starts after
        // it, and no line is printed.
        let service = service
        ProcessOutput.whenStopping {
            guard service.activeFlowCount > 0 else { return }
            service.cancelAll()
            func waitForIdle(_ seconds: Int) -> Bool {
                let deadline = ContinuousClock.now + .seconds(seconds)
                while service.activeFlowCount > 0 && ContinuousClock.now < deadline { usleep(1_000) }
                return service.activeFlowCount == 0
            }
            if !waitForIdle(1) {
                service.stopAwaitedCalls()
                _ = waitForIdle(1)
            }
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
        for (position, kind) in flows.enumerated() {
            let place = flows.count == 1 ? "answers" : "answers[\(position)]"
            try checkFaults(answers[position], of: kind, at: place)
            // An auto-login with nothing to type in instead, that cannot happen whatever the earlier flows do: no
            // q2-login before it to save a credential (none is saved when a run starts), or a push launch.
            let given = answers[position]
            if kind == .q2Login, given.autoLogin, !given.cancel, given.values["username"] == nil, given.values["password"] == nil,
                !autoLoginMayHappen(at: position)
            {
                throw UsageError(Self.autoLoginRefused(at: place, savedCredential: flows[..<position].contains(.q2Login), given))
            }
        }
        // The forms whose fields are fixed: the Q2 sign-in screen's (unless auto-login is asked for, which depends
        // on what earlier flows saved) and a KSSIDP app's, which collects every field first (unless the device is
        // insecure: StartEvent then fails before it asks). The IdP's forms are the scenario's, checked as they come.
        for (position, kind) in flows.enumerated() where !answers[position].cancel {
            let given = answers[position]
            // An auto-login that cannot happen types the answers in: they need both fields.
            let fields = kind == .q2Login && (!given.autoLogin || !autoLoginMayHappen(at: position)) ? Q2SignIn.fields
                : LegacyFamily.kinds.contains(kind) && !given.faults(over: baseFaults).identity.insecureDevice
                    ? LegacyFamily.credentialFields(for: kind) : []
            if let missing = fields.first(where: { given.values[$0.key] == nil }) {
                throw Self.missing(missing, kind, asker: Self.asker(kind), at: flows.count == 1 ? "answers" : "answers[\(position)]", given)
            }
        }
        guard let payments = service.family(PaymentFamily.self) else { return }
        for (position, kind) in flows.enumerated() where PaymentFamily.kinds.contains(kind) && !answers[position].cancel {
            let place = flows.count == 1 ? "answers" : "answers[\(position)]"
            // With a fault that ends the payment before any challenge, the challenge's answers are not needed.
            let faults = answers[position].faults(over: baseFaults)
            let noChallenge = faults.bridge.threeDS.directoryServer != nil || faults.identity.networkUnavailable
                || faults.identity.requestTimeout
            try answers[position].payment.check(
                payments.settings.paymentDefaults, issuer: service.world.accessControlServer, challengeMayCome: !noChallenge, at: place)
        }
    }

    private func startNext() {
        guard usageError == nil, index < flows.count, !ProcessOutput.isStopped else {
            currentFlowID = nil
            return
        }
        payment = PaymentProgress()
        asked = false
        askedKeys = []
        // Faults an answer sets (on or off) hold for its flow only.
        let faults = answers[index].faults(over: baseFaults)
        var identity = faults.identity
        // `--insecure-device` holds for the whole session, as Q2's security module says: an answer does not switch
        // the device sound again for the MC-SDK alone.
        if service.q2.settings.insecureDeviceReason != nil { identity.insecureDevice = true }
        service.world.updateFaults { $0 = identity; $1 = faults.bridge }
        currentFlowID = service.start(flows[index])
    }

    private var place: String { flows.count == 1 ? "answers" : "answers[\(index)]" }

    /// Whether the q2-login at `position` may sign in with a saved credential: one saved by a q2-login earlier in
    /// the run (none is saved when a run starts), on a launch whose `shouldAllowAutoLogin()` is true.
    private func autoLoginMayHappen(at position: Int) -> Bool {
        flows[..<position].contains(.q2Login) && service.q2.settings.launch != .push
    }

    /// Why `"autoLogin": true` with no user name or password cannot sign in: no credential saved yet, or a launch
    /// whose `shouldAllowAutoLogin()` is false.
    static func autoLoginRefused(at place: String, savedCredential: Bool, _ given: FlowAnswers) -> String {
        let why = savedCredential
            ? "shouldAllowAutoLogin() is false (--launch push)"
            : "no credential is saved yet (a successful q2-login earlier in the run saves one)"
        return "\(place) (q2-login) asks for auto-login, but \(why); give \"username\" and \"password\" too\(given.at)"
    }

    /// Refuses an answer's fault that would do nothing, as a bridge fault outside a payment is refused: one switched
    /// on that cannot reach the flow (an IdP fault in a payment), or `insecureDevice: false` under
    /// `--insecure-device`, which holds the device insecure for the whole run. Both were taken and ignored.
    private func checkFaults(_ given: FlowAnswers, of kind: FlowKind, at place: String) throws(UsageError) {
        guard let members = given.faultsGiven?.members else { return }
        func position(_ key: String) -> String { members.first { $0.key == key }.map { " (\($0.value.position))" } ?? "" }
        let switched = given.faults(over: baseFaults).identity
        let reaching = service.identityFaults(reaching: kind)
        for fault in IdentityFaults.Fault.allCases
        where !reaching.contains(fault) && switched.isOn(fault) && !baseFaults.identity.isOn(fault) {
            throw UsageError(
                "\(place) (\(kind.rawValue)) switches on \"faults.\(fault.key)\", which cannot reach a \(kind.rawValue) flow (those that can: \(reaching.map(\.key).joined(separator: ", ")))\(position(fault.key))")
        }
        if service.q2.settings.insecureDeviceReason != nil, members.contains(where: { $0.key == "insecureDevice" }), !switched.insecureDevice {
            throw UsageError(
                "\(place).faults.insecureDevice is false, but --insecure-device holds the device insecure for the whole run\(position("insecureDevice"))")
        }
    }

    /// Stops the run with a usage error, and aborts the flow at the prompt: its history says `ABORTED_BAD_INPUT`
    /// with the message (which names places, never values), not a user's cancel.
    private func refuse(_ prompt: FlowPrompt, _ message: String) {
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
        if given.cancel {
            // The cardholder takes the card form's `delay` over it before cancelling too (it was cancelled at once).
            answer(prompt, with: .cancel, after: prompt.request is PaymentDetailsRequest ? given.payment.delay : .zero)
            return
        }
        switch prompt.request {
        case let signIn as Q2SignIn: answerQ2(prompt, signIn, given)
        case let request as PaymentDetailsRequest: answerCardForm(prompt, given.payment, request.defaults)
        case let request as ChallengeRequest: answerChallenge(prompt, request.screen, given.payment)
        case is any CredentialForm: answerCredentials(prompt, given)
        default: refuse(prompt, "\(place) (\(prompt.flow)): the runner cannot answer this prompt")
        }
    }

    /// `"autoLogin": true` signs in with the saved credential when `shouldAllowAutoLogin()` allows it (asked on
    /// this, the main, thread); else the username and password of the answers are typed in.
    private func answerQ2(_ prompt: FlowPrompt, _ signIn: Q2SignIn, _ given: FlowAnswers) {
        if given.autoLogin && signIn.savedUsername != nil {
            let service = service
            if MainActor.assumeIsolated({ service.q2.allowsAutoLogin() }) {
                service.answer(prompt, with: .q2AutoLogin)
                return
            }
        }
        if given.values["username"] == nil && given.values["password"] == nil && given.autoLogin {
            refuse(prompt, Self.autoLoginRefused(at: place, savedCredential: signIn.savedUsername != nil, given))
            return
        }
        answerCredentials(prompt, given)
    }

    private func answerCredentials(_ prompt: FlowPrompt, _ given: FlowAnswers) {
        askedKeys.formUnion(prompt.fields.map(\.key))
        var values: [String: Secret] = [:]
        for field in prompt.fields {
            guard let value = given.values[field.key] else {
                let asker = Self.asker(prompt.flow) ?? "the identity provider asks for on page \(prompt.page) of \(prompt.pageCount)"
                refuse(prompt, Self.missing(field, prompt.flow, asker: asker, at: place, given).message)
                return
            }
            values[field.key] = value
        }
        service.answer(prompt, with: .credentials(values))
    }

    /// Who asks for a form's fields when the flow fixes them; nil for the IdP's forms, which the scenario makes.
    private static func asker(_ kind: FlowKind) -> String? {
        switch kind {
        case .q2Login: "the Q2 sign-in screen asks for"
        case _ where LegacyFamily.kinds.contains(kind): "the KSSIDP app collects before it calls the wrapper"
        default: nil
        }
    }

    private static func missing(_ field: CredentialField, _ kind: FlowKind, asker: String?, at place: String, _ given: FlowAnswers) -> UsageError {
        UsageError("\(place) (\(kind.rawValue)) has no \"\(field.key)\", which \(asker ?? "the flow asks for")\(given.at)")
    }

    private func answerCardForm(_ prompt: FlowPrompt, _ given: PaymentAnswers, _ defaults: PaymentDefaults) {
        do {
            let details = try given.cardForm(defaults, at: place)
            answer(prompt, with: .payment(details), after: given.delay)
        } catch {
            refuse(prompt, error.message)
        }
    }

    private func answerChallenge(_ prompt: FlowPrompt, _ screen: ChallengeScreen, _ given: PaymentAnswers) {
        if given.cancelChallenge {
            answer(prompt, with: .cancel, after: given.challengeDelay)
            return
        }
        let action: CardholderAction
        payment.screens.insert(screen.uiType)
        switch screen.uiType {
        case .text:
            if payment.resendsAsked < given.resend {
                payment.resendsAsked += 1
                action = .answer(.resend)
            } else if payment.codesUsed < given.otp.count || (given.otpRepeats && !given.otp.isEmpty) {
                action = .answer(.code(given.otp[min(payment.codesUsed, given.otp.count - 1)]))
                payment.codesUsed += 1
            } else if given.otp.isEmpty {
                refuse(prompt, "\(place) (payer-auth) has no \"otp\", which the one-time-code challenge asks for\(PaymentAnswers.at(given.object))")
                return
            } else {
                refuse(prompt, "\(place).otp has \(given.otp.count) \(given.otp.count == 1 ? "code" : "codes"), but the challenge asked for another\(PaymentAnswers.at(given.otpPosition))")
                return
            }
        case .singleSelect, .multiSelect:
            guard !given.choices.isEmpty else {
                refuse(prompt, PaymentAnswers.noChoices(screen.uiType, screen.options, at: place, given.object).message)
                return
            }
            do {
                action = .answer(.select(try given.chosen(from: screen.options, at: place)))
            } catch {
                refuse(prompt, error.message)
                return
            }
        case .outOfBand:
            guard let approve = given.approve else {
                refuse(prompt, PaymentAnswers.noApproval(at: place, given.object).message)
                return
            }
            // On the other device first, then Continue, as the terminal UI and plain mode do: the log reads alike.
            if let otherDevice = (prompt.request as? ChallengeRequest)?.otherDevice {
                answer(prompt, with: .challenge(.answer(.continueOutOfBand)), after: given.challengeDelay) {
                    otherDevice.decide(approve: approve)
                }
                return
            }
            action = .decideOnOtherDevice(approve: approve)
        case .htmlOther:
            action = .answer(.unsupportedInterface)
        }
        answer(prompt, with: .challenge(action), after: given.challengeDelay)
    }

    /// Answers `prompt` now, or holds the answer back for `delay` (the cardholder's time over a card form or a
    /// challenge screen).
    private func answer(_ prompt: FlowPrompt, with answer: PromptAnswer, after delay: Duration, first: (() -> Void)? = nil) {
        if delay > .zero {
            delayed = (prompt, answer, .now + delay, first)
        } else {
            first?()
            service.answer(prompt, with: answer)
        }
    }

    public func flowService(_ service: FlowService, didFinish result: FlowResult) {
        delayed = nil
        // A flow stopped by bad answers is abandoned: exit 2 and one line on stderr, no result line.
        if usageError == nil { emit("result", result) }
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
        if usageError == nil, result.flow == .payerAuth, result.outcome != .cancelled, let payments = service.family(PaymentFamily.self) {
            let given = answers[index].payment
            let designed = given.designedChallenge(payments.settings.paymentDefaults, issuer: service.world.accessControlServer)
            let keys = given.unused(payment, designed: designed)
            if !keys.isEmpty {
                let names = keys.map { "\"\($0)\"" }.joined(separator: ", ")
                let card = designed.map { "its card's challenge is \($0.name)" } ?? "its card meets no challenge"
                writeErrorLine("idp-tui: run: \(place) (\(result.flow.rawValue)): \(names) not used: \(card)")
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
