import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The state file's path on disk, before SQLite sees it: what is there (by `lstat`, never following a link),
/// its folder and permissions, and who else has it open.
///
/// idp-tui's files are the user's alone: the folder is made 0700 and the file 0600 whatever the umask (SQLite
/// gives the -wal and -shm the main file's mode), an existing folder that others may write to is reported, and a
/// symbolic link at the path is refused rather than followed.
enum StatePath {
    /// `path` with its folder's links resolved (`realpath`) and its last name as it is: what SQLite, which refuses
    /// a link anywhere on the path when asked not to follow one, is given. `path` as it is when the folder
    /// cannot be resolved (SQLite then says why it cannot open it) or its real name is not UTF-8.
    static func throughRealFolder(_ path: String) -> String {
        guard path != ":memory:" else { return path }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let resolved = realpath(folder, nil) else { return path }
        defer { free(resolved) }
        // A real place whose name is not UTF-8 cannot be a Swift string: the path as given (SQLite resolves a
        // relative one from the real working folder itself).
        guard let real = String(validatingCString: resolved) else { return path }
        return (real == "/" ? "" : real) + "/" + name
    }

    /// What `lstat` finds at a path.
    enum Entry: Equatable {
        /// Nothing: no such entry (ENOENT), or a file where a folder of the path should be (ENOTDIR).
        case missing
        /// `lstat` could not look: a folder on the way this user cannot search (EACCES), a loop of links, a name
        /// too long. Something may be there; the one-line refusal says what is in the way.
        case unreachable(String)
        case regularFile(size: Int64, mode: mode_t, owner: uid_t)
        /// Anything else: a link (one that leads nowhere too), a folder, a FIFO, a device or a socket, in words.
        case notAFile(String)

        init(_ path: String) {
            // `--state NEW/` (or `NEW/.`, `NEW/..`) names a folder whether or not one is there: it made the folder,
            // then refused it.
            if path.hasSuffix("/") || path == "." || path == ".." || path.hasSuffix("/.") || path.hasSuffix("/..") {
                self = .notAFile(path.hasSuffix("/") ? "a folder's name (it ends in /)" : "a folder's name (it ends in . or ..)")
                return
            }
            var info = stat()
            guard lstat(path, &info) == 0 else {
                let error = errno
                self = error == ENOENT || error == ENOTDIR ? .missing : .unreachable(StatePath.unreachable(path, error))
                return
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG: self = .regularFile(size: Int64(info.st_size), mode: info.st_mode & 0o7777, owner: info.st_uid)
            case S_IFLNK: self = .notAFile("a symbolic link")
            case S_IFDIR: self = .notAFile("a folder")
            case S_IFIFO: self = .notAFile("a FIFO")
            case S_IFCHR, S_IFBLK: self = .notAFile("a device")
            case S_IFSOCK: self = .notAFile("a socket")
            default: self = .notAFile("not a regular file")
            }
        }
    }

    /// "… is a FIFO, not a state file": what is at a path that is not a regular file.
    static func refusal(_ path: String, _ what: String) -> String {
        "\(path) is \(what), not a state file" + (what == "a symbolic link" ? " (idp-tui does not follow links for its state file: name the file itself)" : "")
    }

    /// "cannot reach the state file …: the folder /srv/idp cannot be searched by you (mode 700, owner uid 0); name
    /// another file with --state": why `lstat` failed, naming the first folder on the way this user may not search.
    static func unreachable(_ path: String, _ error: Int32) -> String {
        var folders: [String] = []
        var current = folder(of: path)
        while !current.isEmpty {
            folders.insert(current, at: 0)
            if current == "/" { break }
            current = folder(of: current)
        }
        guard error == EACCES, let blocked = folders.first(where: { access($0, X_OK) != 0 }) else {
            return "cannot reach the state file \(path): \(String(cString: strerror(error))); name another file with --state"
        }
        let (why, fix) = reason(EACCES, blocked, .search)
        return "cannot reach the state file \(path): the folder \(blocked) \(why); \(fix)name another file with --state"
    }

