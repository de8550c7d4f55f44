import FlowEngine
import FlowRecords

/// Whether a diagram's arrow asks (a call, a prompt, a request, a message: solid) or answers (dashed), read from
/// the flow's events in order, the same way for every flow.
///
/// An arrow answers the newest unanswered one sent to its sender by its receiver (or, for a call made within one
/// lane, as Q2's module calls Core's `passwordAuthentication`, by its sender itself) when it is the same step
/// coming back: a call's result, a prompt's answer, an HTTP response (`Start`, `provideCredentials`,
/// `GET /authorize`, `card form`, `challenge screen`, `POST /mobilews/logonUser` …). Between two lanes, a kind's
/// own ``FlowKind/replies`` say which other steps answer: a payment's ARes its AReq, a bridge `ack` its message, a
/// Drops delegate callback the app's `configure` (more than once: Required, then Success).
enum ArrowKind {
    /// For each event, true when it answers an earlier one.
    static func answers(_ events: [RecordedEvent], replies: StepReplies) -> [Bool] {
        var open: [RecordedEvent] = []
        return events.map { event in
            guard event.from != event.to, let index = open.lastIndex(where: { answers(event, $0, replies) }) else {
                open.append(event)
                return false
            }
            if !replies.answersAgain(event.step) { open.remove(at: index) }
            return true
        }
    }

    private static func answers(_ event: RecordedEvent, _ request: RecordedEvent, _ replies: StepReplies) -> Bool {
        guard request.to == event.from else { return false }
        let withinOneLane = request.from == request.to
        guard request.from == event.to || withinOneLane else { return false }
        if event.step == request.step { return true }
        return !withinOneLane && replies.answers(event.step, request.step)
    }
}
