import CSQLite
import Foundation
import Synchronization
import Threading

/// Why a state file cannot be used, in words a user can act on.
public struct StateError: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// What SQLite said, where the difference matters to `reset`.
    let reason: Reason

    enum Reason: Sendable {
        case damaged, busy, other
    }

    init(_ description: String, reason: Reason = .other) {
        self.description = description
        self.reason = reason
    }
}

/// A value bound to, or read from, a statement.
enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])

    var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    var text: String? { if case .text(let value) = self { value } else { nil } }
    var blob: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
}

/// One SQLite connection, used by one thread at a time: every statement and transaction holds the
/// connection's lock. Writes run in `BEGIN IMMEDIATE` transactions, so that two processes on one file
/// serialise through SQLite's own lock (waiting up to the busy timeout) instead of failing half-way.
final class Database: @unchecked Sendable {
    // @unchecked: `handle` and `immutable` are used only while `lock` is held (a read-only connection's reading
    // again replaces them under it), and `handle` never after `closed` is set under it.
    private(set) var handle: OpaquePointer
    /// Opened `immutable` (read-only, no -wal there when it was opened): it reads the file without locks.
    private var immutable: Bool
    /// Whether the connection is closed (by ``close()``, or by the process exiting).
    private let lock = Locked(false)
    let path: String
    /// Opened only to read: what SQLite cannot open it says it cannot read, not write.
    let readOnly: Bool

    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// SQLite's busy handler: while another process holds the file's lock, waits 5 ms at a time, up to the busy
    /// timeout, and no longer once the process is exiting on a signal (``OpenDatabases/closing``): a `reset` or a
    /// `history prune` waiting on the lock when Ctrl-C came went on to empty the file once the lock was free (the
    /// signal's handler waited for it to close the file), and then exited 130 as if nothing had been done.
    /// Nor once someone stopped waiting (``LockWaits/stop()``), and briefly after a wait that ran out (``LockWaits/briefWait``).
    static func waitWhileBusy(_ connection: UnsafeMutableRawPointer?, _ count: Int32) -> Int32 {
        let pause: Int32 = 5
        guard count < busyTimeoutMilliseconds / pause else {
            LockWaits.ranOut(UInt(bitPattern: connection))
            return 0
        }
        guard !OpenDatabases.closing.load(ordering: .acquiring), LockWaits.waiting(UInt(bitPattern: connection), count: count)
        else { return 0 }
        usleep(UInt32(pause) * 1000)
        return 1
    }

    /// Opens (creating) the file to read and write it; `readOnly`, only to read it (``StateFile/init(reading:)``).
    init(path: String, readOnly: Bool = false) throws(StateError) {
        self.path = path
        self.readOnly = readOnly
        let connection = try Self.connect(path, readOnly: readOnly)
        handle = connection.handle
        immutable = connection.immutable
        var info = stat()
        identity = path != ":memory:" && stat(path, &info) == 0 ? (UInt64(info.st_dev), UInt64(info.st_ino)) : nil
        if path != ":memory:" { OpenDatabases.shared.add(self) }
    }

    /// The file's device and inode when it was opened.
    private let identity: (device: UInt64, inode: UInt64)?

    /// Why the file at ``path`` is no longer the one this connection has open, if it is not: deleted, or replaced
    /// (`mv other.db FILE`). SQLite keeps its journal by the path, so a write now would go into the journal beside
    /// another file (a tester's `mv` and a logout under the terminal UI left the new file's indexes corrupt): none is
    /// made. What the journal held before the `mv` may still pair with the new file (SQLite's own warning: never
    /// move a database that is open).
    var goneFromItsPath: String? {
        guard let identity else { return nil }
        var info = stat()
        if stat(path, &info) != 0 {
            return "the state file \(path) was deleted while idp-tui had it open: what was done since (flows, the device) was not kept"
        }
        guard UInt64(info.st_dev) == identity.device, UInt64(info.st_ino) == identity.inode else {
            return "the state file \(path) was replaced while idp-tui had it open: what was done since (flows, the device) was not kept, and nothing was written to the file there now"
        }
        return nil
    }

