import Foundation

extension StateFile {
    /// Opens a state file to read its history (`idp-tui history`, `history show`, `history export`).
    ///
    /// A file this user can write, in a folder they can write, is opened as ``init(path:)`` opens it (migrated
    /// when it is older). One that is read-only to them — the file (`chmod 400`) or its folder (`chmod 500`,
    /// where SQLite would make the -wal and -shm) — is read as it is: opened read-only, nothing made, migrated
    /// or written (only others' permission bits are taken off the user's own file once it is known to be idp-tui's, as always). Its writes then
    /// fail: the commands that write open the file with ``init(path:)``, which refuses it in one line. A file, -wal
    /// or -shm the user may not read is refused in one line that says so, with its mode and owner.
    public convenience init(reading path: String) throws(StateError) {
        // An empty file (a run that found the disk full, `touch`) is read as it is, an empty history: reading it
        // built the whole schema in it (on a full disk, "the disk … is full" instead of "no flows yet").
        let empty = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0
        guard StatePath.writeProblem(path) != nil || empty else {
            try self.init(path: path)
            return
        }
        try self.init(readingOnly: path)
    }

    /// Opens a file as ``init(reading:)`` opens one the user cannot write, whoever the user is (tests run as root,
    /// whom no permission stops).
    public static func readOnlyForTesting(path: String) throws(StateError) -> StateFile {
        try StateFile(readingOnly: path)
    }

    private convenience init(readingOnly path: String) throws(StateError) {
        let (warnings, database, tables) = try Self.openUnchanged(path)
        StatePath.tighten(path)
        // An older schema is read as it is: every version has the flows and flow_events columns the history reads.
        self.init(path: path, database: database, warnings: warnings, readOnly: true, unformatted: tables == 0)
    }

    /// Refuses, as ``init(path:)`` would, a path it would refuse whatever the file's contents and whoever holds it
    /// (a folder, a FIFO, a path behind a folder the user cannot search, a file that is not SQLite, or one the user
    /// cannot read or write), without making, opening or locking anything: `run` checks it before it reads the
    /// answers, and opens the file after (a refused answer then leaves no new file, and waits on no lock).
    public static func checkBeforeOpening(_ path: String) throws(StateError) {
        switch StatePath.Entry(path) {
        case .missing: return
        case .unreachable(let refusal): throw StateError(refusal)
        case .notAFile(let what): throw StateError(StatePath.refusal(path, what) + "; name another file with --state")
        case .regularFile:
            if let problem = StatePath.writeProblem(path) { throw StateError(problem) }
            guard StatePath.isSQLiteOrEmpty(path) else { throw Database.damaged(path, "file is not a database") }
        }
    }

    /// Checks that `path` holds a state file this user may read, as ``init(reading:)`` does, and changes nothing
    /// at all: no migration, no journal mode, no permission (`compare` and `scenario`, which do not use it).
    public static func check(_ path: String) throws(StateError) {
        try openUnchanged(path).database.close()
    }

    /// A read-only connection to an idp-tui state file (refused in one line otherwise), and the folder's warnings.
    private static func openUnchanged(_ path: String) throws(StateError) -> (warnings: [String], database: Database, tables: Int64) {
        let warnings = try StatePath.prepareForReading(path)
        if let problem = StatePath.readProblem(path) { throw StateError(problem) }
        guard StatePath.isSQLiteOrEmpty(path) else { throw Database.damaged(path, "file is not a database") }
        let database = try Database(path: path, readOnly: true)
        do {
            return (warnings, database, try identify(database, path).tables)
        } catch {
            database.close()
            throw error
        }
    }

    /// Refuses a state file `run` could not make where nothing is yet: a file where a folder should be
    /// (`/etc/passwd/x.db`), a folder to make inside one this user cannot write, or a folder they cannot write.
    /// Nothing is made. Commands that do not use `--state` check it so, as `run` would refuse it (they took it).
    public static func checkCouldBeMade(_ path: String) throws(StateError) {
        let (existing, missing) = try StatePath.missingFolders(for: path)
        // The outermost folder to make is the one made in `existing`.
        if let outermost = missing.last {
            guard access(existing, W_OK | X_OK) == 0 else {
                throw StateError("cannot create the folder \(outermost) for the state file: \(String(cString: strerror(errno)))")
            }
        } else if let problem = StatePath.writeProblem(path) {
            throw StateError(problem)
        }
    }

    /// Whether nothing at all is at `path` (`lstat`: no such entry): a new user's default file before the first
    /// flow. Anything there is not nothing, a link that leads nowhere included: opening it says what is wrong with
    /// it. Throws, in one line, when the path cannot be looked at (a folder on the way this user cannot search).
    public static func isAbsent(_ path: String) throws(StateError) -> Bool {
        switch StatePath.Entry(path) {
        case .missing: return true
        case .unreachable(let refusal): throw StateError(refusal)
        case .regularFile, .notAFile: return false
        }
    }
}

extension StateFile {
    /// The generation of randomness a run on this file draws from (``RandomSource/seed(_:generation:)``), reserved:
    /// each call has its own, in a write, so that runs started on the file at the same moment draw apart (eight
    /// parallel payments on one file had seven the same 3-D Secure transaction ids, each counting the flows the file
    /// held). 0 on a fresh file, the seed itself, as `--ephemeral` draws; a file from before the counter starts at
    /// the flows it has recorded. A copy of the file replays the run that follows it. Every run that builds its world
    /// takes one, a run refused for bad input or a terminal UI quit with no flow too. A file another process keeps
    /// locked is thrown, as any run's first write is (it fell back to the flows recorded, which other runs share); a
    /// file that cannot be written (read-only, or another failure, which the flows' writes then say) gives the flows
    /// recorded.
    ///
    /// It is the run's first write, before its world is built: a lock held past the wait ends the run here, once
    /// (the world's first write, the IdP's epoch, then waited it out a second time).
    public func reserveGeneration() throws(StateError) -> UInt64 {
        guard !readOnly, !unformatted else { return flowsRecorded }
        do {
            return try database.write { transaction throws(StateError) -> UInt64 in
                let stored = try transaction.query("SELECT value FROM meta WHERE key = 'generation'").first?.first?.text.flatMap { UInt64($0) }
                let recorded = Self.flowsRecorded(try transaction.query(Self.flowsRecordedQuery))
                let generation = stored ?? recorded
                _ = try transaction.query("INSERT OR REPLACE INTO meta (key, value) VALUES ('generation', ?)", [.text(String(generation &+ 1))])
                return generation
            }
        } catch where error.reason == .busy {
            throw error
        } catch {
            return flowsRecorded
        }
    }

    /// How many flows the file has ever recorded (history ids given out: pruning, `history prune` and `reset`, which
    /// empties the file in place, do not lower it: an id is never given twice).
    public var flowsRecorded: UInt64 {
        guard !unformatted, let rows = try? database.query(Self.flowsRecordedQuery) else { return 0 }
        return Self.flowsRecorded(rows)
    }

    private static let flowsRecordedQuery = "SELECT seq FROM sqlite_sequence WHERE name = 'flows'"

    /// How many flows the file holds now.
    public var flowCount: Int {
        guard !unformatted, let rows = try? database.query(Self.flowCountQuery) else { return 0 }
        return Int(rows.first?.first?.integer ?? 0)
    }

    static let flowCountQuery = "SELECT count(*) FROM flows"

    private static func flowsRecorded(_ rows: [[SQLValue]]) -> UInt64 {
        guard let seq = rows.first?.first?.integer, seq > 0 else { return 0 }
        return UInt64(seq)
    }
}
