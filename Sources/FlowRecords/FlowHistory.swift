import Determinism
import Foundation
import JSONText
import Threading

/// How a flow ended.
public enum FlowOutcome: String, Sendable, Codable {
    case success
    case failure
    case cancelled
}

/// One line of a history list.
public struct HistorySummary: Sendable, Equatable, Codable {
    /// The user column of a flow with none (a payment, a logout of a device never activated): a word, which a screen
    /// reader says as one ("—" was read out as "em dash").
    public static let noUser = "none"
    public let id: Int
    /// When the flow started, ISO 8601.
    public let time: String
    /// The flow's name, as `run` takes it (`activate`, `payer-auth` …).
    public let flow: String
    public let user: String?
    public let outcome: FlowOutcome
    public let status: String
    /// Microseconds.
    public let duration: Int64

    public init(id: Int, time: String, flow: String, user: String?, outcome: FlowOutcome, status: String, duration: Int64) {
        self.id = id
        self.time = time
        self.flow = flow
        self.user = user
        self.outcome = outcome
        self.status = status
        self.duration = duration
    }
}

extension HistorySummary {
    /// The row's values as the lists show them: id, time (to the second, UTC), flow, user, outcome, status.
    public var rowValues: [String] {
        [String(id), String(time.prefix(19)).replacingOccurrences(of: "T", with: " "), flow, user ?? Self.noUser, outcome.rawValue, status]
    }

    /// Whether the row holds `filter` (in smart case, ``Swift/String/holds(_:)``): its values, or `title`, the flow's
    /// title as the menu names it. The terminal UI's history `/` and `history --filter` match so.
    public func holds(_ filter: String, title: String) -> Bool {
        // The time as recorded too (`2026-12-06T03:09:36.541Z`), as `history` prints it.
        (rowValues + [time, title]).joined(separator: " ").holds(filter)
    }
}

extension String {
    /// Whether this text holds `filter`, in smart case, as ripgrep's and vim's: a filter with a capital letter
    /// matches its case ("IdP" found every event of the idp-tui.flow thread), one in lower case matches any. The
    /// log's, a transcript's and the history list's `/` filter so, and `history --filter`.
    public func holds(_ filter: String) -> Bool {
        range(of: filter, options: filter.contains { $0.isUppercase } ? [] : .caseInsensitive) != nil
    }
}

/// An event as history keeps it (the fields of ``FlowEvent`` that a transcript shows).
public struct RecordedEvent: Sendable, Equatable, Codable {
    public let sequence: Int
    public let step: String
    public let from: String
    public let to: String
    public let thread: String
    public let time: String
    public let duration: Int64?
    public let status: String?
    public let detail: String
    /// The whole protocol message, as JSON, for a 3-D Secure message.
    public let message: String?
    /// Whether the event happened on the main thread, as `run` prints it (nil for a flow recorded before session 30,
    /// whose events did not keep it).
    public let mainThread: Bool?

    public init(sequence: Int, step: String, from: String, to: String, thread: String, time: String, duration: Int64?,
                status: String?, detail: String, message: String? = nil, mainThread: Bool? = nil) {
        self.sequence = sequence
        self.step = step
        self.from = from
        self.to = to
        self.thread = thread
        self.time = time
        self.duration = duration
        self.status = status
        self.detail = detail
        self.message = message
        self.mainThread = mainThread
    }
}

extension RecordedEvent {
    /// The same event at another place in its flow's transcript.
    public func renumbered(_ sequence: Int) -> RecordedEvent {
        RecordedEvent(sequence: sequence, step: step, from: from, to: to, thread: thread, time: time, duration: duration,
                      status: status, detail: detail, message: message, mainThread: mainThread)
    }

    /// What a sequence diagram's arrow says of an event: its step, and its status unless that only repeats the
    /// step (the Drops bridge's acks, recorded before session 54 as `ack`, status `ack`).
    public static func arrowLabel(step: String, status: String?, separator: String) -> String {
        guard let status, !status.isEmpty, status != step else { return step }
        return step + separator + status
    }
}

/// A past flow: its summary, its result as the `run` command prints it, and its transcript.
public struct HistoryRecord: Sendable, Equatable {
    public let summary: HistorySummary
    /// The result line's JSON.
    public let resultJSON: String
    public let events: [RecordedEvent]
    /// Events of the flow its store holds but could not read (a damaged or hand-edited state file): left out of
    /// `events`, and said.
    public let unreadableEvents: Int

    public init(summary: HistorySummary, resultJSON: String, events: [RecordedEvent], unreadableEvents: Int = 0) {
        self.summary = summary
        self.resultJSON = resultJSON
        self.events = events
        self.unreadableEvents = unreadableEvents
    }
}

extension HistoryRecord {
    /// What of the flow could not be read: the transcript is not whole.
    var damageLines: [String] {
        (resultIsReadable ? [] : ["damaged: this flow's result could not be read from the state file (its error and next step are left out)"])
            + (unreadableEvents == 0 ? []
                : ["damaged: \(unreadableEvents) of this flow's events could not be read from the state file and are left out"])
    }

