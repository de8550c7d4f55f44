import Foundation

extension StateFile {
    /// Refuses a database that is another program's or a newer idp-tui's before anything is written to it (the
    /// journal mode included, which SQLite keeps in the file's header) and before its permissions are touched.
    /// Returns the number of its tables: 0 for a file that is empty or that SQLite has only just made.
    /// The file's tables, and whether it is idp-tui's at this schema (nothing to migrate).
    static func identify(_ database: Database, _ path: String) throws(StateError) -> (tables: Int64, current: Bool) {
        // One snapshot: read one by one, another process making the file between them showed it with tables and no
        // application id, "an SQLite database, but not an idp-tui state file".
        let (application, version, tables) = try database.read { transaction throws(StateError) in
            (try transaction.query("PRAGMA application_id").first?.first?.integer ?? 0,
             Int(try transaction.query("PRAGMA user_version").first?.first?.integer ?? 0),
             try transaction.query("SELECT count(*) FROM sqlite_master").first?.first?.integer ?? 0)
        }
        if version > Self.schemaVersion { throw Self.fromANewerVersion(path, version) }
        guard application == Self.applicationID || (application == 0 && tables == 0) else { throw Self.notOurs(path) }
        if version < 0 { throw Self.negativeVersion(path, version) }
        return (tables, application == Self.applicationID && version == Self.schemaVersion)
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
