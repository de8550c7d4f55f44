import Foundation

extension StateFile {
    /// Refuses a database that is another program's or a newer idp-tui's before anything is written to it (the
    /// journal mode included, which SQLite keeps in the file's header) and before its permissions are touched.
    /// Returns the number of its tables: 0 for a file that is empty or that SQLite has only just made.
    /// The file's tables, and whether it is idp-tui's at this schema (nothing to migrate).
    static func identify(_ database: Database, _ path: String) throws(StateError) -> (tables: Int64, current: Bool) {
        // One snapshot: read one by one, another process making the file between them showed it with tables and no
        // application id, "an SQLite database, but not an idp-tui state file".
        let (application, version, tables, columns) = try database.read { transaction throws(StateError) in
            (try transaction.query("PRAGMA application_id").first?.first?.integer ?? 0,
             Int(try transaction.query("PRAGMA user_version").first?.first?.integer ?? 0),
             try transaction.query("SELECT count(*) FROM sqlite_master").first?.first?.integer ?? 0,
             try Self.columns(transaction))
        }
        if version > Self.schemaVersion { throw Self.fromANewerVersion(path, version) }
        guard application == Self.applicationID || (application == 0 && tables == 0) else { throw Self.notOurs(path) }
        if version < 0 { throw Self.negativeVersion(path, version) }
        let current = application == Self.applicationID && version == Self.schemaVersion
        if current { try checkTables(columns, path, version) }
        return (tables, current)
    }

    /// Every table's columns, as `table.column`.
    static func columns(_ transaction: Database.Transaction) throws(StateError) -> Set<String> {
        let rows = try transaction.query(
            "SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE m.type = 'table'")
        return Set(rows.compactMap { row in row.count == 2 ? row[0].text.flatMap { table in row[1].text.map { "\(table).\($0)" } } : nil })
    }

    /// The columns a file at this schema has: those the migrations make, read from a database made by them in memory
    /// once (so that no second list of them can drift).
    static let schemaColumns: Set<String> = {
        guard let database = try? Database(path: ":memory:") else { return [] }
        defer { database.close() }
        return (try? database.write { transaction throws(StateError) in
            for migration in migrations { try transaction.execute(migration) }
            return try columns(transaction)
        }) ?? []
    }()

    /// Refuses, as damaged, a file at this schema whose tables or columns are not all there (a table dropped or a
    /// column renamed by hand): it was used as it was, and each flow then failed on its own ("no such table"), a
    /// login as the IdP's HTTP 500, the history as a full disk; `reset` moves such a file aside.
    static func checkTables(_ columns: Set<String>, _ path: String, _ version: Int) throws(StateError) {
        let missing = schemaColumns.subtracting(columns).sorted()
        guard !missing.isEmpty else { return }
        let present = Set(columns.map { String($0.prefix { $0 != "." }) })
        let tables = Set(missing.map { String($0.prefix { $0 != "." }) }).subtracting(present).sorted()
        let gone = tables.isEmpty ? missing : tables
        let names = gone.count == 1 ? gone[0] : gone.dropLast().joined(separator: ", ") + " and " + (gone.last ?? "")
        let what = (tables.isEmpty ? "its column" : "its table") + (gone.count == 1 ? " \(names) is" : "s \(names) are")
        throw versionMismatch(path, version, what + " missing")
    }

    static func fromANewerVersion(_ path: String, _ version: Int) -> StateError {
        StateError("the state file \(path) was written by a newer idp-tui (schema \(version); this one reads up to \(schemaVersion)); use that idp-tui, or another file with --state")
    }

    /// A schema version below 0, which no idp-tui writes (migrating from it indexed outside the migrations): the
    /// file is idp-tui's, damaged, so `reset` moves it aside.
    static func negativeVersion(_ path: String, _ version: Int) -> StateError {
        Database.damaged(path, "schema version \(version), which no idp-tui writes")
    }

    static func versionMismatch(_ path: String, _ version: Int, _ failure: String) -> StateError {
        Database.damaged(path, "schema version \(version) does not match its tables: \(failure)")
    }

    static func notOurs(_ path: String) -> StateError {
        StateError("\(path) is an SQLite database, but not an idp-tui state file; name another file with --state")
    }
}

extension StatePath {
    /// Takes others' permission bits off the user's own state file and its -wal and -shm (0644 → 0600; a file the
    /// user made read-only stays so: 0444 → 0400), once the file is known to be idp-tui's
    /// (``StateFile/identify(_:_:)``): a file that is refused is left as it was.
    static func tighten(_ path: String) {
        guard path != ":memory:" else { return }
        for suffix in [""] + companions {
            if case .regularFile(_, let mode, let owner) = Entry(path + suffix), owner == geteuid(), mode & 0o077 != 0 {
                chmod(path + suffix, mode & 0o600)
            }
        }
    }

    /// Whether the file is empty or its SQLite header carries idp-tui's application id: read from the bytes, for
    /// what must be mended before SQLite can open the file at all (a read-only -shm).
    static func headerIsOursOrEmpty(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 72)) ?? Data())
        return head.isEmpty || applicationID(inHeader: head) == StateFile.applicationID
    }

    /// The application id an SQLite header holds (bytes 68–71, big-endian); nil for a header too short to hold one.
    static func applicationID(inHeader head: [UInt8]) -> Int64? {
        head.count >= 72 ? head[68..<72].reduce(Int64(0)) { $0 << 8 | Int64($1) } : nil
    }
}