    /// Whether the stored result is a JSON object, as every result is written (a damaged or hand-edited file's may
    /// not be).
    public var resultIsReadable: Bool { (try? JSONParser.parse(resultJSON))?.members != nil }

    /// What the result says beyond the summary: its error (`error 513/4011: wrong username or password …`), or a
    /// cancelled flow's what it was (`cancel: cancelled while getAuthorizationCode was in flight …`, why a flow was
    /// aborted for bad input; it was labelled `error:`), and the next step, as the result screen and `run`'s result
    /// line give them; for `history show` and the terminal's transcript.
    public var outcomeLines: [String] {
        guard let result = try? JSONParser.parse(resultJSON) else { return damageLines }
        var lines: [String] = []
        if let error = result["error"], let message = error["message"]?.string {
            // `subsystem/code` for the IdpSdk's errors, the code alone for those that have one (Q2's hydra code, a
            // payment's), as the result screen gives them.
            let code = [error["subsystem"]?.integer, error["code"]?.integer].compactMap { $0.map(String.init) }
            // A cancel (the user's, a signal's) is no error; an abort for bad input is one, the answers' or the file's.
            let label = result["outcome"]?.string == "cancelled" && result["status"]?.string != "ABORTED_BAD_INPUT" ? "cancel" : "error"
            lines.append(label + (code.isEmpty ? "" : " " + code.joined(separator: "/")) + ": " + message)
        }
        if let advice = result["advice"]?.string { lines.append("next: " + advice) }
        // A logout that found nobody logged in succeeds as one that did: its record says which, as its result
        // screen does ("Nothing to log out").
        if result["flow"]?.string == "logout", result["wasLoggedIn"]?.value == .bool(false) {
            lines.append(result["user"]?.string == nil ? "nothing to log out: this device is not activated" : "nothing to log out: no user was logged in")
        }
        return lines + damageLines
    }
}

/// Where finished flows are kept. Every flow is written in one transaction, with its transcript; a flow that
/// is interrupted (kill -9) leaves no half-written entry. Transcripts never hold a secret: events never do.
public protocol FlowHistory: Sendable {
    /// Stores a finished flow and returns its id.
    func record(_ record: HistoryRecord) throws(StoreFailure) -> Int
    /// The newest first.
    func list(limit: Int) throws(StoreFailure) -> [HistorySummary]
    func record(id: Int) throws(StoreFailure) -> HistoryRecord?
    /// Adds to flow `id`'s transcript, after its own events, what a call that cannot be stopped did after the flow was
    /// cancelled and recorded (KSSIDP's, to its answer); nothing when the flow is no longer kept.
    func append(_ events: [RecordedEvent], toFlow id: Int) throws(StoreFailure)
    /// Since when this process has waited for another process's lock on the file the history is kept in (and the
    /// device with it); nil while nothing waits.
    var lockedSince: ContinuousClock.Instant? { get }
    /// Stops waiting for another process's lock, now and until ``waitForLockAgain()``: what waits fails as locked (a
    /// flow's record is then not saved, and says so).
    func stopWaitingForLock()
    /// Waits for another process's lock again, as long as the busy timeout (a flow's result came: the next flow waits
    /// anew, after an Esc that stopped the waits or a wait that ran out).
    func waitForLockAgain()
}

extension FlowHistory {
    /// A history kept in memory waits for no other process.
    public var lockedSince: ContinuousClock.Instant? { nil }
    public func stopWaitingForLock() {}
    public func waitForLockAgain() {}
}

/// History for one process (`--ephemeral`): the newest 500 flows.
public final class MemoryFlowHistory: FlowHistory {
    public static let capacity = 500
    private let state = Locked<(next: Int, records: [HistoryRecord])>((1, []))

    public init() {}

    public func record(_ record: HistoryRecord) throws(StoreFailure) -> Int {
        state.withLock { state in
            let id = state.next
            state.next += 1
            let s = record.summary
            state.records.append(HistoryRecord(
                summary: HistorySummary(id: id, time: s.time, flow: s.flow, user: s.user, outcome: s.outcome, status: s.status,
                                        duration: s.duration),
                resultJSON: record.resultJSON, events: record.events))
            if state.records.count > Self.capacity { state.records.removeFirst(state.records.count - Self.capacity) }
            return id
        }
    }

    public func list(limit: Int) throws(StoreFailure) -> [HistorySummary] {
        state.withLock { Array($0.records.suffix(limit).reversed().map(\.summary)) }
    }

    public func record(id: Int) throws(StoreFailure) -> HistoryRecord? {
        state.withLock { $0.records.first { $0.summary.id == id } }
    }

    public func append(_ events: [RecordedEvent], toFlow id: Int) throws(StoreFailure) {
        state.withLock { state in
            guard let index = state.records.firstIndex(where: { $0.summary.id == id }) else { return }
            let record = state.records[index]
            let last = record.events.map(\.sequence).max() ?? 0
            state.records[index] = HistoryRecord(
                summary: record.summary, resultJSON: record.resultJSON,
                events: record.events + events.enumerated().map { $1.renumbered(last + 1 + $0) })
        }
    }
}
