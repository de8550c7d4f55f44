/// Where a JSON document's top-level object or array closes, found as its bytes come in, a chunk at a time:
/// ``TextFile/read(_:limit:streams:endsWithValue:)`` stops reading a stream there. Only brackets and strings are
/// followed; the parser judges the rest. A document that starts with anything else (a number, `true`, junk, a stray
/// bracket) is no object or array, whatever follows: it counts as closed at that byte, so that what comes within
/// the moment after is read and the parser refuses it (junk on a pipe held open waited for its end: an hour, or
/// for ever). A leading byte order mark is skipped.
package struct JSONValueEnd {
    /// The top-level value has closed.
    package private(set) var closed = false
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// How much of a leading byte order mark (EF BB BF, which the parser accepts) has been seen.
    private var byteOrderMark = 0
    /// Bytes scanned so far (while a byte order mark may still be starting).
    private var seen = 0

    package init() {}

    package mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes {
            guard !closed else { return }
            if byteOrderMark < 3, byteOrderMark == seen, byte == [0xEF, 0xBB, 0xBF][byteOrderMark] {
                byteOrderMark += 1
                seen += 1
                continue
            }
            seen += 1
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth <= 0 { closed = true }
            case _ where depth == 0: closed = true
            case UInt8(ascii: "\""): inString = true
            default: continue
            }
        }
    }
}