    /// The folder a path is in ("" for a bare file name, "/" for a file at the root).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// The companions SQLite keeps beside the file in WAL mode.
    static let companions = ["-wal", "-shm"]

    /// "move state.sqlite away together with state.sqlite-wal and state.sqlite-shm": what to move so that nothing
    /// written is lost (a file copied or moved without its -wal loses what is only there).
    static func moveAdvice(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        return "move \(name) away together with \(name)-wal and \(name)-shm"
    }

    /// Makes the folder (0700) and the file (0600) if they are missing, makes a read-only -wal or -shm of ours
    /// writable again, and refuses anything at the path that is not a regular file (others' permission bits come
    /// off in ``tighten(_:)``, once SQLite has shown the file to be ours). Returns warnings for the
    /// user (a folder that others may write to). A file this user cannot write, or a folder (where SQLite makes the
    /// -wal and -shm), or a path behind a folder they cannot search, is refused before anything is made or changed.
    static func prepare(_ path: String, sayingFoldersMade: Bool = false) throws(StateError) -> [String] {
        switch Entry(path) {
        case .unreachable(let refusal): throw StateError(refusal)
        // Before any folder is made for it (`NEW/` made the folder, then was refused as one).
        case .notAFile(let what): throw StateError(refusal(path, what) + "; name another file with --state")
        case .missing, .regularFile: break
        }
        let warnings = try prepareFolder(for: path, sayingFoldersMade: sayingFoldersMade)
        if let problem = writeProblem(path) { throw StateError(problem) }
        for suffix in [""] + companions {
            switch Entry(path + suffix) {
            case .missing where suffix.isEmpty:
                try create(path)
            case .missing:
                break
            case .unreachable(let refusal):
                throw StateError(refusal)
            case .notAFile(let what):
                throw StateError(refusal(path + suffix, what) + "; name another file with --state")
            case .regularFile(_, let mode, let owner):
                // A companion SQLite made read-only (the file's mode, for a read-only connection) is made writable
                // again: a read-only -shm makes every write fail. Only beside a file of ours: others' permission
                // bits come off once the file is known to be ours (`tighten`), and another's file stays as it was.
                if !suffix.isEmpty && mode & 0o600 != 0o600 && owner == geteuid() && headerIsOursOrEmpty(path) {
                    chmod(path + suffix, 0o600)
                }
            }
        }
        return warnings
    }

    /// What stops this user writing the state file, in one line that names the file and what to do (nil: nothing
    /// does). SQLite needs the file readable and writable, and its folder writable: it makes the -wal and -shm
    /// beside the file. By `access`, so root, whom permissions do not stop, is stopped only by a read-only file
    /// system.
    static func writeProblem(_ path: String) -> String? {
        guard path != ":memory:" else { return nil }
        let folder = folder(of: path).isEmpty ? "." : folder(of: path)
        let name = (path as NSString).lastPathComponent
        if access(folder, W_OK | X_OK) != 0 {
            let (why, fix) = reason(errno, folder, .write, permission: "u+wx")
            return "cannot write the state file \(path): its folder \(folder) \(why), and SQLite keeps \(name)-wal and \(name)-shm "
                + "beside the file; \(fix)name another file with --state"
        }
        // The -wal and -shm of the user's own are made readable and writable by `prepare`: only the file here.
        if let problem = readProblem(path, companions: false) { return problem }
        if case .regularFile = Entry(path), access(path, W_OK) != 0 {
            let (why, fix) = reason(errno, path, .write)
            return "cannot write the state file \(path): it \(why); \(fix)name another file with --state"
        }
        return nil
    }

