import Determinism
import FlowRecords
import Foundation
import IdentityProvider
import KSMasterController

/// The state file: one SQLite database in WAL mode that the IdP, the device and the history of flows share, so
/// that runs build on each other and two idp-tui processes can use one file at once.
///
/// ```swift
/// let state = try StateFile(path: StateFile.defaultPath() ?? "state.sqlite")
/// let stores = SimulationStores(identityProvider: state.identityProviderStore, device: state.deviceStore,
///                               startOver: "idp-tui reset")
/// let service = FlowService(environment: environment, history: state.history)
/// ```
public final class StateFile: Sendable {
    /// The schema this idp-tui writes; older files are migrated when opened.
    public static let schemaVersion = 2
    /// `PRAGMA application_id`: "idpt".
    static let applicationID: Int64 = 0x6964_7074

    let database: Database
    public let path: String
    /// What the user should know about the file's surroundings (a folder others may write to), one line each.
    public let warnings: [String]
    /// Opened only to read it (``init(reading:)``, for a file this user cannot write).
    public let readOnly: Bool
    /// Opened read-only with no schema yet (an empty file): its history is empty.
    let unformatted: Bool

    init(path: String, database: Database, warnings: [String], readOnly: Bool, unformatted: Bool) {
        self.path = path
        self.database = database
        self.warnings = warnings
        self.readOnly = readOnly
        self.unformatted = unformatted
    }

    /// Why the file this process keeps its state in is no longer the one at its path, if it is not: deleted or
    /// replaced while open (`rm` or `mv` in another shell). Nothing is written to it from then on (``Database``). A
    /// tester deleted it under the terminal UI, activated a device, and quit: nothing said, nothing kept.
    public var goneFromItsPath: String? { database.goneFromItsPath }

    /// Opens (creating it, 0600, and its folder, 0700, if needed) and migrates a state file. Throws a message that
    /// names the file and what to do for a file that is damaged, not ours, from a newer idp-tui, not a regular
    /// file (a symbolic link, a folder, a FIFO, a device), or that this user cannot write (the file or its folder).
    /// `sayingFoldersMade`: a warning names the folders made for it (a file named with `--state`, where a mistyped
    /// folder made a new tree and an empty state, nothing said).
    public convenience init(path: String, sayingFoldersMade: Bool = false) throws(StateError) {
        let warnings = path == ":memory:" ? [] : try StatePath.prepare(path, sayingFoldersMade: sayingFoldersMade)
        if path != ":memory:" && !StatePath.isSQLiteOrEmpty(path) { throw Database.damaged(path, "file is not a database") }
        let database = try Database(path: path)
        let current = try Self.identify(database, path).current
        // Switching to WAL takes the file's exclusive lock, which SQLite does not wait for.
        try database.retryingWhileBusy { () throws(StateError) in try database.execute("PRAGMA journal_mode = WAL") }
        try database.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
        self.init(path: path, database: database, warnings: warnings, readOnly: false, unformatted: false)
        // A file at this schema needs nothing, and is not written: the write lock made `history` wait 10 s behind
        // another process's write and fail ("stayed locked"), though WAL lets a reader through.
        if !current { try migrate() }
        StatePath.tighten(path)
    }

    /// What damage a state file of this process showed while in use (a page SQLite cannot read), if any: the flow
    /// it struck failed as its store's failure; `run` then starts no other, says it and ends with exit 2, as it does
    /// for a file damaged where it opens it.
    public static var damageFound: String? { OpenDatabases.damageFound }

    /// Since when this process has waited for another process's lock on a state file, nil while it does not (the
    /// terminal UI asks while its state file opens, before any history exists to ask).
    public static var lockWaitSince: ContinuousClock.Instant? { LockWaits.since }

    /// How long a statement waits for another process's lock before it fails ("stayed locked … for 10 s").
    public static var lockTimeout: Duration { .milliseconds(Int(Database.busyTimeoutMilliseconds)) }

    /// Stops every wait for another process's lock, for good: the process is ending (q while the file opens).
    public static func stopWaitingForLocks() { LockWaits.stop() }

