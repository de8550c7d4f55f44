/// A kind of flow: the name `run` takes (`activate`, `payer-auth` …) and what screens and diagrams say of it.
/// Each flow family declares its own (``FlowFamily/kinds``); two kinds are the same when their names are.
public struct FlowKind: Sendable, Hashable, Encodable, CustomStringConvertible {
    public let rawValue: String
    /// A title for screens, e.g. "Activate device".
    public let title: String
    /// Whether the flow asks the user for anything (`run` reads no answers for one that does not).
    public let asksTheUser: Bool
    /// The parties of its sequence diagram, left to right.
    public let lanes: [Participant]

    public init(_ rawValue: String, title: String, asksTheUser: Bool = true, lanes: [Participant]) {
        self.rawValue = rawValue
        self.title = title
        self.asksTheUser = asksTheUser
        self.lanes = lanes
    }

    public static func == (lhs: FlowKind, rhs: FlowKind) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