    /// What stops this user reading the state file, or the -wal or -shm beside it, in one line that names the file,
    /// its mode and owner, and what to do (nil: nothing does).
    static func readProblem(_ path: String, companions: Bool = true) -> String? {
        guard path != ":memory:" else { return nil }
        for suffix in [""] + (companions ? Self.companions : []) {
            guard case .regularFile = Entry(path + suffix), access(path + suffix, R_OK) != 0 else { continue }
            let (why, fix) = reason(errno, path + suffix, .read)
            let what = suffix.isEmpty ? "it" : "its \((path as NSString).lastPathComponent + suffix)"
            return "cannot read the state file \(path): \(what) \(why); \(fix)name another file with --state"
        }
        return nil
    }

    /// What `access` was asked, for ``reason(_:_:_:permission:)``.
    enum Access {
        case read, write, search

        /// What the user may not do, in words ("is read-only to you").
        var refused: String {
            switch self {
            case .read: "is not readable to you"
            case .write: "is read-only to you"
            case .search: "cannot be searched by you"
            }
        }

        var participle: String {
            switch self {
            case .read: "read"
            case .write: "written"
            case .search: "searched"
            }
        }

        /// The `chmod` that grants it to the owner.
        var permission: String {
            switch self {
            case .read: "u+r"
            case .write: "u+w"
            case .search: "u+x"
            }
        }
    }

    /// Why `access` said no ("is read-only to you (mode 400)", "is not readable to you (mode 600, owner uid 0)"),
    /// and the fix ("chmod u+w …, or ") when the user owns the file or folder.
    static func reason(_ error: Int32, _ path: String, _ access: Access, permission: String? = nil) -> (String, String) {
        var info = stat()
        let known = stat(path, &info) == 0
        switch error {
        case EACCES where known:
            let mine = info.st_uid == geteuid()
            return ("\(access.refused) (mode \(String(info.st_mode & 0o7777, radix: 8))\(mine ? "" : ", owner uid \(info.st_uid)"))",
                    mine ? "chmod \(permission ?? access.permission) \(path), or " : "")
        case EACCES: return (access.refused, "")
        case EROFS: return ("is on a read-only file system", "")
        default: return ("cannot be \(access.participle) (\(String(cString: strerror(error))))", "")
        }
    }

    /// Checks a state file that is only to be read (``StateFile/init(reading:)``): it must be a regular file;
    /// nothing is made or changed. Returns the same warnings.
    static func prepareForReading(_ path: String) throws(StateError) -> [String] {
        for suffix in [""] + companions {
            switch Entry(path + suffix) {
            case .missing where suffix.isEmpty:
                throw StateError("the state file \(path) does not exist")
            case .missing:
                break
            case .unreachable(let refusal):
                throw StateError(refusal)
            case .notAFile(let what):
                throw StateError(refusal(path + suffix, what) + "; name another file with --state")
            case .regularFile:
                break
            }
        }
        // The folder exists (the file is in it): only its warning, nothing made.
        return try prepareFolder(for: path, sayingFoldersMade: false)
    }

