import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reading an input file or stream with its size checked first: a regular file larger than the limit is refused
/// by its size, before any byte is read; a pipe, a FIFO or a device is read only up to one byte past the limit.
/// So a 50 MB theme, or `/dev/zero` as an answers file, costs nothing but its one-line error.
///
/// A file is opened without waiting (`O_NONBLOCK`): opening a FIFO no program writes to would wait forever. A
/// theme, scenario or certificate file must then be a regular file. Answers may come from a pipe or a FIFO
/// (`--answers <(…)`, `--answers FIFO`), opened and read as a stream: a FIFO waits for its writer, as `cat` does.
public enum TextFile {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case cannotOpen(String)
        case isAFolder
        /// Not a regular file (a FIFO, a device, a socket) where one is needed: what it is.
        case notAFile(String)
        case tooLarge(limit: Int, size: Int?)
        /// A terminal named as a file (`/dev/tty`, `/dev/stdin` at a terminal): what is typed there would echo.
        case isATerminal
        /// A stream that gave no whole value within the wait it was given (a writer that hangs, the pipe open).
        case timedOut(Duration)

        public var description: String {
            switch self {
            case .cannotOpen(let reason): "cannot be read (\(reason))"
            case .isAFolder: "is a folder, not a file"
            case .notAFile(let kind): "is \(kind), not a regular file"
            case .isATerminal: "is a terminal, where what is typed would show; give a file or a pipe"
            case .timedOut(let wait): "gave no whole JSON value within \(Self.seconds(wait)): no writer opened it, or its writer sent too little, or hangs"
            case .tooLarge(let limit, let size):
                "is larger than \(Self.bytes(limit))" + (size.map { " (\(Self.bytes($0)))" } ?? "")
            }
        }

        static func seconds(_ wait: Duration) -> String {
            let milliseconds = wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000
            return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
        }

        static func bytes(_ count: Int) -> String {
            if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
            if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
            return count == 1 ? "1 byte" : "\(count) bytes"
        }
    }

    /// The bytes of `path` (`-` is standard input), at most `limit` of them. With `streams` false, `path` must be a
    /// regular file (standard input, a pipe, a FIFO or a device is refused); with `streams` true it may be any of
    /// them.
    ///
    /// `endsWithValue`: a stream holding one JSON object or array ends where the value closes, with whatever
    /// follows within 100 ms (its newline, the end of the stream, junk for the parser to name), not at end of
    /// file: a writer that keeps it open (Node's `spawn`, a CI step's pipe) does not make the read wait for an end
    /// that never comes.
    ///
    /// `waitingAtMost`: how long a stream (not a regular file) may take to give all it gives (`run`'s
    /// `--prompt-timeout`, for answers whose writer hangs with the pipe open: the job hung until its runner's timeout).
    public static func read(_ path: String, limit: Int, streams: Bool = false, endsWithValue: Bool = false,
                            waitingAtMost wait: Duration? = nil) -> Result<[UInt8], Failure> {
        // A stream named for it (`--answers FIFO`) waits for its writer, as `cat` does; any other file must not. With a
        // wait given, not in `open`, which has no time limit (a FIFO no writer ever opened held the run for ever), but
        // in the reads' polls below.
        let descriptor = path == "-" ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC | (streams && wait == nil ? 0 : O_NONBLOCK))
        guard descriptor >= 0 else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.cannotOpen(String(cString: strerror(errno)))) }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .failure(.isAFolder)
        case S_IFREG where Int(info.st_size) > limit: return .failure(.tooLarge(limit: limit, size: Int(info.st_size)))
        case S_IFREG: break
        case let kind where !streams:
            return .failure(.notAFile(kind == S_IFIFO ? "a FIFO or a pipe" : kind == S_IFCHR || kind == S_IFBLK ? "a device" : kind == S_IFSOCK ? "a socket" : "something else"))
        default:
            // A stream that is a terminal waits for typing, and echoes it (passwords, in an answers file's JSON).
            if isatty(descriptor) == 1 { return .failure(.isATerminal) }
        }
        // Read straight into room for all of it (every limit is a few MiB at most; one byte more tells a stream that
        // is too long): growing, or a chunk copied from, would leave copies of what was read (an answers file holds
        // passwords) in freed memory.
        var value = endsWithValue && info.st_mode & S_IFMT != S_IFREG ? JSONValueEnd() : nil
        let deadline = info.st_mode & S_IFMT == S_IFREG ? nil : wait.map { ContinuousClock.now + $0 }
        var timedOut = false
        var failed: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: limit + 1) { buffer, count in
            count = 0
            let room = min(buffer.count, limit + 1)
            while count < room {
                // Once the value has closed, only what comes within a moment is read: the end of the stream, or what a
                // writer sends right after (`cat answers.json more.json`, which the parser then refuses).
                if value?.closed == true && !readable(descriptor, until: ContinuousClock.now + Self.afterValue) { break }
                if value?.closed != true, let deadline, !readable(descriptor, until: deadline) {
                    timedOut = true
                    break
                }
                let read = Glibc.read(descriptor, buffer.baseAddress! + count, room - count)
                if read < 0 && errno == EINTR { continue }
                // A stream left non-blocking by whoever opened it (a parent's pipe) is waited on, not taken as ended.
                // Once the value has closed, only for the moment the check above gives (a writer that keeps the pipe
                // open must not make the read wait forever).
                if read < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    if value?.closed == true { continue }
                    _ = readable(descriptor, until: deadline)
                    continue
                }
                if read < 0 { failed = errno }
                guard read > 0 else { break }
                value?.scan(UnsafeBufferPointer(rebasing: buffer[count..<count + read]))
                count += read
            }
        }
        if timedOut, let wait {
            bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } }
            return .failure(.timedOut(wait))
        }
        // A read that failed (EIO: `/proc/self/mem`, a device gone) is no end of file: what came before it is not all.
        if failed != 0 {
            bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } }
            return .failure(.cannotOpen(String(cString: strerror(failed))))
        }
        guard bytes.count <= limit else { return .failure(.tooLarge(limit: limit, size: nil)) }
        return .success(bytes)
    }

    /// How long a stream read to its value's end waits for more once the value has closed.
    private static let afterValue: Duration = .milliseconds(100)

    /// Whether a read of `descriptor` returns before `deadline` (nil: whenever it does): bytes, or the end of the
    /// stream. A signal caught while it waits resumes the wait with the time left, not the whole wait again (signals
    /// that came faster than the wait kept `--prompt-timeout` from ever ending).
    private static func readable(_ descriptor: Int32, until deadline: ContinuousClock.Instant?) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, milliseconds(until: deadline))
            if ready < 0 && errno == EINTR { continue }
            return ready > 0
        }
    }

    /// Milliseconds from now to `deadline`, rounded up, for `poll`: -1 for no deadline, 0 once past it.
    private static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let rest = deadline - ContinuousClock.now
        return rest <= .zero ? 0 : Int32(min(rest.components.seconds * 1000 + rest.components.attoseconds / 1_000_000_000_000_000 + 1, 86_400_000))
    }
}
