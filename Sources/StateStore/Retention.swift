import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How much history a state file keeps: the newest `flows` flows, and none older than `days` days (0: no age
/// limit). Kept in the file itself, so that every process on it applies the same policy; each recorded flow
/// prunes what falls outside it in the same transaction, so the file stops growing (SQLite reuses the pages
/// freed) however many runs it sees, and `idp-tui history prune` gives the space back to the disk.
public struct Retention: Sendable, Equatable, CustomStringConvertible {
    public var flows: Int
    public var days: Int

    /// 1,000 flows: about 10 MB of the largest flows (a 3-D Secure challenge payment with every EMV message, about
    /// 9 KB each), under the 20 MB the file is meant to stay below.
    public static let `default` = Retention(flows: 1000, days: 0)
    public static let flowsRange = 1...1_000_000
    public static let daysRange = 0...36_500

    public init(flows: Int, days: Int) {
        self.flows = flows
        self.days = days
    }

    public var description: String {
        "the newest \(flows) \(flows == 1 ? "flow" : "flows")" + (days > 0 ? ", none older than \(days) \(days == 1 ? "day" : "days")" : "")
    }

    static func read(_ transaction: Database.Transaction) throws(StateError) -> Retention {
        let rows = try transaction.query("SELECT key, value FROM meta WHERE key IN ('history_keep_flows', 'history_keep_days')")
        var retention = Retention.default
        for row in rows {
            guard let key = row[0].text, let value = row[1].text.flatMap({ Int($0) }) else { continue }
            if key == "history_keep_flows", flowsRange.contains(value) { retention.flows = value }
            if key == "history_keep_days", daysRange.contains(value) { retention.days = value }
        }
        return retention
    }

    /// A time as the history writes `started_at` (`2026-11-30T11:27:49.225Z`), so that the two compare as text.
    static func timeText(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        let milliseconds = Int((date.timeIntervalSince1970 - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                      parts.tm_hour, parts.tm_min, parts.tm_sec, milliseconds)
    }

    func write(_ transaction: Database.Transaction) throws(StateError) {
        _ = try transaction.query("INSERT OR REPLACE INTO meta (key, value) VALUES ('history_keep_flows', ?), ('history_keep_days', ?)",
                                  [.text(String(flows)), .text(String(days))])
    }

    /// Deletes the flows (and their events) outside the file's policy, and over its budget the IdP's oldest
    /// counters; returns how many of each.
    static func prune(_ transaction: Database.Transaction, now: Date) throws(StateError) -> (flows: Int, counters: Int) {
        let retention = try read(transaction)
        var removed = 0, forgotten = 0
        if let newestOut = try transaction.query("SELECT id FROM flows ORDER BY id DESC LIMIT 1 OFFSET ?",
                                                 [.integer(Int64(retention.flows))]).first?.first?.integer {
            removed += Int(try transaction.query("DELETE FROM flows WHERE id <= ? RETURNING id", [.integer(newestOut)]).count)
        }
        if retention.days > 0 {
            let cutoff = timeText(now.addingTimeInterval(-Double(retention.days) * 86_400))
            removed += try transaction.query("DELETE FROM flows WHERE started_at < ? RETURNING id", [.text(cutoff)]).count
        }
        // Over the budget, the IdP's counters go first past a quarter of it (53 bytes for each user name ever tried,
        // made-up ones too): the names least recently written, but never a lock in force or a used activation code.
        // A name forgotten is one whose failures were reset, as a real IdP resets them after a while.
        if try usedBytes(transaction) > retention.budget {
            let count = try transaction.query("SELECT count(*) FROM idp_users").first?.first?.integer ?? 0
            if count > retention.countersKept {
                forgotten = try transaction.query(
                    """
                    DELETE FROM idp_users WHERE rowid IN (SELECT rowid FROM idp_users
                        WHERE activation_used = 0 AND (locked_until IS NULL OR locked_until <= ?) ORDER BY rowid LIMIT ?)
                    RETURNING rowid
                    """,
                    [.integer(Int64(now.timeIntervalSince1970 * 1e9)), .integer(count - retention.countersKept)]).count
            }
        }
        // A scenario may make flows larger than the default's (ten attempts and ten resends: about 38 KB each, and
        // 1,000 of them took 52 MB): the pages in use are kept within the policy's budget too, oldest flows first.
        // Not below a tenth of the policy's flows: the locks in force and used codes count too.
        let floor = Int64(retention.minimumKeptByBudget)
        while try usedBytes(transaction) > retention.budget {
            let count = try transaction.query("SELECT count(*) FROM flows").first?.first?.integer ?? 0
            guard count > floor else { break }
            removed += try transaction.query("DELETE FROM flows WHERE id IN (SELECT id FROM flows ORDER BY id LIMIT ?) RETURNING id",
                                             [.integer(max(1, min(count - floor, count / 20)))]).count
        }
        return (removed, forgotten)
    }

    /// At most 256 KB and 16 KB a flow of the policy in use in the file (16.6 MB, 15.9 MiB, by default): the default's flows
    /// take about 9 KB each at most.
    var budget: Int64 { (256 + 16 * Int64(flows)) << 10 }

    /// The IdP's counters kept when the file is over its budget: as many as a quarter of it holds (about 64 bytes
    /// each with the index: 65,000 by default).
    var countersKept: Int64 { budget / 4 / 64 }

    /// The flows the size budget never prunes below: a tenth of the policy's (100 by default), at least 1.
    var minimumKeptByBudget: Int { max(1, flows / 10) }

    /// The bytes of the file's pages in use (the free ones are reused before the file grows).
    private static func usedBytes(_ transaction: Database.Transaction) throws(StateError) -> Int64 {
        let pragma = { (name: String) throws(StateError) -> Int64 in try transaction.query("PRAGMA \(name)").first?.first?.integer ?? 0 }
        return try (pragma("page_count") - pragma("freelist_count")) * pragma("page_size")
    }
}

/// What `idp-tui history prune` did.
public struct PruneReport: Sendable {
    public let retention: Retention
    public let removed: Int
    public let kept: Int
    /// The IdP's counters forgotten because the file was over its budget.
    public let countersForgotten: Int
    public let bytesBefore: Int64
    public let bytesAfter: Int64
}

extension StateFile {
    /// The file's retention policy.
    public func retention() throws(StateError) -> Retention {
        try database.read { transaction throws(StateError) in try Retention.read(transaction) }
    }

    /// Sets the policy (when given), prunes by it now, and gives the space back to the disk.
    public func prune(setting policy: Retention? = nil, now: Date = Date()) throws(StateError) -> PruneReport {
        let before = StateFile.size(path)
        let pruned: (Retention, (flows: Int, counters: Int), Int)
        do {
            pruned = try database.write { transaction throws(StateError) in
                try policy?.write(transaction)
                let removed = try Retention.prune(transaction, now: now)
                let kept = Int(try transaction.query(StateFile.flowCountQuery).first?.first?.integer ?? 0)
                return (try Retention.read(transaction), removed, kept)
            }
        } catch where error.reason == .busy {
            // One transaction: a lock that outlasted the wait changed nothing, as reset's error says (a CI tester).
            throw StateError(error.description + "; nothing was changed", reason: .busy)
        }
        let (retention, removed, kept) = pruned
        try reclaimSpace()
        return PruneReport(retention: retention, removed: removed.flows, kept: kept, countersForgotten: removed.counters,
                           bytesBefore: before, bytesAfter: StateFile.size(path))
    }
}