    private static func create(_ path: String) throws(StateError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            let error = errno
            // Another process made it between the lstat and here: use theirs.
            if error == EEXIST { return }
            throw StateError("cannot create the state file \(path): \(String(cString: strerror(error)))")
        }
        fchmod(descriptor, 0o600)
        close(descriptor)
    }

    /// `text` as one word for a POSIX shell: as it is when it holds nothing a shell reads, else in single quotes.
    static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "/._-+,:@%=".unicodeScalars.contains($0)
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The folders `path`'s folder needs made, innermost first, and the nearest one that is there ("." for a relative
    /// path); throws where that one is not a folder: a file further up says so, as one holding the file itself does
    /// (`/etc/passwd/x.db`: "cannot create … Not a directory").
    static func missingFolders(for path: String) throws(StateError) -> (existing: String, missing: [String]) {
        var missing: [String] = []
        var current = folder(of: path)
        var info = stat()
        while !current.isEmpty, current != "/", stat(current, &info) != 0 {
            missing.append(current)
            current = folder(of: current)
        }
        if current.isEmpty { current = "." }
        // Stat'ed again: the walk stops at "/" without a stat of it.
        guard stat(current, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw StateError("\(current) is not a folder, so it cannot hold the state file \(path)")
        }
        return (current, missing)
    }

    private static func prepareFolder(for path: String, sayingFoldersMade: Bool) throws(StateError) -> [String] {
        let folder = folder(of: path)
        guard !folder.isEmpty else { return [] }
        var info = stat()
        if stat(folder, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw StateError("\(folder) is not a folder, so it cannot hold the state file \(path)") }
            let mode = info.st_mode & 0o777
            // On a read-only file system nobody writes to it, whatever its mode (`/tmp`'s 1777 on a read-only tmpfs).
            var system = statvfs()
            guard mode & 0o022 != 0, statvfs(folder, &system) != 0 || system.f_flag & UInt(ST_RDONLY) == 0 else { return [] }
            let who = mode & 0o002 != 0 ? "anyone" : "its group"
            // A shared folder (sticky, as /tmp is) or another's is not the user's to close: chmod 700 /tmp would break
            // every other user of it. The file then belongs in a folder of the user's own.
            let closable = info.st_mode & S_ISVTX == 0 && info.st_uid == geteuid()
            // Quoted for a shell where it needs it (`chmod 700 /tmp/g w` named two folders).
            let advice = closable ? "chmod 700 \(shellWord(folder))"
                : "keep the state file in a folder of your own (mkdir -m 700 FOLDER, then --state \(shellWord("FOLDER/" + (path as NSString).lastPathComponent)))"
            return ["warning: the folder \(folder) holding the state file can be written by \(who) (mode \(String(info.st_mode & 0o7777, radix: 8))); \(advice)"]
        }
        // Each missing folder is made 0700, whatever the umask.
        let missing = try missingFolders(for: path).missing
        for made in missing.reversed() {
            if mkdir(made, 0o700) != 0 && errno != EEXIST {
                throw StateError("cannot create the folder \(made) for the state file: \(String(cString: strerror(errno)))")
            }
            chmod(made, 0o700)
        }
        guard sayingFoldersMade, let outermost = missing.last else { return [] }
        return ["note: made the folder \(outermost)\(missing.count > 1 ? " and \(missing.count - 1) inside it" : "") for the new state file \(path) (check the path given with --state if you meant an existing one)"]
    }

    /// Whether a file that is not empty starts as an SQLite database does. Checked before SQLite opens it: SQLite
    /// may delete a -wal beside a file it cannot read, and a file that is not SQLite has nothing for it to read.
    static func isSQLiteOrEmpty(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: sqliteMagic.count)) ?? Data()
        return head.isEmpty || head.elementsEqual(sqliteMagic)
    }

    static let sqliteMagic = Array("SQLite format 3\0".utf8)

    // MARK: Who has it open

    /// Other processes that have the file or its companions open (read from /proc, so only the processes this
    /// user may see), or that hold a POSIX lock on them (SQLite's locks, from any user).
    static func holders(of path: String) -> [pid_t] {
        var identities: Set<FileIdentity> = []
        for suffix in [""] + companions {
            var info = stat()
            if lstat(path + suffix, &info) == 0 { identities.insert(FileIdentity(info)) }
        }
        guard !identities.isEmpty else { return [] }
        var found: Set<pid_t> = []
        for suffix in [""] + companions {
            if let pid = lockHolder(path + suffix) { found.insert(pid) }
        }
        let me = getpid()
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for name in processes {
            guard let pid = pid_t(name), pid != me else { continue }
            let descriptors = "/proc/\(name)/fd"
            for descriptor in (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? [] {
                var info = stat()
                if stat(descriptors + "/" + descriptor, &info) == 0, identities.contains(FileIdentity(info)) {
                    found.insert(pid)
                    break
                }
            }
        }
        return found.sorted()
    }

    /// The process holding a POSIX lock on any byte of the file, if one does.
    private static func lockHolder(_ path: String) -> pid_t? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 0
        guard fcntl(descriptor, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
        return lock.l_pid
    }

    private struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }
}
