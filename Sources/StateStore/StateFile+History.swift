import Determinism
import FlowRecords
import Foundation

/// The history of flows, in the state file's `flows` and `flow_events` tables.
final class SQLiteFlowHistory: FlowHistory {
    let database: Database
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    init(database: Database) {
        self.database = database
    }

    var lockedSince: ContinuousClock.Instant? { LockWaits.since }

    func stopWaitingForLock() { LockWaits.stop() }

    func waitForLockAgain() { LockWaits.resume() }

    func record(_ record: HistoryRecord) throws(StoreFailure) -> Int {
        let summary = record.summary
        do {
            let events = try record.events.map { event throws(StateError) -> (Int, String, String) in
                guard let data = try? Self.encoder.encode(event) else { throw StateError("an event could not be encoded") }
                return (event.sequence, String(decoding: data, as: UTF8.self), event.step)
            }
            return try database.write { transaction throws(StateError) -> Int in
                _ = try transaction.query(
                    "INSERT INTO flows (started_at, flow, user, outcome, status, duration_us, result_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [.text(summary.time), .text(summary.flow), summary.user.map { .text($0) } ?? .null,
                     .text(summary.outcome.rawValue), .text(summary.status), .integer(summary.duration), .text(record.resultJSON)])
                let id = try transaction.query("SELECT last_insert_rowid()").first?.first?.integer ?? 0
                for (sequence, json, step) in events {
                    _ = try transaction.query("INSERT INTO flow_events (flow_id, sequence, event_json, step) VALUES (?, ?, ?, ?)",
                                              [.integer(id), .integer(Int64(sequence)), .text(json), .text(step)])
                }
                _ = try Retention.prune(transaction, now: Date())
                return Int(id)
            }
        } catch {
            throw StoreFailure(error.description)
        }
    }

    func append(_ events: [RecordedEvent], toFlow id: Int) throws(StoreFailure) {
        do {
            try database.write { transaction throws(StateError) in
                // A flow pruned meanwhile (another process's policy) takes nothing.
                guard try !transaction.query("SELECT 1 FROM flows WHERE id = ?", [.integer(Int64(id))]).isEmpty else { return }
                let last = try transaction.query("SELECT COALESCE(MAX(sequence), 0) FROM flow_events WHERE flow_id = ?",
                                                 [.integer(Int64(id))]).first?.first?.integer ?? 0
                for (offset, event) in events.enumerated() {
                    let sequence = Int(last) + 1 + offset
                    guard let data = try? Self.encoder.encode(event.renumbered(sequence)) else { throw StateError("an event could not be encoded") }
                    _ = try transaction.query("INSERT INTO flow_events (flow_id, sequence, event_json, step) VALUES (?, ?, ?, ?)",
                                              [.integer(Int64(id)), .integer(Int64(sequence)), .text(String(decoding: data, as: UTF8.self)), .text(event.step)])
                }
            }
        } catch {
            throw StoreFailure(error.description)
        }
    }

    private static func summary(_ row: [SQLValue]) -> HistorySummary? {
        guard let id = row[0].integer, let time = row[1].text, let flow = row[2].text,
            let outcome = row[4].text.flatMap(FlowOutcome.init(rawValue:)), let status = row[5].text, let duration = row[6].integer
        else { return nil }
        return HistorySummary(id: Int(id), time: time, flow: flow, user: row[3].text, outcome: outcome, status: status, duration: duration)
    }

    private static let columns = "id, started_at, flow, user, outcome, status, duration_us"

    func list(limit: Int) throws(StoreFailure) -> [HistorySummary] {
        do {
            return try database.query("SELECT \(Self.columns) FROM flows ORDER BY id DESC LIMIT ?", [.integer(Int64(limit))])
                .compactMap(Self.summary)
        } catch {
            throw StoreFailure(error.description)
        }
    }

    /// The newest `limit` flows older than flow `before` (nil: of all) that `matches` takes, newest first, read a
    /// page of rows at a time; and the ids of the rows read on the way that cannot be read (a hand-edited or damaged
    /// file), which are left out and said by `history`.
    func flows(limit: Int, before: Int?, matching matches: (HistorySummary) -> Bool) throws(StoreFailure)
        -> (entries: [HistorySummary], unreadable: [Int])
    {
        let page = 500
        var entries: [HistorySummary] = []
        var unreadable: [Int] = []
        var cursor = Int64(before ?? Int.max)
        do {
            while entries.count < limit {
                let rows = try database.query("SELECT \(Self.columns) FROM flows WHERE id < ? ORDER BY id DESC LIMIT ?",
                                              [.integer(cursor), .integer(Int64(page))])
                for row in rows where entries.count < limit {
                    guard let id = row[0].integer else { continue }
                    cursor = id
                    if let summary = Self.summary(row) {
                        if matches(summary) { entries.append(summary) }
                    } else {
                        unreadable.append(Int(id))
                    }
                }
                if rows.count < page { break }
            }
        } catch {
            throw StoreFailure(error.description)
        }
        return (entries, unreadable)
    }

    func record(id: Int) throws(StoreFailure) -> HistoryRecord? {
        do {
            return try database.read { transaction throws(StateError) -> HistoryRecord? in
                guard let row = try transaction.query("SELECT \(Self.columns), result_json FROM flows WHERE id = ?", [.integer(Int64(id))]).first
                else { return nil }
                // A row that is there but cannot be read is said so: it read "there is no flow 12".
                guard let summary = Self.summary(row), let result = row[7].text else {
                    throw StateError("flow \(id) in the state file cannot be read: its row holds what idp-tui never writes (a damaged or hand-edited file); the other flows read")
                }
                let rows = try transaction.query("SELECT event_json FROM flow_events WHERE flow_id = ? ORDER BY sequence", [.integer(Int64(id))])
                let events = rows.compactMap { $0.first?.text }
                    .compactMap { try? JSONDecoder().decode(RecordedEvent.self, from: Data($0.utf8)) }
                // A damaged row is left out and counted, so that the transcript says it is not whole.
                return HistoryRecord(summary: summary, resultJSON: result, events: events, unreadableEvents: rows.count - events.count)
            }
        } catch {
            throw StoreFailure(error.description)
        }
    }
}
