import CSQLite
import Foundation
import Synchronization
import Threading

/// Every database this process has open, so that exiting closes them all: `exit` runs no deinit, and a
/// connection left open keeps what it wrote in the -wal, where copying the state file alone would lose it.
final class OpenDatabases: Sendable {
    static let shared = OpenDatabases()

    private struct Entry: @unchecked Sendable {
        // @unchecked: read and written only under `entries`' lock.
        weak var database: Database?
    }

    private let entries = Locked<[ObjectIdentifier: Entry]>([:])
    /// Set when the process starts exiting on a signal (``closeAll(onSignal:)``; never on a normal end, whose
    /// writes in progress are committed): a wait for another process's lock ends, and a transaction not yet
    /// committed is rolled back. A signal between that check and the COMMIT still commits: the window is the
    /// COMMIT's own.
    static let closing = Atomic(false)

    /// The first damage a statement met in a state file this process has open (a page SQLite cannot read): a run
    /// reports it as bad input once its flow has ended (``StateFile/damageFound``).
    private static let damage = Locked<String?>(nil)

    static func noteDamage(_ error: StateError) -> StateError {
        damage.withLock { $0 = $0 ?? error.description }
        return error
    }

    static var damageFound: String? { damage.withLock { $0 } }

    private init() {
        atexit { OpenDatabases.shared.closeAll() }
    }

    func add(_ database: Database) {
        entries.withLock { $0[ObjectIdentifier(database)] = Entry(database: database) }
    }

    func remove(_ database: Database) {
        _ = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(database)) }
    }

    /// Closes every open database (at exit, on any thread). `onSignal`: the process is exiting on a signal, so a
    /// write waiting for another process's lock gives up, and one not yet committed is rolled back: what a signal
    /// interrupts is not done after it.
    func closeAll(onSignal: Bool = false) {
        if onSignal { Self.closing.store(true, ordering: .releasing) }
        let open = entries.withLock { entries in entries.values.compactMap(\.database) }
        for database in open { database.close() }
    }
}
