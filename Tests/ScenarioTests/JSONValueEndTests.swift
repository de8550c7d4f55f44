import JSONText
import Testing

/// Where a stream of answers ends when its writer keeps it open: where its top-level object or array closes,
/// whatever the chunks it comes in; never inside a string; and at its first byte for a document that does not start
/// with a bracket (no answers, whatever follows: it was read to the stream's end, which a pipe held open never has).
@Suite struct JSONValueEndTests {
    /// The byte after which each document closes (nil: never), fed whole and split at every byte boundary.
    @Test(arguments: [
        (#"{"a":1}"#, 7),
        (#"  [{"a":[1,{}]},{}] trailing"#, 19),
        (#"{"p":"wonder}land\"]}\\"}x"#, 25),
        (#"{"a":"{[{["}"#, 12),
        (#"{"a":{"b":1}"#, nil),
        ("42", 1),
        (#""{}""#, 1),
        ("}{}", 1),
        ("  x", 3),
        // A byte order mark, which the parser accepts, before the value; not after white space.
        ("\u{FEFF}{}", 5),
        (" \u{FEFF}{}", 2),
    ] as [(String, Int?)])
    func aValueClosesWhereItsOutermostBracketCloses(_ text: String, _ closesAfter: Int?) {
        let bytes = Array(text.utf8)
        #expect(closedAfter(bytes, chunks: [bytes.count]) == closesAfter, "whole")
        for split in 1..<bytes.count {
            #expect(closedAfter(bytes, chunks: [split, bytes.count - split]) == closesAfter, "split at \(split)")
        }
    }

    /// Feeds `bytes` in chunks of the given sizes, one byte at a time inside each, and returns after how many
    /// bytes the value had closed.
    private func closedAfter(_ bytes: [UInt8], chunks: [Int]) -> Int? {
        var end = JSONValueEnd()
        var offset = 0
        for size in chunks {
            for index in offset..<offset + size where !end.closed {
                bytes[index...index].withUnsafeBufferPointer { end.scan($0) }
                if end.closed { return index + 1 }
            }
            offset += size
        }
        return nil
    }
}
