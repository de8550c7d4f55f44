/// A result as the result screen and plain mode word it: a headline and rows of label and value.
///
/// The engine words what every flow has (``FlowResult/summary``: the outcome, the error, the step, the advice);
/// the flow's kind then rewords it in its family's terms (``FlowKind/summarize``): the device after an IdpSdk
/// flow, a payment's 3-D Secure values, Q2's MobileCoreLoginFailure. A new family's results read sensibly with
/// no wording of its own, and its own wording is declared with its kinds, not in a front end.
public struct ResultSummary: Sendable, Equatable {
    /// What a headline or a row stands for; a front end gives each its colour.
    public enum Tone: Sendable, Equatable {
        case plain, success, failure, cancelled
    }

    public struct Row: Sendable, Equatable {
        public let label: String
        public var value: String
        public let tone: Tone

        public init(_ label: String, _ value: String, _ tone: Tone = .plain) {
            self.label = label
            self.value = value
            self.tone = tone
        }
    }

    /// "✓ Logged in", "✗ Pay with card (3-D Secure) failed — N", "⊘ Q2 login cancelled" …
    public var headline: String
    public var tone: Tone
    /// The most telling first: a small terminal shows the top ones.
    public var rows: [Row]

    public init(headline: String, tone: Tone, rows: [Row] = []) {
        self.headline = headline
        self.tone = tone
        self.rows = rows
    }

    /// The engine's labels, which a family's wording may replace, move or drop.
    public enum Label {
        /// The error's subsystem and code: `511/4`.
        public static let error = "error"
        public static let whatHappened = "what happened"
        public static let failedAt = "failed at"
        /// A failure's advice.
        public static let whatToTry = "what to try"
        /// A cancel's advice: what the cancel may have left behind.
        public static let whatToKnow = "what to know"
    }

    /// The row labelled `label`, if there is one.
    public func row(_ label: String) -> Row? { rows.first { $0.label == label } }

    public mutating func remove(_ labels: String...) { rows.removeAll { labels.contains($0.label) } }

    /// Puts `new` just after the row labelled `label`, or first when there is none.
    public mutating func insert(_ new: [Row], after label: String) {
        let at = rows.firstIndex { $0.label == label }.map { $0 + 1 } ?? 0
        rows.insert(contentsOf: new, at: at)
    }
}

extension FlowResult {
    /// What the result screen and plain mode say of this result: the engine's wording, then its kind's.
    public var summary: ResultSummary {
        var summary = engineSummary
        flow.summarize(&summary, self)
        return summary
    }

    /// What every flow's result says, in the engine's words.
    private var engineSummary: ResultSummary {
        typealias Row = ResultSummary.Row
        typealias Label = ResultSummary.Label
        switch outcome {
        case .success:
            return ResultSummary(headline: "✓ \(flow.title)", tone: .success)
        case .failure:
            var summary = ResultSummary(headline: "✗ \(flow.title) failed — \(status)", tone: .failure)
            if let error {
                let code = [error.subsystem, error.code].compactMap { $0.map(String.init) }.joined(separator: "/")
                if !code.isEmpty { summary.rows.append(Row(Label.error, code, .failure)) }
                summary.rows.append(Row(Label.whatHappened, error.message))
            }
            if let failedStep { summary.rows.append(Row(Label.failedAt, failedStep.rawValue)) }
            if let advice { summary.rows.append(Row(Label.whatToTry, advice)) }
            return summary
        case .cancelled:
            var summary = ResultSummary(headline: "⊘ \(flow.title) cancelled", tone: .cancelled)
            let message = error?.message ?? "the flow stopped"
            // The engine's message may say "cancelled …" itself: one sentence, not "Cancelled: cancelled …".
            let what = message.hasPrefix("cancelled") ? "C" + message.dropFirst() : "Cancelled: \(message)"
            summary.rows.append(Row(Label.whatHappened, "\(what)."))
            if let advice { summary.rows.append(Row(Label.whatToKnow, advice)) }
            return summary
        }
    }
}
