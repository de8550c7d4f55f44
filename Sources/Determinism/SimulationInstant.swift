import Foundation

/// A point in simulated time, in nanoseconds since the Unix epoch.
public struct SimulationInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanosecondsSinceEpoch: Int64

    public init(nanosecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    public init(_ date: Date) {
        nanosecondsSinceEpoch = Int64((date.timeIntervalSince1970 * 1e9).rounded())
    }

    public var date: Date { Date(timeIntervalSince1970: Double(nanosecondsSinceEpoch) / 1e9) }

    public func advanced(by duration: Duration) -> SimulationInstant {
        SimulationInstant(nanosecondsSinceEpoch: nanosecondsSinceEpoch + duration.nanoseconds)
    }

    public func duration(to other: SimulationInstant) -> Duration {
        .nanoseconds(other.nanosecondsSinceEpoch - nanosecondsSinceEpoch)
    }

    public static func < (lhs: SimulationInstant, rhs: SimulationInstant) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2030-01-01T00:00:00.000Z`: the milliseconds counted in integers (through
    /// a `Date`'s double, .415 came out .414, and a time read back from the history was a millisecond early).
    public var description: String {
        let (seconds, nanoseconds) = nanosecondsSinceEpoch.quotientAndRemainder(dividingBy: 1_000_000_000)
        let (whole, fraction) = nanoseconds < 0 ? (seconds - 1, nanoseconds + 1_000_000_000) : (seconds, nanoseconds)
        let text = Date(timeIntervalSince1970: Double(whole)).formatted(Self.wholeSeconds)
        let millis = String(fraction / 1_000_000)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - millis.count) + millis + "Z"
    }

    private static let wholeSeconds = Date.ISO8601FormatStyle()

    /// The instant ``description`` writes (`2030-01-01T00:00:00.000Z`), or nil for other text: to the millisecond it
    /// names (through a `Date`'s double it came back a nanosecond short, and was written .475 for .476).
    public init?(parsing text: String) {
        guard let date = try? Self.format.parse(text) else { return nil }
        self.init(nanosecondsSinceEpoch: Int64((date.timeIntervalSince1970 * 1000).rounded()) * 1_000_000)
    }

    private static let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

extension Duration {
    /// The whole duration in nanoseconds (saturating far beyond any simulated wait).
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in microseconds, for event records.
    package var microseconds: Int64 { nanoseconds / 1000 }
}
