import Foundation
import JSONText

/// The users lists of a scenario file (`$.identityProvider.tenants[i].users`) that can be checked at once, byte by
/// byte, without building a value for each user, so that a scenario of 10,000 users is read about as fast as the
/// demo (issue 16, point 5) and still refused at start if any user is wrong.
///
/// The check here is a strict subset of the reader's: it accepts a list only if every user is plain ASCII, without
/// escapes, and would pass every check `ScenarioReader.user` and `tenant` make (keys known, required, not twice;
/// lengths; no control character; the placeholder; whole days in range; names not listed twice). Anything else,
/// or any doubt, leaves the list to the reader, which reports what is wrong in its own words. The parser reads a
/// list accepted here as an empty array without looking inside, and its users are made from its bytes at the
/// tenant's first use.
struct DeferredUsers {
    struct List {
        /// The tenant's place in `tenants`.
        let tenant: Int
        /// The list's bytes, `[` to `]`.
        let range: Range<Int>
        let count: Int
    }

    /// The lists that can be deferred, in the order of the file; empty when none can (or the file is not JSON
    /// enough to find them: the reader then reports what is wrong).
    static func find(in bytes: [UInt8]) -> [List] {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            return scanner.lists()
        }
    }
}

/// Walks the file's structure down to each tenant's `users` without building anything; returns nothing at the
/// first thing it does not expect.
private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    static let maximumUsers = 1000

    mutating func lists() -> [DeferredUsers.List] {
        var found: [DeferredUsers.List] = []
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        let complete = members { scanner, key in
            guard scanner.is(key, "identityProvider"), scanner.peek == UInt8(ascii: "{") else { return scanner.skipValue() }
            return scanner.members { scanner, key in
                guard scanner.is(key, "tenants"), scanner.peek == UInt8(ascii: "[") else { return scanner.skipValue() }
                var tenant = -1
                return scanner.items { scanner in
                    tenant += 1
                    guard scanner.peek == UInt8(ascii: "{") else { return scanner.skipValue() }
                    return scanner.members { scanner, key in
                        guard scanner.is(key, "users"), scanner.peek == UInt8(ascii: "[") else { return scanner.skipValue() }
                        let start = scanner.index
                        if let count = scanner.checkedUsers() {
                            found.append(DeferredUsers.List(tenant: tenant, range: start..<scanner.index, count: count))
                            return true
                        }
                        scanner.index = start
                        return scanner.skipValue()
                    }
                }
            }
        }
        return complete ? found : []
    }

    // MARK: Structure

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// An object's members, each value handed to `value` with the index on it; false if not an object.
    mutating func members(_ value: (inout Self, Range<Int>) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipWhitespace()
            guard let key = plainStringBytes(), take(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            guard value(&self, key) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    mutating func items(_ value: (inout Self) -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            skipWhitespace()
            guard value(&self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    /// Whether the bytes are the key's.
    func `is`(_ range: Range<Int>, _ key: StaticString) -> Bool {
        range.count == key.utf8CodeUnitCount
            && memcmp(bytes.baseAddress! + range.lowerBound, key.utf8Start, range.count) == 0
    }

    /// The bytes between the quotes of a string of printable ASCII without escapes.
    mutating func plainStringBytes() -> Range<Int>? {
        guard peek == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var end = start
        // Printable ASCII but the quote and the backslash: eight bytes at a time while none is another, then one by one.
        while end + 8 <= bytes.count, !Self.mayEndOrEscape(UnsafeRawPointer(bytes.baseAddress! + end).loadUnaligned(as: UInt64.self)) {
            end += 8
        }
        while end < bytes.count, bytes[end] &- 0x20 < 0x5F, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        index = end + 1
        return start..<end
    }

    /// Whether any of eight bytes is a control character, DEL or above, a quote or a backslash (never false when
    /// one is; sometimes true when none is, after a byte that is).
    static func mayEndOrEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0
        let high = ((word &+ ones) | word) & highs != 0
        return control || high || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
    }

    /// Any value, unchecked (the parser checks what is not deferred): strings with their escapes, nesting.
    mutating func skipValue() -> Bool {
        guard let first = peek else { return false }
        switch first {
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            var depth = 0
            repeat {
                guard index < bytes.count else { return false }
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
                index += 1
            } while depth > 0
            return true
        default:
            let start = index
            while let byte = peek, !Self.endsScalar(byte) { index += 1 }
            return index > start
        }
    }

    mutating func skipString() -> Bool {
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard index < bytes.count else { return false }
        index += 1
        return true
    }

    /// What may follow a number or a literal.
    static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || byte == 0x20 || byte == 0x0A
            || byte == 0x0D || byte == 0x09
    }

    // MARK: Users

    /// The names' FNV-1a hashes, open-addressed (a power of two, over twice `maximumUsers`), made at the first
    /// list and emptied of the last one's names at each next: a file of 70,000 tiny lists costs no more than one.
    var names: [UInt64] = []
    var namesUsed: [Int] = []

    /// The number of users in the list at the index, with the index after it, if every user passes; nil otherwise.
    mutating func checkedUsers() -> Int? {
        if names.isEmpty { names = [UInt64](repeating: 0, count: 2048) }
        for slot in namesUsed { names[slot] = 0 }
        namesUsed.removeAll(keepingCapacity: true)
        var count = 0
        let complete = items { scanner in
            guard count < Self.maximumUsers, let name = scanner.checkedUser() else { return false }
            count += 1
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in scanner.bytes[name] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hash |= 1
            // A name listed twice (or two names of one hash, about one chance in 10^13 for 1,000 names) is left
            // to the reader.
            var slot = Int(truncatingIfNeeded: hash) & (scanner.names.count - 1)
            while scanner.names[slot] != 0 {
                if scanner.names[slot] == hash { return false }
                slot = (slot + 1) & (scanner.names.count - 1)
            }
            scanner.names[slot] = hash
            scanner.namesUsed.append(slot)
            return true
        }
        return complete && count > 0 ? count : nil
    }

    /// One user that passes every check; returns where its username's bytes are.
    mutating func checkedUser() -> Range<Int>? {
        var username: Range<Int>?
        var password = false, code = false, days = false
        let complete = members { scanner, key in
            if scanner.is(key, "username"), username == nil {
                guard let name = scanner.plainStringBytes(), (1...64).contains(name.count),
                    scanner.bytes[name].contains(where: { $0 != 0x20 })
                else { return false }
                username = name
            } else if scanner.is(key, "password"), !password {
                guard scanner.checkedSecret() else { return false }
                password = true
            } else if scanner.is(key, "activationCode"), !code {
                guard scanner.checkedSecret() else { return false }
                code = true
            } else if scanner.is(key, "activationCodeValidDays"), !days {
                guard scanner.checkedDays() else { return false }
                days = true
            } else {
                return false
            }
            return true
        }
        guard complete, password, code || !days else { return nil }
        return username
    }

    mutating func checkedSecret() -> Bool {
        guard let secret = plainStringBytes(), (1...256).contains(secret.count) else { return false }
        return !`is`(secret, "<secret>")  // ScenarioFile.secretPlaceholder (DeferredUsersTests reads it both ways)
    }

    /// A whole number of days, -3650 to 3650, written plainly (no fraction, exponent or leading zero).
    mutating func checkedDays() -> Bool {
        if peek == UInt8(ascii: "-") { index += 1 }
        var value = 0, digits = 0
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            guard digits < 4, !(digits == 1 && value == 0) else { return false }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        // A sign alone, or a fraction or exponent after the digits, is left to the reader.
        guard digits > 0, value <= 3650, let next = peek else { return false }
        return Self.endsScalar(next)
    }
}
