import CSQLite
import Foundation
import Threading

/// Why a state file cannot be used, in words a user can act on.
public struct StateError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
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
    // @unchecked: `handle` is used only while `lock` is held.
    private let handle: OpaquePointer
    private let lock = Locked(())
    let path: String

    static let busyTimeoutMilliseconds: Int32 = 10_000

    init(path: String) throws(StateError) {
        self.path = path
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close(opened)
            throw StateError("cannot open the state file \(path): \(message)")
        }
        handle = opened
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    // MARK: Statements

    /// Runs SQL that returns no rows (several statements allowed).
    func execute(_ sql: String) throws(StateError) {
        try lock.withLock { _ throws(StateError) in try executeLocked(sql) }
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
        try lock.withLock { _ throws(StateError) in try queryLocked(sql, arguments) }
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

    /// Runs `body` in a write transaction: all of it is committed, or none of it.
    func write<T>(_ body: (Transaction) throws(StateError) -> T) throws(StateError) -> T {
        try lock.withLock { _ throws(StateError) -> T in
            try executeLocked("BEGIN IMMEDIATE")
            do throws(StateError) {
                let value = try body(Transaction(database: self))
                try executeLocked("COMMIT")
                return value
            } catch {
                try? executeLocked("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `body` in a read transaction (one consistent snapshot).
    func read<T>(_ body: (Transaction) throws(StateError) -> T) throws(StateError) -> T {
        try lock.withLock { _ throws(StateError) -> T in
            try executeLocked("BEGIN")
            defer { try? executeLocked("COMMIT") }
            return try body(Transaction(database: self))
        }
    }

    private func failure(_ code: Int32, _ message: String) -> StateError {
        switch code & 0xff {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            StateError("the state file \(path) is damaged or not an idp-tui state file (\(message)); move it away, or start over with idp-tui reset")
        case SQLITE_BUSY, SQLITE_LOCKED:
            StateError("the state file \(path) stayed locked by another process for \(Self.busyTimeoutMilliseconds / 1000) s")
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM:
            StateError("cannot write the state file \(path): \(message)")
        case SQLITE_FULL:
            StateError("the disk holding the state file \(path) is full")
        default:
            StateError("the state file \(path): \(message)")
        }
    }
}