    private static func connect(_ path: String, readOnly: Bool) throws(StateError) -> (handle: OpaquePointer, immutable: Bool) {
        var opened: OpaquePointer?
        // NOFOLLOW: a symbolic link at the path is refused by SQLite too, not only by StatePath's check before.
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        // SQLite's NOFOLLOW refuses a link anywhere on the path; only the file itself must not be one, so SQLite is
        // given the path through its folder's real place (a home or project folder reached by a link is usual).
        var name = StatePath.throughRealFolder(path)
        let immutable = readOnly && StatePath.Entry(path + "-wal") == .missing
        if !readOnly {
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        } else if immutable {
            // No -wal: no process has the file open (in WAL mode the first connection makes it, the last removes
            // it). A read-only connection would make the -wal and -shm itself (and cannot in a read-only folder),
            // with the file's read-only mode, and leave them: a -shm left read-only makes every later write fail
            // with "attempt to write a readonly database", even once the file is writable again. `immutable`
            // reads the file as it is, with no companions and no locks.
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = Self.immutableURI(name)
        } else {
            // Another process has it open (or one was killed): its -wal holds flows the file itself may not yet.
            flags |= SQLITE_OPEN_READONLY
        }
        let code = sqlite3_open_v2(name, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close(opened)
            throw StateError("cannot \(readOnly ? "read" : "open") the state file \(path): \(message)")
        }
        // The handle's own address is the handler's context: which connection waits, for ``LockWaits``.
        sqlite3_busy_handler(opened, { connection, count in Database.waitWhileBusy(connection, count) }, UnsafeMutableRawPointer(opened))
        return (opened, immutable)
    }

    /// Runs `body` (under `lock`), and once more when an `immutable` connection found the file damaged: without
    /// locks it may have read the file while a writer that came after it was checkpointing into it, half old
    /// pages and half new. The connection is opened again first: a plain read-only reader, through the writer's
    /// -wal and under its locks, when a -wal is there now; when none is, the writer has ended, its checkpoint
    /// whole, and the file is read `immutable` again (a plain reader would make a -wal and -shm and leave them,
    /// or fail in a read-only folder). Damage found again is reported.
    private func readingAgainIfTorn<T>(_ body: () throws(StateError) -> T) throws(StateError) -> T {
        do throws(StateError) {
            return try body()
        } catch let error where error.reason == .damaged && immutable {
            guard let connection = try? Self.connect(path, readOnly: true) else { throw error }
            sqlite3_close_v2(handle)
            handle = connection.handle
            immutable = connection.immutable
            return try body()
        }
    }

    /// `file:…?immutable=1` for a path: `?`, `#`, `%` and anything else outside the URI's plain characters escaped.
    static func immutableURI(_ path: String) -> String {
        let plain = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")
        let escaped = path.addingPercentEncoding(withAllowedCharacters: plain) ?? path
        // An absolute path after an empty authority (`file:///tmp/…`), so that one starting `//` is not a host.
        return (path.hasPrefix("/") ? "file://" : "file:") + escaped + "?immutable=1"
    }

    deinit {
        OpenDatabases.shared.remove(self)
        lock.withLock { closed in
            if !closed {
                LockWaits.forget(connection)
                sqlite3_close_v2(handle)
            }
            closed = true
        }
    }

    /// Copies what this process wrote from the -wal into the file itself (as far as other readers allow) and
    /// closes the connection; the last connection to close also removes the -wal and -shm. Waits for a
    /// statement or transaction in progress on another thread; later use throws.
    func close() {
        lock.withLock { closed in
            guard !closed else { return }
            closed = true
            sqlite3_exec(handle, "PRAGMA wal_checkpoint(PASSIVE)", nil, nil, nil)
            LockWaits.forget(connection)
            sqlite3_close_v2(handle)
        }
    }

    private func open(_ closed: Bool) throws(StateError) {
        if closed { throw StateError("the state file \(path) is closed: idp-tui is exiting") }
    }

    // MARK: Statements

