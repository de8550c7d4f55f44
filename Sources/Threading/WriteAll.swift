#if canImport(Glibc)
    import Glibc
#endif

/// Writes every byte of `bytes` to `descriptor`, writing again after a short write or a signal's interruption.
/// Returns nil when all of them went out, else the error that stopped it (`EPIPE` for a closed pipe, `EBADF` for
/// a closed descriptor, `ENOSPC` …; `EIO` for a write that took nothing). Never traps, unlike Foundation's
/// `FileHandle.write`, so that a lost output never costs the process.
///
/// A descriptor left non-blocking whose reader is slow is waited on, as a blocking one would be, a quarter second
/// at a time: `giveUp`, asked after each quarter second without room, ends the wait (EAGAIN), so that a signal's
/// exit is not held by a reader that never reads.
@discardableResult
public func writeAll(_ bytes: [UInt8], to descriptor: Int32, giveUp: (() -> Bool)? = nil) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
            // An output left non-blocking by whoever opened it (a parent's pipe) whose reader is slow: wait for room,
            // as a blocking write would (it ended the run with 74, as a full disk).
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&entry, 1, 250) == 0 && giveUp?() == true { return EAGAIN }
        } else {
            return written < 0 ? errno : EIO
        }
    }
    return nil
}
