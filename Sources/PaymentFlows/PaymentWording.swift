import FlowEngine
import ThreeDSecure

/// How a payment's results read on the result screen and in plain mode (``ResultSummary``): 3-D Secure's values
/// say what happened; the error says it only where they do not.
enum PaymentWording {
    static let summarize: FlowKind.Summarize = { summary, result in
        typealias Label = ResultSummary.Label
        let rows = rows(of: result)
        // The card goes last, whatever the outcome: which test card failed, or was cancelled, is what a tester
        // looks for next (a failure and a cancel left it out).
        let withoutCard = rows.filter { $0.label != cardLabel }, card = rows.filter { $0.label == cardLabel }
        // A payment's step is in its log and its callback; its error's code in the Erro row.
        summary.remove(Label.error, Label.failedAt)
        switch result.outcome {
        case .success:
            let how = result.status == PaymentStatus.frictionless ? "without a challenge" : "after a challenge"
            // An A is no authentication: a proof of attempt, which its row says (the headline said "authenticated").
            summary.headline = result.payment?.transStatus == TransStatus.attempted.rawValue
                ? "✓ Payment attempted \(how): a proof of attempt, not authenticated" : "✓ Payment authenticated \(how)"
            summary.rows += rows
        case .failure:
            // Not authenticated, but the merchant may authorise (U, an error on authentication, Enrolled U or B):
            // "✗ … failed" read as a hard failure beside "May authorise" (a tester). Still a failure for a script.
            if result.payment?.nextAction == .proceedWithoutLiabilityShift {
                summary.headline = "⚠ \(result.flow.title) not authenticated — \(result.status)"
                summary.tone = .plain
            }
            // Where 3-D Secure's values say what happened, the error does not; where they do not, it says it first,
            // under the headline, as every other result does.
            // The lookup's Enrolled row (U, B) and its Erro say it too: each fact once.
            if result.payment?.transStatus != nil || withoutCard.contains(where: { $0.label == enrolledLabel }) {
                summary.remove(Label.whatHappened)
            }
            summary.insert(withoutCard, after: Label.whatHappened)
            summary.rows += card
            // The payment's next step is among its rows.
            if result.payment?.nextAction != nil { summary.remove(Label.whatToTry) }
        case .cancelled:
            // The page's load is the log's `load`: said as what it is ("while load was in flight" read as jargon).
            let message = (result.error?.message ?? "the payment stopped")
                .replacingOccurrences(of: "while load was in flight", with: "while the Drops page was loading")
            if let index = summary.rows.firstIndex(where: { $0.label == Label.whatHappened }) {
                summary.rows[index].value = message.prefix(1).uppercased() + message.dropFirst() + ". No payment was authenticated."
            }
            if result.payment != nil { summary.remove(Label.whatToKnow) }
            summary.rows += rows
        }
    }

    private static let cardLabel = "card"
    private static let enrolledLabel = "Enrolled"

    /// The rows a payment result adds, the most telling first (a small terminal shows the top ones): the outcome,
    /// the next step, any Erro, the callback that fired, then the other 3-D Secure values, and the card.
    static func rows(of result: FlowResult) -> [ResultSummary.Row] {
        guard let payment = result.payment else { return [] }
        var rows: [ResultSummary.Row] = []
        if let status = payment.transStatus {
            let meaning = TransStatus(rawValue: status)?.meaning ?? ""
            let eci = payment.eci.map { " · ECI \($0)" } ?? ""
            rows.append(.init("transStatus", "\(status)\(eci) — \(meaning)", result.outcome == .success ? .success : .plain))
        }
        if let enrolled = payment.enrolled, enrolled != Enrollment.enrolled.rawValue {
            rows.append(.init(enrolledLabel, "\(enrolled) \(Enrollment(rawValue: enrolled)?.meaning ?? "")" + (payment.eci.map { " · ECI \($0)" } ?? "")))
        }
        if let next = payment.nextAction {
            let tone: ResultSummary.Tone = switch next {
            case .proceedWithLiabilityShift: .success
            case .doNotAuthorise: .failure
            case .proceedWithoutLiabilityShift, .retry: .plain
            }
            // The result's advice: a network fault that explains a failure says so ("bring the network back"), as
            // the result line and the history do; the screen said "Run 3-D Secure again" into the same fault.
            // An abort's advice (fix the input) is not the payment's next step, which its object keeps.
            let advice = EngineStatus.isAbort(result.status) ? nil : result.advice
            rows.append(.init("next step", advice ?? payment.advice ?? next.advice, tone))
        }
        if let code = payment.errorCode {
            let component = payment.errorComponent.flatMap(ProtocolError.Component.init).map { " from the \($0.name)" } ?? ""
            let detail = payment.errorDetail.map { " (\($0))" } ?? ""
            rows.append(.init("Erro", "\(code)\(component): \(payment.errorDescription ?? "")\(detail)", .failure))
        }
        if let callback = payment.callback { rows.append(.init("callback", callback)) }
        // What ended a challenge first: its reason is then the spec's nearest code (a cancel's is 26).
        if let cancel = payment.challengeCancel {
            rows.append(.init("challengeCancel", "\(cancel) \(ChallengeCancel(rawValue: cancel)?.meaning ?? "")"))
        }
        if let reason = payment.transStatusReason {
            rows.append(.init("reason", "\(reason) \(TransStatusReason(rawValue: reason)?.meaning ?? "")"))
        }
        let emv = [
            payment.threeDSCompInd.map { "threeDSCompInd \($0)" },
            payment.interactionCounter.map { "interactionCounter \($0)" }, payment.authenticationValue.map { "\(payment.authenticationValueName) \($0)" },
        ].compactMap { $0 }
        if !emv.isEmpty { rows.append(.init("3-D Secure", emv.joined(separator: " · "))) }
        // What an authorisation carries beside the CAVV and ECI (Mastercard requires both for 3DS 2.x): the screen
        // left them to the headless payment object and the history. Before the card, which goes last.
        if let ds = payment.dsTransID {
            rows.append(.init("DS", "dsTransID \(ds)" + (payment.messageVersion.map { " · messageVersion \($0)" } ?? "")))
        }
        if let server = payment.threeDSServerTransID { rows.append(.init("3DS Server", "threeDSServerTransID \(server)")) }
        if let card = payment.card {
            rows.append(.init(cardLabel, [card, payment.brand, payment.amount, payment.merchant].compactMap { $0 }.joined(separator: " · ")))
        }
        return rows
    }
}
