import DropsWeb
import FlowCatalog
import FlowEngine
import JSONText
import PaymentFlows
import SafepayDropsSDK
import ThreeDSecure

/// A payment's answers: the card form's fields, and how to answer each kind of challenge (``PaymentAnswers``).
final class PaymentAnswering: FamilyAnswering {
    static let kinds = PaymentFamily.kinds
    static let keys: [(key: String, flows: [FlowKind])] =
        PaymentAnswers.keys.filter { $0 != "cancel" && $0 != "faults" }.map { ($0, [FlowKind.payerAuth]) }

    /// The `--bridge-fault` values, as its help and errors list them. One literal rather than an array joined
    /// when the table is built: the generic `joined` costs the Swift runtime lookups on every start.
    static let bridgeFaultList = "lose-acks:N, lose-every-ack, ready-never-comes, malformed-message, unknown-event, wrong-origin"

    static let options: [OptionSpec] = [
        OptionSpec(name: "--bridge-fault", value: "FAULT", help: "a Drops bridge fault, repeatable: \(bridgeFaultList)", scope: .engine,
                   repeatable: true, reaches: FlowCatalog.kinds(changedBy: PaymentSettings.self)) {
            options, value, problem throws(UsageError) in
            // Repeatable to add another fault; the same fault twice (lose-acks:3 then lose-acks:1) is an error, as
            // any other option given twice is, rather than the last one quietly winning.
            func set(_ fault: WritableKeyPath<BridgeFaults, Bool>, _ name: String) throws(UsageError) {
                guard !options.settings.payment.bridgeFaults[keyPath: fault] else { throw problem("--bridge-fault \(name) is given twice; give it once") }
                options.settings.payment.bridgeFaults[keyPath: fault] = true
            }
            switch value {
            case "lose-every-ack": try set(\.loseEveryAck, value)
            case "ready-never-comes": try set(\.readyNeverComes, value)
            case "malformed-message": try set(\.malformedMessage, value)
            case "unknown-event": try set(\.unknownEvent, value)
            case "wrong-origin": try set(\.wrongOrigin, value)
            default:
                guard value.hasPrefix("lose-acks:"), let count = Int(value.dropFirst("lose-acks:".count)), (1...100).contains(count) else {
                    throw problem("--bridge-fault takes \(bridgeFaultList) (N from 1 to 100), not \"\(value)\"" + bridgeFaultHint(value))
                }
                guard options.settings.payment.bridgeFaults.lostAcks == 0 else { throw problem("--bridge-fault lose-acks is given twice; give it once") }
                options.settings.payment.bridgeFaults.lostAcks = count
            }
        },
        OptionSpec(name: "--bridge-timing", value: "swift|web", help: "the bridge's ack timeout and retries: swift 1.5 s × 3, web 1 s × 2", scope: .engine,
                   reaches: FlowCatalog.kinds(changedBy: PaymentSettings.self)) {
            options, value, problem throws(UsageError) in
            switch value {
            case "swift": options.settings.payment.bridgeTiming = .swiftHost
            case "web": options.settings.payment.bridgeTiming = .webHosts
            default:
                throw problem("--bridge-timing takes swift (1.5 s, 3 retries) or web (1 s, 2 retries), not \"\(value)\""
                    + KeySuggestion.hint(for: value, among: ["swift", "web"]))
            }
        },
    ]

    /// The fault a wrong `--bridge-fault` was likely meant to be, its count kept (`lose-ack:3`: "lose-acks:3"); none
    /// for `lose-acks` with a count out of range or not a number, which the list's "N from 1 to 100" answers.
    private static func bridgeFaultHint(_ value: String) -> String {
        let name = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard name[0] != "lose-acks" || name.count == 1 else { return "" }
        let count = name.count == 2 && Int(name[1]).map { (1...100).contains($0) } == true ? String(name[1]) : "N"
        return KeySuggestion.hint(for: value, among: bridgeFaultList.split(separator: ", ").map { $0 == "lose-acks:N" ? "lose-acks:\(count)" : String($0) })
    }

    private let service: FlowService
    /// This flow's progress through its payment answers.
    private var progress = PaymentProgress()

    init(service: FlowService) {
        self.service = service
    }

    static func parseObject(_ node: JSONNode, at place: String, for kind: FlowKind) throws(UsageError) -> FlowAnswers? {
        try PaymentAnswers.parseObject(node, at: place)
    }

    private var defaults: PaymentDefaults? { service.family(PaymentFamily.self)?.settings.paymentDefaults }

