import FlowEngine
import FlowRecords
import IdpFlows
import Q2Flows
import Testing

/// A family's results read on the result screen and in plain mode through ``FlowResult/summary``: in the engine's
/// words for a family that says nothing of its own, and in the family's where its kind says how.
@Suite struct ResultSummaryTests {
    /// A family's detail, as a new family would add one.
    struct EchoDetail: FlowResultDetail {
        let echoed: String
        func encode(to container: inout KeyedEncodingContainer<FlowResult.Key>) throws {
            try container.encode(echoed, forKey: .init("echoed"))
        }
    }

    static let plainKind = FlowKind("summary-plain", title: "Echo", lanes: [])
    static let wordedKind = FlowKind("summary-worded", title: "Echo", lanes: []) { summary, result in
        if result.outcome == .success { summary.headline = "✓ Echoed" }
        if let echo = result.detail(EchoDetail.self) { summary.rows.append(.init("echoed", echo.echoed)) }
        summary.remove(ResultSummary.Label.failedAt)
    }

    static func result(
        _ kind: FlowKind, _ outcome: FlowOutcome, status: String = "OK", step: FlowStep? = nil, error: FlowError? = nil,
        advice: String? = nil, details: [any FlowResultDetail] = []
    ) -> FlowResult {
        FlowResult(flowID: 1, flow: kind, outcome: outcome, status: status, failedStep: step, error: error,
                   duration: .milliseconds(5), advice: advice, details: details)
    }

    @Test func aFamilyWithNoWordingReadsInTheEnginesWords() {
        let failed = Self.result(
            Self.plainKind, .failure, status: "ECHO_FAILED", step: FlowStep("echo"),
            error: FlowError(subsystem: 9, code: 1, message: "the echo server hung up"), advice: "Turn the echo fault off.",
            details: [EchoDetail(echoed: "hello")]
        ).summary
        #expect(failed.headline == "✗ Echo failed — ECHO_FAILED")
        #expect(failed.tone == .failure)
        #expect(failed.rows == [
            .init("error", "9/1", .failure), .init("what happened", "the echo server hung up"), .init("failed at", "echo"),
            .init("what to try", "Turn the echo fault off."),
        ])

        let succeeded = Self.result(Self.plainKind, .success, details: [EchoDetail(echoed: "hello")]).summary
        #expect(succeeded.headline == "✓ Echo")
        #expect(succeeded.tone == .success)
        #expect(succeeded.rows.isEmpty)

        // The engine's own cancel message says "cancelled …": one sentence, not "Cancelled: cancelled …".
        let cancelled = Self.result(
            Self.plainKind, .cancelled, status: "USER_CANCEL", error: FlowError(subsystem: nil, code: nil, message: "cancelled while waiting"),
            advice: "The echo server may have heard it."
        ).summary
        #expect(cancelled.headline == "⊘ Echo cancelled")
        #expect(cancelled.rows == [
            .init("what happened", "Cancelled while waiting."), .init("what to know", "The echo server may have heard it."),
        ])
        let stopped = Self.result(
            Self.plainKind, .cancelled, error: FlowError(subsystem: nil, code: nil, message: "the prompt was left")).summary
        #expect(stopped.row("what happened")?.value == "Cancelled: the prompt was left.")
    }

    @Test func aFamilysKindWordsItsResultsWithItsDetail() {
        let succeeded = Self.result(Self.wordedKind, .success, details: [EchoDetail(echoed: "hello")]).summary
        #expect(succeeded.headline == "✓ Echoed")
        #expect(succeeded.rows == [.init("echoed", "hello")])

        let failed = Self.result(
            Self.wordedKind, .failure, status: "ECHO_FAILED", step: FlowStep("echo"),
            error: FlowError(subsystem: nil, code: nil, message: "no echo"), details: [EchoDetail(echoed: "")]
        ).summary
        #expect(failed.rows.map(\.label) == ["what happened", "echoed"])
    }

    /// A cancel says what reached the SDK the family drives: nothing more after the cancel.
    @Test func aCancelNamesTheSDKThatHeardNothingMore() {
        let error = FlowError(subsystem: nil, code: nil, message: "cancelled while waiting for the IdP")
        #expect(Self.result(.login, .cancelled, error: error).summary.row("what happened")?.value
            == "Cancelled while waiting for the IdP. Nothing more was sent to the MC-SDK.")
        #expect(Self.result(.q2Login, .cancelled, step: .authenticate, error: error).summary.row("what happened")?.value
            == "Cancelled while waiting for the IdP. Nothing more was sent to Q2 Core.")
        // At the sign-in screen nothing had gone to Core at all.
        #expect(Self.result(.q2Login, .cancelled, step: .signInScreen, error: error).summary.row("what happened")?.value
            == "Cancelled while waiting for the IdP. Nothing was sent to Q2 Core.")
    }
}
