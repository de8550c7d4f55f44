import Threading

/// The simulators' only source of randomness: seeded, so that the same seed replays the same codes,
/// ids and tokens. It is not for cryptographic keys outside the simulation.
public final class RandomSource: Sendable {
    private let generator: Locked<SeededGenerator>

    public init(seed: UInt64) {
        generator = Locked(SeededGenerator(seed: seed))
    }

    public func nextUInt64() -> UInt64 {
        generator.withLock { $0.next() }
    }

    public func bytes(_ count: Int) -> [UInt8] {
        generator.withLock { generator in
            (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        }
    }

    /// A string of `length` characters drawn from `alphabet`.
    public func string(length: Int, alphabet: String) -> String {
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