    /// The card form's fields and the answer its card's challenge asks for; with a fault that ends the payment
    /// before any challenge, the challenge's answers are not needed.
    func check(_ run: AnswerPlan, at position: Int, _ stage: AnswerCheck) throws(UsageError) {
        guard stage == .data, let defaults else { return }
        let faults = run.answers[position].faults(over: run.baseFaults)
        let noChallenge = faults.bridge.threeDS.directoryServer != nil || faults.identity.networkUnavailable
            || faults.identity.requestTimeout
        try run.answers[position].payment.check(
            defaults, issuer: service.world.accessControlServer, challengeMayCome: !noChallenge, at: run.place(position))
    }

    func flowStarts() { progress = PaymentProgress() }

    /// The cardholder takes the card form's `delay` over it before cancelling too (it was cancelled at once).
    func delayBeforeCancelling(_ prompt: FlowPrompt, _ given: FlowAnswers) -> Duration {
        prompt.request is PaymentDetailsRequest ? given.payment.delay : .zero
    }

    func answer(_ prompt: FlowPrompt, _ given: FlowAnswers, through runner: HeadlessRunner) -> Bool {
        switch prompt.request {
        case let request as PaymentDetailsRequest:
            do {
                let details = try given.payment.cardForm(request.defaults, at: runner.place)
                runner.answer(prompt, with: .payment(details), after: given.payment.delay)
            } catch {
                runner.refuse(prompt, error.message)
            }
        case let request as ChallengeRequest: answerChallenge(prompt, request, given.payment, runner)
        default: return false
        }
        return true
    }

    private func answerChallenge(_ prompt: FlowPrompt, _ request: ChallengeRequest, _ given: PaymentAnswers, _ runner: HeadlessRunner) {
        let place = runner.place
        if given.cancelChallenge {
            runner.answer(prompt, with: .cancel, after: given.challengeDelay)
            return
        }
        let screen = request.screen
        let action: CardholderAction
        progress.screens.insert(screen.uiType)
        switch screen.uiType {
        case .text:
            if progress.resendsAsked < given.resend {
                progress.resendsAsked += 1
                action = .answer(.resend)
            } else if progress.codesUsed < given.otp.count || (given.otpRepeats && !given.otp.isEmpty) {
                action = .answer(.code(given.otp[min(progress.codesUsed, given.otp.count - 1)]))
                progress.codesUsed += 1
            } else if given.otp.isEmpty {
                runner.refuse(prompt, PaymentAnswers.noCode(at: place, given.object).message)
                return
            } else {
                runner.refuse(prompt, "\(place).otp has \(given.otp.count) \(given.otp.count == 1 ? "code" : "codes"), but the challenge asked for another\(placed(given.otpPosition))")
                return
            }
        case .singleSelect, .multiSelect:
            guard !given.choices.isEmpty else {
                runner.refuse(prompt, PaymentAnswers.noChoices(screen.uiType, screen.options, at: place, given.object).message)
                return
            }
            do {
                action = .answer(.select(try given.chosen(from: screen.options, at: place)))
            } catch {
                runner.refuse(prompt, error.message)
                return
            }
        case .outOfBand:
            guard let approve = given.approve else {
                runner.refuse(prompt, PaymentAnswers.noApproval(at: place, given.object).message)
                return
            }
            // On the other device first, then Continue, as the terminal UI and plain mode do: the log reads alike.
            if let otherDevice = request.otherDevice {
                runner.answer(prompt, with: .challenge(.answer(.continueOutOfBand)), after: given.challengeDelay) {
                    otherDevice.decide(approve: approve)
                }
                return
            }
            action = .decideOnOtherDevice(approve: approve)
        case .htmlOther:
            action = .answer(.unsupportedInterface)
        }
        runner.answer(prompt, with: .challenge(action), after: given.challengeDelay)
    }

    /// The keys a payment that ended (not cancelled) never used, for a challenge its card does not have.
    func notes(on result: FlowResult, _ given: FlowAnswers) -> [String] {
        guard result.outcome != .cancelled, let defaults else { return [] }
        let designed = given.payment.designedChallenge(defaults, issuer: service.world.accessControlServer)
        let keys = given.payment.unused(progress, designed: designed)
        guard !keys.isEmpty else { return [] }
        let names = keys.map { "\"\($0)\"" }.joined(separator: ", ")
        let card = designed.map { "its card's challenge is \($0.name)" } ?? "its card meets no challenge"
        return ["\(names) not used: \(card)"]
    }
}

extension FlowAnswers {
    /// A payment's answers (empty ones for another flow's).
    public var payment: PaymentAnswers { own(PaymentAnswers.self) ?? PaymentAnswers() }
}

extension PaymentFamily: AnsweredFamily {
    static var answering: any FamilyAnswering.Type { PaymentAnswering.self }
}