    /// Closes every state file this process has open (each waits for a write in progress to end): for an exit
    /// that does not run `atexit` handlers; `onSignal`, one on a signal (what is not committed is rolled back).
    public static func closeAll(onSignal: Bool = false) {
        OpenDatabases.shared.closeAll(onSignal: onSignal)
    }

    /// Closes the file now (it is also closed when the process exits): what this process wrote is copied from the
    /// -wal into the file itself, so that the file alone holds every completed flow.
    public func close() {
        database.close()
    }

    /// The identity provider's store: its counters, locks, codes and device bindings.
    public var identityProviderStore: any IdentityProviderStore { SQLiteIdentityProviderStore(database: database) }

    /// The device's store: its id, activation, session and offline token.
    package var deviceStore: any DeviceStore { SQLiteDeviceStore(database: database) }

    public var history: any FlowHistory { unformatted ? MemoryFlowHistory() : SQLiteFlowHistory(database: database) }
    /// The newest `limit` flows older than flow `before` (nil: of all) that `matches` takes (`history --before`,
    /// `--filter`), newest first; and the ids of the rows read on the way that cannot be read, which are left out.
    public func flows(limit: Int, before: Int? = nil, matching matches: (HistorySummary) -> Bool = { _ in true }) throws(StoreFailure)
        -> (entries: [HistorySummary], unreadable: [Int])
    {
        unformatted ? ([], []) : try SQLiteFlowHistory(database: database).flows(limit: limit, before: before, matching: matches)
    }

    /// Among the flows `ids`, those that did not succeed: their result's `error` (JSON text) and `failedStep`, by id,
    /// read out of the results by SQLite (not every result whole): for `history --json`.
    public func failures(ids: [Int]) throws(StoreFailure) -> [Int: (error: String?, failedStep: String?)] {
        guard !unformatted, !ids.isEmpty else { return [:] }
        do {
            let rows = try database.query("""
                SELECT id, result_json -> '$.error', result_json ->> '$.failedStep' FROM flows
                WHERE id IN (SELECT value FROM json_each(?)) AND outcome != 'success' AND json_valid(result_json)
                """, [.text("[" + ids.map(String.init).joined(separator: ",") + "]")])
            var failures: [Int: (error: String?, failedStep: String?)] = [:]
            for row in rows {
                if let id = row[0].integer { failures[Int(id)] = (row[1].text, row[2].text) }
            }
            return failures
        } catch {
            throw StoreFailure(error.description)
        }
    }

    /// `PRAGMA integrity_check`: "ok", or what is wrong.
    public func integrityCheck() throws(StateError) -> String {
        try database.query("PRAGMA integrity_check").compactMap { $0.first?.text }.joined(separator: "; ")
    }

    /// The schema version of the file as it is now.
    public func version() throws(StateError) -> Int {
        Int(try database.query("PRAGMA user_version").first?.first?.integer ?? 0)
    }

    // MARK: Schema

