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
        assert(Scanner.KeyWords.areTheKeys)
        return bytes.withUnsafeBufferPointer { buffer in
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

    @inline(__always) mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] <= 0x20, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    @inline(__always) mutating func take(_ byte: UInt8) -> Bool {
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
        // Eight bytes at a time up to the first that is not printable ASCII, or is a quote or a backslash.
        var found = Self.stops(word(at: end))
        while found == 0 {
            end += 8
            found = Self.stops(word(at: end))
        }
        end += found.trailingZeroBitCount / 8
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        index = end + 1
        return start..<end
    }

    /// The eight bytes from the offset, little-endian; those past the end read as zero.
    @inline(__always) func word(at offset: Int) -> UInt64 {
        offset + 8 <= bytes.count ? UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt64.self) : lastWord(at: offset)
    }

    func lastWord(at offset: Int) -> UInt64 {
        var word: UInt64 = 0
        for place in stride(from: min(offset + 8, bytes.count) - 1, through: offset, by: -1) { word = word << 8 | UInt64(bytes[place]) }
        return word
    }

    /// The high bit of each of the word's bytes that is a control character, DEL or above, a quote or a backslash.
    /// The lowest bit set is exact (a borrow or a carry may set some above it): its byte is the first such.
    static func stops(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func zeros(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let control = (word &- ones &* 0x20) & ~word & highs
        let high = ((word &+ ones) | word) & highs
        return control | high | zeros(word ^ (ones &* 0x22)) | zeros(word ^ (ones &* 0x5C))
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
            guard count < Self.maximumUsers, let hash = scanner.checkedUser() else { return false }
            count += 1
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

    /// The user's keys as they are found in the file: eight bytes at a time, little-endian, with the quote that ends
    /// them. Literals, so that nothing is computed at each use (``KeyWords/areTheKeys`` checks them in debug builds).
    enum Key { case username, password, activationCode, activationCodeValidDays }
    enum KeyWords {
        static let username: UInt64 = 0x656D_616E_7265_7375, password: UInt64 = 0x6472_6F77_7373_6170
        static let activati: UInt64 = 0x6974_6176_6974_6361, onCodeVa: UInt64 = 0x6156_6564_6F43_6E6F
        static let onCodeQuote: UInt64 = 0x0022_6564_6F43_6E6F, lidDaysQuote: UInt64 = 0x2273_7961_4464_696C

        static var areTheKeys: Bool {
            func word(_ text: String) -> UInt64 { text.utf8.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
            return [username, password, activati, onCodeVa, onCodeQuote, lidDaysQuote]
                == ["username", "password", "activati", "onCodeVa", "onCode\"", "lidDays\""].map(word)
        }
    }

    /// The key at the index, with the index after its closing quote; nil if it is none of the user's.
    mutating func userKey() -> Key? {
        guard peek == UInt8(ascii: "\"") else { return nil }
        let start = index + 1, seven: UInt64 = 0x00FF_FFFF_FFFF_FFFF
        let key: Key, length: Int
        switch word(at: start) {
        case KeyWords.username where word(at: start + 8) & 0xFF == 0x22: (key, length) = (.username, 8)
        case KeyWords.password where word(at: start + 8) & 0xFF == 0x22: (key, length) = (.password, 8)
        case KeyWords.activati:
            switch word(at: start + 8) {
            case let next where next & seven == KeyWords.onCodeQuote: (key, length) = (.activationCode, 14)
            case KeyWords.onCodeVa where word(at: start + 16) == KeyWords.lidDaysQuote: (key, length) = (.activationCodeValidDays, 23)
            default: return nil
            }
        default: return nil
        }
        index = start + length + 1
        return key
    }

    /// One user that passes every check; returns its username's ``nameHash(_:)``. ``members(_:)``'s loop, written
    /// out: this is the check's inner loop, run once for each user of the file.
    mutating func checkedUser() -> UInt64? {
        var username: UInt64?
        var password = false, code = false, days = false
        guard take(UInt8(ascii: "{")) else { return nil }
        if take(UInt8(ascii: "}")) { return nil }
        repeat {
            skipWhitespace()
            guard let key = userKey(), take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            switch key {
            case .username where username == nil:
                guard let name = plainStringBytes(), (1...64).contains(name.count), let hash = nameHash(name) else { return nil }
                username = hash
            case .password where !password:
                guard checkedSecret() else { return nil }
                password = true
            case .activationCode where !code:
                guard checkedSecret() else { return nil }
                code = true
            case .activationCodeValidDays where !days:
                guard checkedDays() else { return nil }
                days = true
            default:
                return nil
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), password, code || !days else { return nil }
        return username
    }

    /// A hash of the name's bytes (never zero), eight at a time; nil if they are all spaces.
    func nameHash(_ name: Range<Int>) -> UInt64? {
        var hash = UInt64(name.count), spaces = true
        for start in stride(from: name.lowerBound, to: name.upperBound, by: 8) {
            let tail = name.upperBound - start, mask: UInt64 = tail >= 8 ? ~0 : 1 << (tail * 8) - 1
            let word = word(at: start) & mask
            spaces = spaces && word == 0x2020_2020_2020_2020 & mask
            hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
        }
        return spaces ? nil : hash | 1
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
