extension Duration {
    /// As a `poll` timeout: whole milliseconds rounded up (so that the wait does not end just before what it waits
    /// for), at least 0, at most `Int32.max`.
    var pollMilliseconds: Int32 {
        let nanoseconds = components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
        guard nanoseconds > 0 else { return 0 }
        return Int32(clamping: (nanoseconds + 999_999) / 1_000_000)
    }
}