    /// `migrations[n]` takes a file from version n to n + 1.
    static let migrations: [String] = [
        // 0 → 1: the first schema.
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE idp_users (
            tenant TEXT NOT NULL, username TEXT NOT NULL,
            failures INTEGER NOT NULL DEFAULT 0, locked_until INTEGER, activation_used INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (tenant, username));
        CREATE TABLE idp_bindings (
            ast_client_id TEXT PRIMARY KEY, tenant TEXT NOT NULL, username TEXT NOT NULL, device_id TEXT NOT NULL);
        CREATE TABLE device (
            id INTEGER PRIMARY KEY CHECK (id = 1), device_id TEXT NOT NULL,
            tenant TEXT, user_id TEXT, ast_client_id TEXT, auth_mode TEXT,
            access_token_hash BLOB, offline_token_hash BLOB, offline_expires_at INTEGER);
        CREATE TABLE flows (
            id INTEGER PRIMARY KEY AUTOINCREMENT, started_at TEXT NOT NULL, flow TEXT NOT NULL, user TEXT,
            outcome TEXT NOT NULL, status TEXT NOT NULL, duration_us INTEGER NOT NULL, result_json TEXT NOT NULL);
        CREATE TABLE flow_events (
            flow_id INTEGER NOT NULL REFERENCES flows(id) ON DELETE CASCADE, sequence INTEGER NOT NULL,
            event_json TEXT NOT NULL, PRIMARY KEY (flow_id, sequence));
        """,
        // 1 → 2: the step of each event as a column (filled from the JSON), to find flows by step.
        """
        ALTER TABLE flow_events ADD COLUMN step TEXT;
        UPDATE flow_events SET step = json_extract(event_json, '$.step');
        CREATE INDEX flow_events_step ON flow_events(step);
        """,
    ]

    private func migrate() throws(StateError) {
        let path = path
        try database.write { transaction throws(StateError) in
            let version = Int(try transaction.query("PRAGMA user_version").first?.first?.integer ?? 0)
            let application = try transaction.query("PRAGMA application_id").first?.first?.integer ?? 0
            if version > Self.schemaVersion { throw Self.fromANewerVersion(path, version) }
            if version < 0 { throw Self.negativeVersion(path, version) }
            if application != Self.applicationID {
                let tables = try transaction.query("SELECT count(*) FROM sqlite_master").first?.first?.integer ?? 0
                guard application == 0 && tables == 0 else { throw Self.notOurs(path) }
                try transaction.execute("PRAGMA application_id = \(Self.applicationID)")
            }
            for step in version..<Self.schemaVersion {
                // A step that fails on idp-tui's own file (its version set back by hand: "duplicate column name")
                // is a damaged file, which the error says and `reset` moves aside; it was SQLite's words alone.
                do throws(StateError) {
                    try transaction.execute(Self.migrations[step])
                } catch where application == Self.applicationID && error.reason != .busy {
                    throw Self.versionMismatch(path, version, error.description)
                }
            }
            if version != Self.schemaVersion { try transaction.execute("PRAGMA user_version = \(Self.schemaVersion)") }
            // Checked in the same transaction, so that a file refused is left as it was (migrated and then refused,
            // an older file had become schema 2 in WAL mode); named by the version it had.
            if application == Self.applicationID { try Self.checkTables(try Self.columns(transaction), path, version) }
        }
    }

    /// Creates a file at an older schema version, for the migration tests.
    public static func createForTesting(path: String, version: Int) throws(StateError) {
        let database = try Database(path: path)
        try database.write { transaction throws(StateError) in
            try transaction.execute("PRAGMA application_id = \(applicationID)")
            for step in 0..<version { try transaction.execute(migrations[step]) }
            try transaction.execute("PRAGMA user_version = \(version)")
        }
    }

    /// Runs SQL on a file without opening it as a state file (tests: rows of an older schema).
    public static func executeWithoutMigratingForTesting(path: String, _ sql: String) throws(StateError) {
        try Database(path: path).execute(sql)
    }

    /// Runs SQL on the file (tests: to make a file from the future).
    public func executeForTesting(_ sql: String) throws(StateError) {
        try database.execute(sql)
    }

    public func queryForTesting(_ sql: String) throws(StateError) -> [[String]] {
        try database.query(sql).map { row in
            row.map { value in
                switch value {
                case .null: "NULL"
                case .integer(let number): String(number)
                case .text(let text): text
                case .blob(let bytes): "<\(bytes.count) bytes>"
                }
            }
        }
    }
}

// MARK: - The IdP's store

final class SQLiteIdentityProviderStore: IdentityProviderStore {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    private static func counters(_ row: [SQLValue]?) -> UserCounters {
        guard let row else { return UserCounters() }
        return UserCounters(
            // A count below zero (a hand-edited row) counts from zero: -1000 let ten wrong passwords in a row pass
            // without the lock that three bring.
            failures: Int(max(0, row[0].integer ?? 0)),
            lockedUntil: row[1].integer.map { SimulationInstant(nanosecondsSinceEpoch: $0) },
            activationUsed: (row[2].integer ?? 0) != 0)
    }

    private static let selectUser = "SELECT failures, locked_until, activation_used FROM idp_users WHERE tenant = ? AND username = ?"

    /// A user's key as stored: the tenant and the name in Unicode's composed form (NFC). The IdP finds a user by any
    /// spelling of its name ("Å" as one character or as A and a ring), as Swift compares strings; SQLite compares
    /// bytes, and each spelling had its own failures, lock and spent activation code.
    private static func key(_ tenant: String, _ username: String) -> [SQLValue] {
        [.text(tenant.precomposedStringWithCanonicalMapping), .text(username.precomposedStringWithCanonicalMapping)]
    }

    func user(tenant: String, username: String) throws(StoreFailure) -> UserCounters {
        do {
            return Self.counters(try database.query(Self.selectUser, Self.key(tenant, username)).first)
        } catch {
            throw StoreFailure(error.description)
        }
    }

    func updateUser<T>(tenant: String, username: String, _ body: (inout UserCounters) -> T) throws(StoreFailure) -> T {
        do {
            return try database.write { transaction throws(StateError) -> T in
                let key = Self.key(tenant, username)
                var counters = Self.counters(try transaction.query(Self.selectUser, key).first)
                let value = body(&counters)
                // A user with nothing to remember has no row; a row written is a new one (REPLACE), so the oldest
                // rowids are the names least recently written, the first the size budget forgets (Retention).
                _ = try transaction.query("DELETE FROM idp_users WHERE tenant = ? AND username = ?", key)
                if counters != UserCounters() {
                    _ = try transaction.query(
                        "INSERT INTO idp_users (tenant, username, failures, locked_until, activation_used) VALUES (?, ?, ?, ?, ?)",
                        key + [.integer(Int64(counters.failures)),
                         counters.lockedUntil.map { .integer($0.nanosecondsSinceEpoch) } ?? .null, .integer(counters.activationUsed ? 1 : 0)])
                }
                return value
            }
        } catch {
            throw StoreFailure(error.description)
        }
    }

    func binding(astClientId: String) throws(StoreFailure) -> DeviceBinding? {
        do {
            let row = try database.query("SELECT username, tenant, device_id FROM idp_bindings WHERE ast_client_id = ?", [.text(astClientId)]).first
            guard let row, let username = row[0].text, let tenant = row[1].text, let device = row[2].text else { return nil }
            return DeviceBinding(username: username, tenant: tenant, deviceID: device)
        } catch {
            throw StoreFailure(error.description)
        }
    }

    func bindNew(astClientId: String, to binding: DeviceBinding) throws(StoreFailure) -> Bool {
        do {
            // One transaction: two processes minting the same id cannot both find it free.
            return try database.write { transaction throws(StateError) -> Bool in
                let held = try transaction.query("SELECT 1 FROM idp_bindings WHERE ast_client_id = ?", [.text(astClientId)])
                guard held.isEmpty else { return false }
                _ = try transaction.query(
                    "INSERT INTO idp_bindings (ast_client_id, tenant, username, device_id) VALUES (?, ?, ?, ?)",
                    [.text(astClientId), .text(binding.tenant), .text(binding.username), .text(binding.deviceID)])
                return true
            }
        } catch {
            throw StoreFailure(error.description)
        }
    }

    func epoch(orStartAt now: SimulationInstant) throws(StoreFailure) -> SimulationInstant {
        do {
            return try database.write { transaction throws(StateError) -> SimulationInstant in
                if let stored = try transaction.query("SELECT value FROM meta WHERE key = 'idp_epoch'").first?.first?.text,
                    let nanoseconds = Int64(stored)
                {
                    return SimulationInstant(nanosecondsSinceEpoch: nanoseconds)
                }
                _ = try transaction.query("INSERT INTO meta (key, value) VALUES ('idp_epoch', ?)", [.text(String(now.nanosecondsSinceEpoch))])
                return now
            }
        } catch {
            throw StoreFailure(error.description)
        }
    }
}
