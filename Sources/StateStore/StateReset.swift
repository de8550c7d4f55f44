import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What `idp-tui reset` did to a state path.
public enum ResetOutcome: Sendable, Equatable {
    /// Nothing is at the path (not even a link).
    case nothingThere
    /// An idp-tui state file (or an empty file) was emptied in one transaction; its size before and after, with
    /// the -wal, in bytes.
    case reset(bytesBefore: Int64, bytesAfter: Int64)
    /// Unreadable bytes in no known format were moved aside, with their -wal and -shm: each move, in order.
    case movedAside([Move])
    /// The person asked said no: nothing was changed.
    case declined

    public struct Move: Sendable, Equatable {
        public let from: String
        public let to: String
    }
}

extension StateFile {
    /// `idp-tui reset`, safe by construction: it acts only on a regular file that is idp-tui's (by its application
    /// id), empty, or unreadable bytes in no other known format, and on the last only when no other process has
    /// it open. Everything else (a link, a folder, a FIFO, a device, another program's database or file, a file
    /// from a newer idp-tui, a file locked by another process) throws a one-line error, and nothing is changed.
    /// `confirm` is asked once the path is known to be one `reset` acts on, before anything changes.
    public static func reset(at path: String, now: Date = Date(), confirm: () -> Bool = { true }) throws(StateError) -> ResetOutcome {
        switch StatePath.Entry(path) {
        case .missing:
            return .nothingThere
        case .unreachable(let refusal):
            throw StateError(refusal + "; nothing was changed")
        case .notAFile(let what):
            throw StateError(StatePath.refusal(path, what) + "; nothing was changed")
        case .regularFile:
            break
        }
        // A -wal or -shm that is a link, a folder or anything else but a file is refused as the file would be:
        // moved aside without it, it stayed at the path and refused every run after; reset, SQLite could not open it.
        for suffix in StatePath.companions {
            if case .notAFile(let what) = StatePath.Entry(path + suffix) {
                throw StateError(StatePath.refusal(path + suffix, what) + "; nothing was changed")
            }
        }
        if let problem = StatePath.writeProblem(path) { throw StateError(problem + "; nothing was changed") }
        guard StatePath.isSQLiteOrEmpty(path) else { return confirm() ? try moveAside(path, now: now) : .declined }
        let probe: Probe
        do {
            probe = try Probe(path)
        } catch {
            switch error.reason {
            case .damaged: return confirm() ? try moveAside(path, now: now) : .declined
            case .busy: throw inUse(path)
            case .other: throw StateError(error.description + "; nothing was changed")
            }
        }
        guard probe.application == applicationID || (probe.application == 0 && probe.tables == 0) else {
            throw StateError("\(path) is another program's SQLite database, not an idp-tui state file; nothing was changed")
        }
        guard probe.version <= schemaVersion else {
            throw StateError("\(path) was written by a newer idp-tui (schema \(probe.version); this one reads up to \(schemaVersion)); nothing was changed")
        }
        // A version below 0 no idp-tui writes: idp-tui's file, damaged (opening it would refuse it so).
        if probe.version < 0 { return confirm() ? try moveAside(path, now: now) : .declined }
        guard confirm() else { return .declined }
        let before = size(path)
        do {
            let file = try StateFile(path: path)
            defer { file.close() }
            try file.reset()
        } catch {
            switch error.reason {
            // idp-tui's file by its header, damaged past it: moved aside as any damaged file of idp-tui's is (the
            // emptying rolled back when it met the damage; found by VACUUM after it, what is moved is emptied).
            case .damaged: return try moveAside(path, now: now)
            case .busy: throw inUse(path)
            case .other: throw StateError(error.description + "; nothing was changed")
            }
        }
        return .reset(bytesBefore: before, bytesAfter: size(path))
    }

