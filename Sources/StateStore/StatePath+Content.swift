import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// What a file at a state path holds, for `reset`'s words about a file it will not touch.
extension StatePath {
    /// What a file that SQLite cannot read holds, by its first bytes.
    enum Content: Equatable {
        /// An SQLite header with idp-tui's application id, or none: a state file, damaged.
        case damagedStateFile
        /// A format idp-tui must not touch, in words ("another program's SQLite database", "text", "an ELF binary").
        case otherFormat(String)
        /// Bytes in no format known here.
        case unreadable
    }

    static func content(of path: String) -> Content {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .otherFormat("a file idp-tui cannot read") }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4096)) ?? Data())
        if head.starts(with: sqliteMagic) {
            let application = applicationID(inHeader: head) ?? 0
            return application == 0 || application == StateFile.applicationID
                ? .damagedStateFile : .otherFormat("another program's SQLite database")
        }
        for (magic, name) in magicNumbers where head.starts(with: magic) { return .otherFormat(name) }
        if head.count >= 262 && head[257..<262].elementsEqual(Array("ustar".utf8)) { return .otherFormat("a tar archive") }
        if !head.isEmpty, looksLikeText(head) { return .otherFormat("a text file") }
        return .unreadable
    }

    private static let magicNumbers: [([UInt8], String)] = [
        ([0x7F, 0x45, 0x4C, 0x46], "an ELF binary"),
        ([0x1F, 0x8B], "a gzip file"),
        ([0x50, 0x4B, 0x03, 0x04], "a zip file"),
        ([0x25, 0x50, 0x44, 0x46], "a PDF file"),
        ([0x89, 0x50, 0x4E, 0x47], "a PNG image"),
        ([0xFF, 0xD8, 0xFF], "a JPEG image"),
        ([0x47, 0x49, 0x46, 0x38], "a GIF image"),
        ([0x42, 0x5A, 0x68], "a bzip2 file"),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "an xz file"),
        ([0x28, 0xB5, 0x2F, 0xFD], "a zstd file"),
        ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "a 7z archive"),
    ]

    /// UTF-8 with no NUL and few control characters other than tab and line ends.
    private static func looksLikeText(_ bytes: [UInt8]) -> Bool {
        guard !bytes.contains(0) else { return false }
        // A cut at 4096 bytes may split the last character.
        var valid = bytes
        while !valid.isEmpty, String(validating: valid, as: UTF8.self) == nil, bytes.count - valid.count < 4 { valid.removeLast() }
        guard String(validating: valid, as: UTF8.self) != nil else { return false }
        let controls = bytes.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }.count
        return controls * 100 <= bytes.count
    }
}