    /// Runs SQL that returns no rows (several statements allowed).
    func execute(_ sql: String) throws(StateError) {
        try lock.withLock { closed throws(StateError) in
            try open(closed)
            try executeLocked(sql)
        }
    }

    private func executeLocked(_ sql: String) throws(StateError) {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        guard code == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(error)
            throw failure(code, message)
        }
    }

    /// Runs one statement and returns its rows.
    func query(_ sql: String, _ arguments: [SQLValue] = []) throws(StateError) -> [[SQLValue]] {
        try lock.withLock { closed throws(StateError) in
            try open(closed)
            return try readingAgainIfTorn { () throws(StateError) in try queryLocked(sql, arguments) }
        }
    }

    private func queryLocked(_ sql: String, _ arguments: [SQLValue]) throws(StateError) -> [[SQLValue]] {
        var statement: OpaquePointer?
        var code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, String(cString: sqlite3_errmsg(handle))) }
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            switch argument {
            case .null: code = sqlite3_bind_null(statement, position)
            case .integer(let value): code = sqlite3_bind_int64(statement, position, value)
            case .text(let value): code = sqlite3_bind_text(statement, position, value, -1, idp_sqlite_transient())
            case .blob(let value):
                code = value.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), idp_sqlite_transient()) }
            }
            guard code == SQLITE_OK else { throw failure(code, String(cString: sqlite3_errmsg(handle))) }
        }
        var rows: [[SQLValue]] = []
        while true {
            code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw failure(code, String(cString: sqlite3_errmsg(handle))) }
            let count = sqlite3_column_count(statement)
            rows.append((0..<count).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
                case SQLITE_BLOB:
                    .blob(Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, column),
                                                       count: Int(sqlite3_column_bytes(statement, column)))))
                default: .null
                }
            })
        }
    }

    // MARK: Transactions

    /// The connection inside a transaction.
    struct Transaction {
        fileprivate let database: Database

        func query(_ sql: String, _ arguments: [SQLValue] = []) throws(StateError) -> [[SQLValue]] {
            try database.queryLocked(sql, arguments)
        }

        func execute(_ sql: String) throws(StateError) {
            try database.executeLocked(sql)
        }
    }

    /// Runs `body` again, a few milliseconds apart, while it fails because another process holds the file's lock,
    /// up to the busy timeout: for the statements SQLite fails at once with SQLITE_BUSY instead of calling its busy
    /// handler, such as `PRAGMA journal_mode = WAL` while another process has the file open (two runs making a
    /// new file at the same time: one in six failed, "stayed locked … for 10 s" after 10 ms).
    /// Its waits are the busy handler's to ``LockWaits`` (shown on screen, stopped by an Esc or a q, brief after one
    /// ran out): this one was neither shown nor stoppable.
    func retryingWhileBusy<T>(_ body: () throws(StateError) -> T) throws(StateError) -> T {
        let timeout = Duration.milliseconds(Int(Self.busyTimeoutMilliseconds))
        let start = ContinuousClock.now
        var pause = Duration.milliseconds(1)
        var count: Int32 = 0
        while true {
            do throws(StateError) {
                return try body()
            } catch where error.reason == .busy {
                if ContinuousClock.now - start >= timeout {
                    LockWaits.ranOut(connection)
                    throw LockWaits.lockedError(connection, path: path, timeout: timeout)
                }
                guard !OpenDatabases.closing.load(ordering: .acquiring), LockWaits.waiting(connection, count: count) else {
                    throw LockWaits.lockedError(connection, path: path, timeout: timeout)
                }
                count += 1
                Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18 + Double(pause.components.seconds))
                pause = min(pause * 2, .milliseconds(50))
            }
        }
    }

    /// Runs `body` in a write transaction: all of it is committed, or none of it.
    func write<T>(_ body: (Transaction) throws(StateError) -> T) throws(StateError) -> T {
        try lock.withLock { closed throws(StateError) -> T in
            try open(closed)
            if let gone = goneFromItsPath { throw StateError(gone) }
            try executeLocked("BEGIN IMMEDIATE")
            do throws(StateError) {
                let value = try body(Transaction(database: self))
                // Nothing is committed once the process is exiting on a signal: the change is rolled back.
                if OpenDatabases.closing.load(ordering: .acquiring) {
                    throw StateError("the state file \(path) is closed: idp-tui is exiting")
                }
                try executeLocked("COMMIT")
                LockWaits.lockWasFree(connection)
                return value
            } catch {
                try? executeLocked("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `body` in a read transaction (one consistent snapshot).
    func read<T>(_ body: (Transaction) throws(StateError) -> T) throws(StateError) -> T {
        try lock.withLock { closed throws(StateError) -> T in
            try open(closed)
            return try readingAgainIfTorn { () throws(StateError) -> T in
                try executeLocked("BEGIN")
                defer { try? executeLocked("COMMIT") }
                return try body(Transaction(database: self))
            }
        }
    }

    /// The error for a file SQLite cannot read, or that is not SQLite at all.
    static func damaged(_ path: String, _ message: String) -> StateError {
        // `reset` moves only a file that is idp-tui's (or unreadable garbage); another program's file, a text file,
        // it refuses: so the advice that always works comes first.
        // Shorter (it took five rows at 80 columns): what reset does in a few words, no brackets inside.
        StateError("the state file \(path) is damaged or not an idp-tui state file (\(message)); \(StatePath.moveAdvice(path)), or name another file with --state; idp-tui reset moves a damaged file aside, never another program's (a database, text, an archive)",
                   reason: .damaged)
    }

    /// The damage `PRAGMA quick_check(table)` found, said as a read that met it says it, or nil when its answer is
    /// "ok": for a lookup that found no row, which is what a broken cell on the table's page reads as (no error). A
    /// device page damaged so read as no device: the next login made a new one over alice's activation, exit 1.
    func damage(checked rows: [[SQLValue]]) -> StateError? {
        rows.compactMap { $0.first?.text } == ["ok"] ? nil : failure(SQLITE_CORRUPT, "database disk image is malformed")
    }

    private func failure(_ code: Int32, _ message: String) -> StateError {
        switch code & 0xff {
        // Noted for `run` only where it is the file's (an immutable reader racing a writer's checkpoint may see
        // damage that a second read does not, docs/state-and-history.md).
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            immutable ? Self.damaged(path, message) : OpenDatabases.noteDamage(Self.damaged(path, message))
        case SQLITE_BUSY, SQLITE_LOCKED:
            LockWaits.lockedError(connection, path: path, timeout: .milliseconds(Self.busyTimeoutMilliseconds))
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM:
            StateError("cannot \(readOnly ? "read" : "write") the state file \(path): \(message)")
        case SQLITE_FULL:
            StateError("the disk holding the state file \(path) is full")
        // A full disk met while making the -shm or the -wal is an I/O error to SQLite ("disk I/O error", which sent
        // the user looking for a failing disk): the free space says which it is.
        case SQLITE_IOERR where Self.diskIsFull(holding: path):
            StateError("the disk holding the state file \(path) is full (\(message))")
        // Past the process's file-size limit (`ulimit -f`; SIGXFSZ ignored) a write fails EFBIG: "disk I/O error" too,
        // and SQLite's errno is not always that write's (the -wal's or the -shm's).
        case SQLITE_IOERR where Self.fileSizeLimit != nil:
            StateError("the state file \(path): \(message) (this process may write files of \(Self.fileSizeLimit ?? 0) KiB at most, ulimit -f: the file or its -wal may have reached that)")
        default:
            StateError("the state file \(path): \(message)")
        }
    }

    /// The process's file-size limit in KiB (`ulimit -f`), nil when it has none.
    static var fileSizeLimit: UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur) / 1024
    }

    /// Whether the file system holding `path`'s folder has no room left for a page of the -wal or the -shm.
    static func diskIsFull(holding path: String) -> Bool {
        var info = statvfs()
        let folder = StatePath.folder(of: path)
        guard statvfs(folder.isEmpty ? "." : folder, &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < 64 * 1024
    }
}