    /// Starts over: forgets the device, the IdP's counters, locks and bindings, and the history, in one
    /// transaction (another process on the file sees all of it or none), then gives the space back to the disk.
    /// The history's retention policy is kept.
    public func reset() throws(StateError) {
        try database.write { transaction throws(StateError) in
            for table in ["flow_events", "flows", "device", "idp_bindings", "idp_users"] {
                _ = try transaction.query("DELETE FROM \(table)")
            }
            // The IdP's epoch goes; the history's retention policy, a setting, stays.
            _ = try transaction.query("DELETE FROM meta WHERE key NOT IN ('history_keep_flows', 'history_keep_days')")
        }
        try reclaimSpace()
    }

    /// VACUUM, then empties the -wal as far as other readers allow.
    func reclaimSpace() throws(StateError) {
        try database.execute("VACUUM")
        _ = try database.query("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// The file's header as SQLite reads it (with the -wal), without creating, migrating or changing anything.
    private struct Probe {
        let application: Int64
        let version: Int64
        let tables: Int64

        init(_ path: String) throws(StateError) {
            let database = try Database(path: path)
            defer { database.close() }
            application = try database.query("PRAGMA application_id").first?.first?.integer ?? 0
            version = try database.query("PRAGMA user_version").first?.first?.integer ?? 0
            tables = try database.query("SELECT count(*) FROM sqlite_master").first?.first?.integer ?? 0
        }
    }

    private static func inUse(_ path: String) -> StateError {
        StateError("\(path) is in use: another process held its lock for over \(Database.busyTimeoutMilliseconds / 1000) s; nothing was changed (try again when it ends)")
    }

    /// The state's bytes: the file and its -wal (pages not yet copied into it). Not the -shm: an index of the
    /// -wal, 32 KB while the file is open and gone when it is closed, which made `prune` report 32 KB more.
    static func size(_ path: String) -> Int64 {
        ([""] + StatePath.companions.filter { $0 != "-shm" }).reduce(0) { total, suffix in
            if case .regularFile(let size, _, _) = StatePath.Entry(path + suffix) { total + size } else { total }
        }
    }

    /// Moves unreadable bytes aside (never deletes them), with the -wal and -shm beside them, unless they are in a
    /// known format or another process has them open.
    private static func moveAside(_ path: String, now: Date) throws(StateError) -> ResetOutcome {
        switch StatePath.content(of: path) {
        case .otherFormat(let what):
            throw StateError("\(path) is \(what), not an idp-tui state file; nothing was changed")
        case .damagedStateFile, .unreadable:
            break
        }
        let holders = StatePath.holders(of: path)
        guard holders.isEmpty else {
            let pids = holders.map(String.init).joined(separator: ", ")
            throw StateError("\(path) cannot be read, and is open in another process (pid \(pids)); nothing was moved")
        }
        // The first name free for the file and both companions; link then unlink never replaces a file.
        let stamp = path + ".unreadable-" + timestamp(now)
        let names = [stamp] + (2...99).map { stamp + "-\($0)" }
        guard let aside = names.first(where: { name in ([""] + StatePath.companions).allSatisfy { StatePath.Entry(name + $0) == .missing } }) else {
            throw StateError("\(path) cannot be read, nor moved aside: \(stamp) and 98 more names are taken; nothing was moved")
        }
        var moves: [ResetOutcome.Move] = []
        for suffix in [""] + StatePath.companions {
            guard case .regularFile = StatePath.Entry(path + suffix) else { continue }
            let move = ResetOutcome.Move(from: path + suffix, to: aside + suffix)
            guard link(move.from, move.to) == 0 else {
                let done = moves.map { "\($0.from) → \($0.to)" }.joined(separator: ", ")
                throw StateError("\(path) cannot be read, nor moved aside to \(move.to): \(String(cString: strerror(errno)))"
                                 + (done.isEmpty ? "; nothing was moved" : "; moved so far: \(done)"))
            }
            unlink(move.from)
            moves.append(move)
        }
        return .movedAside(moves)
    }

    private static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                      parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
