import Threading

/// The simulators' only source of randomness: seeded, so that the same seed replays the same codes,
/// ids and tokens. It is not for cryptographic keys outside the simulation.
public final class RandomSource: Sendable {
    private let generator: Locked<SeededGenerator>

    public init(seed: UInt64) {
        generator = Locked(SeededGenerator(seed: seed))
    }

    /// The seed for the `generation`th run of a sequence of runs that all start from `seed`: `seed` itself for
    /// the first (generation 0), a well-mixed other one for each later one. The same seed and generation always
    /// give the same result.
    public static func seed(_ seed: UInt64, generation: UInt64) -> UInt64 {
        guard generation > 0 else { return seed }
        var mixed = SeededGenerator(seed: seed &+ generation &* 0x9E37_79B9_7F4A_7C15)
        return mixed.next()
    }

    /// `count` bytes, one draw each.
    public func bytes(_ count: Int) -> [UInt8] {
        generator.withLock { generator in
            [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: generator.next()) }
                initialized = count
            }
        }
    }

    /// A string of `length` characters drawn from `alphabet`, one draw each.
    public func string(length: Int, alphabet: String) -> String {
        let ascii = Array(alphabet.utf8)
        if ascii.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            // ASCII without CR (so no CR LF pair): one byte per Character. Pick bytes: the same draws give the
            // same string.
            return generator.withLock { generator in
                String(unsafeUninitializedCapacity: length) { buffer in
                    for index in 0..<length { buffer[index] = ascii[Int(generator.next(upperBound: UInt64(ascii.count)))] }
                    return length
                }
            }
        }
        let characters = Array(alphabet)
        return generator.withLock { generator in
            String((0..<length).map { _ in characters[Int(generator.next(upperBound: UInt64(characters.count)))] })
        }
    }
}

/// xoshiro256** seeded through SplitMix64: small, fast and reproducible across platforms.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    public init(seed: UInt64) {
        var mix = seed
        func splitMix() -> UInt64 {
            mix &+= 0x9E37_79B9_7F4A_7C15
            var z = mix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (splitMix(), splitMix(), splitMix(), splitMix())
    }

    public mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}

// The generator's state predicts every id, code and token drawn after it: a dump of an SDK object that holds the
// world's randomness (an app's debug log) shows none of it.
extension RandomSource: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
