import FlowEngine

/// How a Q2 login's results read on the result screen and in plain mode (``ResultSummary``): who signed in and
/// how, and MobileCoreLoginFailure's case and codes in place of the error where Core gave them.
enum Q2Wording {
    static let summarize: FlowKind.Summarize = { summary, result in
        typealias Label = ResultSummary.Label
        switch result.outcome {
        case .success:
            summary.headline = result.q2?.autoLogin == true ? "✓ Signed in to Q2 with the saved credential" : "✓ Signed in to Q2"
            if let q2 = result.q2 {
                summary.rows += [.init("user", q2.username ?? "none"), .init("method", q2.authenticationMethod ?? "none")]
                summary.rows.append(.init("auto-login", q2.autoLogin ? "yes, with the saved credential" : "no"))
                if let keys = q2.userDataKeys { summary.rows.append(.init("user data", keys.joined(separator: ", "))) }
                summary.rows.append(.init("platform", "completePlatformAuthentication(with:) called; q2token kept (redacted)"))
            }
        case .failure:
            // A failure before any login (the sign-in screen timed out) has no case, and keeps its error (it read
            // "failure  .?").
            guard let q2 = result.q2 else { return }
            let failure = [q2.failure.map { ".\($0)" }, q2.statusCode.map { "HTTP \($0)" }, q2.hydraCode.map { "hydraCode \($0)" }]
                .compactMap { $0 }.joined(separator: " · ")
            if !failure.isEmpty {
                summary.rows.insert(.init("failure", failure, .failure), at: 0)
                summary.remove(Label.error)
            }
        case .cancelled:
            // Before authenticate(using:), nothing had gone to Core ("Nothing more" read as if something had); in
            // flight, a request still on its way is abandoned, and the log says so.
            if let index = summary.rows.firstIndex(where: { $0.label == Label.whatHappened }) {
                summary.rows[index].value += result.failedStep == .authenticate ? " Nothing more was sent to Q2 Core." : " Nothing was sent to Q2 Core."
            }
        }
    }
}
