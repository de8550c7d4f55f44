import Secrets
import Synchronization

/// The contents of one text field and its cursor, with the editing keys of readline and of gum/huh inputs.
public struct TextInput: Equatable, Sendable {
    /// The characters, in a buffer of this field's own: a copy of the field (a screen state copied to be changed, as
    /// every key does) shares it until one of them changes, and a buffer is wiped whole when the last copy lets it go
    /// (an array shared that way was copied on the next key and the old one freed, the password typed so far in it).
    public private(set) var characters: [Character] {
        get { storage.characters }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.characters, room: maximumBytes) }
            yield &storage.characters
        }
    }
    private var storage = Storage([], room: 0)

    /// The characters' buffer, overwritten whole (its spare room too) when it goes.
    private final class Storage: @unchecked Sendable {
        // Changed only through `characters`' `_modify`, on a buffer no other copy of the field holds.
        var characters: [Character]

        init(_ characters: [Character], room: Int) {
            self.characters = []
            self.characters.reserveCapacity(max(room, characters.count))
            self.characters.append(contentsOf: characters)
            #if DEBUG
                // An earlier buffer at the same address is gone: this one is not wiped yet.
                let id = ObjectIdentifier(self)
                TextInput.wipedForTesting.withLock { _ = $0.remove(id) }
            #endif
        }

        deinit {
            TextInput.wipe(&characters)
            #if DEBUG
                let id = ObjectIdentifier(self)
                TextInput.wipedForTesting.withLock { _ = $0.insert(id) }
            #endif
        }
    }

    #if DEBUG
        /// The buffers wiped as they went, for tests (debug builds only).
        package static let wipedForTesting = Mutex<Set<ObjectIdentifier>>([])
        /// Which buffer the field's characters are in now.
        package var bufferForTesting: ObjectIdentifier { ObjectIdentifier(storage) }
    #endif

    /// Overwrites every slot of `characters`' buffer, its spare room included, and empties it, keeping the buffer.
    fileprivate static func wipe(_ characters: inout [Character]) {
        let capacity = characters.capacity
        characters.removeAll(keepingCapacity: true)
        characters.append(contentsOf: repeatElement("\u{0}", count: capacity))
        characters.removeAll(keepingCapacity: true)
    }

    public static func == (lhs: TextInput, rhs: TextInput) -> Bool {
        lhs.characters == rhs.characters && lhs.cursor == rhs.cursor && lhs.maximumBytes == rhs.maximumBytes
            && lhs.maximumCharacters == rhs.maximumCharacters && lhs.masked == rhs.masked
    }
    /// Cursor position, 0…characters.count.
    public private(set) var cursor = 0
    /// The longest value accepted, in UTF-8 bytes.
    public let maximumBytes: Int
    /// The most characters accepted too, for a field whose check counts characters (a merchant's name: 40; its
    /// 160 bytes took a paste of 160 letters that only Pay then refused).
    public let maximumCharacters: Int?

    /// The limit as the field's notes say it: "40 characters", "16 bytes".
    public var limitText: String { maximumCharacters.map { "\($0) characters" } ?? "\(maximumBytes) bytes" }

    /// Whether the field is drawn masked (a password, a code): its words are not the user's to see, so the word keys
    /// (Alt-B/F/D, Ctrl-W, Alt-Backspace, Ctrl-←/→) take its whole text as one word, as gum's and bubbles' password
    /// inputs do. Where the cursor stopped or how much went showed where its spaces were.
    public let masked: Bool

    public init(_ text: String = "", maximumBytes: Int = 256, maximumCharacters: Int? = nil, masked: Bool = false) {
        self.maximumBytes = maximumBytes
        self.maximumCharacters = maximumCharacters
        self.masked = masked
        // Room for the longest value at once (a character takes a byte at least), so that typing never moves the
        // characters to a bigger buffer and leaves the old one, with what was typed so far, unwiped.
        storage = Storage(Array(text), room: maximumBytes)
        cursor = characters.count
    }

    public var text: String { String(characters) }
    public var isEmpty: Bool { characters.isEmpty }
    private var byteCount: Int { characters.reduce(0) { $0 + $1.utf8.count } }

    /// Whether `character` would fit under the limit, by its bytes (a control character, never inserted, is
    /// measured all the same).
    public func fits(_ character: Character) -> Bool {
        byteCount + character.utf8.count <= maximumBytes && characters.count < (maximumCharacters ?? .max)
    }

    /// Inserts text at the cursor, leaving out control characters and whatever would pass the limit.
    /// Returns false when something was left out.
    @discardableResult
    public mutating func insert(_ text: some StringProtocol) -> Bool {
        var complete = true
        var bytes = byteCount
        for character in text {
            if character.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) {
                complete = false
                continue
            }
            guard bytes + character.utf8.count <= maximumBytes, characters.count < (maximumCharacters ?? .max) else { return false }
            bytes += character.utf8.count
            place(character)
        }
        return complete
    }

    /// Puts `character` at the cursor as the text shows it: joined to the character before it when Unicode makes
    /// them one (a mark typed after its letter, e then U+0301 from a dead key, a skin tone, a joiner), and the one
    /// after it to it (a letter typed before a mark). Kept apart, ← stopped between them, Backspace took the accent
    /// alone, and a password showed a dot for each.
    private mutating func place(_ character: Character) {
        let start = max(0, cursor - 1)
        let end = min(characters.count, cursor + 1)
        let head = String(characters[start..<cursor]) + String(character)
        let regrouped = Array(head + String(characters[cursor..<end]))
        // The cursor goes after every character that holds something of `head`.
        var scalars = 0
        var covered = 0
        for grouped in regrouped where scalars < head.unicodeScalars.count {
            scalars += grouped.unicodeScalars.count
            covered += 1
        }
        characters.replaceSubrange(start..<end, with: regrouped)
        cursor = start + covered
    }

    /// Applies an editing key. Returns whether the key was an editing key.
    public mutating func apply(_ key: Key) -> Bool {
        switch key {
        case .backspace, .control("h"):
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete, .control("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .control("k"): characters.removeLast(characters.count - cursor)
        case .control("w"), .altBackspace: deleteWordBackwards()
        case .wordLeft, .alt("b"): cursor = wordStart(before: cursor)
        case .wordRight, .alt("f"): cursor = wordEnd(after: cursor)
        case .alt("d"): characters.removeSubrange(cursor..<wordEnd(after: cursor))
        case .character(let character): insert(String(character))
        default: return false
        }
        return true
    }

    /// A filter's deleting keys (the log's, the test-card picker's), typed at its end as gum's filter is: Backspace, and
    /// readline's Ctrl-U (the whole filter), Ctrl-W and Alt-Backspace (the last word). Returns whether `key` is one.
    static func deleteAtEnd(of text: inout String, _ key: Key) -> Bool {
        switch key {
        case .backspace, .control("h"), .control("u"), .control("w"), .altBackspace:
            var input = TextInput(text, maximumBytes: text.utf8.count)
            _ = input.apply(key)
            text = input.text
            return true
        default: return false
        }
    }

    /// Ctrl-W and Alt-Backspace: deletes back to the start of the word before the cursor.
    private mutating func deleteWordBackwards() {
        let start = wordStart(before: cursor)
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Where the word before `position` starts (spaces first, then the word), as readline's Alt-B goes.
    private func wordStart(before position: Int) -> Int {
        if masked { return 0 }
        var start = position
        while start > 0, characters[start - 1] == " " { start -= 1 }
        while start > 0, characters[start - 1] != " " { start -= 1 }
        return start
    }

    /// Where the word after `position` ends (spaces first, then the word), as readline's Alt-F goes.
    private func wordEnd(after position: Int) -> Int {
        if masked { return characters.count }
        var end = position
        while end < characters.count, characters[end] == " " { end += 1 }
        while end < characters.count, characters[end] != " " { end += 1 }
        return end
    }

    /// Replaces the text with `format(text)`, keeping the cursor after the same characters that `counts`
    /// (digits, say, when `format` adds spaces or a slash between them).
    public mutating func reformat(counting counts: (Character) -> Bool, _ format: (String) -> String) {
        let before = characters[..<cursor].filter(counts).count
        let formatted = Array(format(text))
        guard formatted != characters else { return }
        // In the same buffer, wiped first (a new one would leave the old unwiped; one too small for the formatted
        // text grows from the wiped one).
        Self.wipe(&characters)
        characters.append(contentsOf: formatted)
        var seen = 0
        cursor = characters.count
        for (index, character) in characters.enumerated() where counts(character) {
            seen += 1
            if seen == before {
                cursor = index + 1
                break
            }
        }
        if before == 0 { cursor = 0 }
        if seen < before { cursor = characters.count }
    }

    /// The value as a secret; the field is wiped. The bytes go straight into the secret (no String in between).
    public mutating func take() -> Secret {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        for character in characters { bytes.append(contentsOf: character.utf8) }
        clear()
        return Secret(consuming: &bytes)
    }

    /// Empties the field, overwriting its whole buffer in place first, so that what was typed (a password) does
    /// not stay in memory: the characters there now, and those a deletion or a shorter reformat left past the end
    /// (removing from an array moves the rest down without clearing the slot it leaves). The buffer is kept for
    /// the next value. A copy of the field made earlier (a value type's copy) is out of reach: the app drops its
    /// other references to a form before it wipes it (``AppState/wipeInputs()``).
    public mutating func clear() {
        Self.wipe(&characters)
        cursor = 0
    }

    /// The bytes of the field's whole buffer, its spare room included: what a wipe must leave without a trace of
    /// what was typed.
    package func bufferBytesForTesting() -> [UInt8] {
        characters.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            return Array(UnsafeRawBufferPointer(start: base, count: characters.capacity * MemoryLayout<Character>.stride))
        }
    }
}
