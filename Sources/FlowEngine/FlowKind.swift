import Threading

/// A kind of flow: the name `run` takes (`activate`, `payer-auth` …) and what screens and diagrams say of it.
/// Each flow family declares its own (``FlowFamily/kinds``); two kinds are the same when their names are.
public struct FlowKind: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// One object per kind, kept for the life of the process (``kept``) and held here without a reference count:
    /// every event carries its kind, and the kinds are shared by every thread, so a count would make the cores
    /// take turns at one cache line for each event.
    private final class Storage: Sendable {
        let rawValue: String
        let title: String
        let asksTheUser: Bool
        let lanes: [Participant]
        let sdk: String
        let replies: StepReplies
        let goodStatuses: Set<String>
        let fallbackSteps: Set<FlowStep>
        let summarize: Summarize

        init(rawValue: String, title: String, asksTheUser: Bool, lanes: [Participant], sdk: String, replies: StepReplies,
             goodStatuses: Set<String>, fallbackSteps: Set<FlowStep>, summarize: @escaping Summarize) {
            self.rawValue = rawValue
            self.title = title
            self.asksTheUser = asksTheUser
            self.lanes = lanes
            self.sdk = sdk
            self.replies = replies
            self.goodStatuses = goodStatuses
            self.fallbackSteps = fallbackSteps
            self.summarize = summarize
        }
    }

    /// Every kind made, so that its storage lives as long as the process: kinds are declared once each, as
    /// static constants.
    private static let kept = Locked<[Storage]>([])

    private unowned(unsafe) let storage: Storage

    /// How a family rewords the engine's summary of one of its results (``ResultSummary``).
    public typealias Summarize = @Sendable (_ summary: inout ResultSummary, _ result: FlowResult) -> Void

    /// `replies`: which of its steps answer another by name, for its diagrams (by default, only a step coming back
    /// as itself). `goodStatuses`: its events' statuses that say a step went as it should, beyond the engine's
    /// (``FlowKind/isGood(_:)``). `fallbackSteps`: its steps whose failure the flow goes on from another way (a
    /// login's OfflineLogin, then the IdP), so that their other statuses are warnings, not errors
    /// (``FlowKind/fallsBack(at:)``). `summarize`: how the family words this kind's results on the result screen
    /// and in plain mode, from the engine's wording; by default the engine's wording is kept.
    public init(
        _ rawValue: String, title: String, asksTheUser: Bool = true, lanes: [Participant], sdk: String = "",
        replies: StepReplies = .none, goodStatuses: Set<String> = [], fallbackSteps: Set<FlowStep> = [],
        summarize: @escaping Summarize = { _, _ in }
    ) {
        let storage = Storage(
            rawValue: rawValue, title: title, asksTheUser: asksTheUser, lanes: lanes, sdk: sdk, replies: replies,
            goodStatuses: goodStatuses, fallbackSteps: fallbackSteps, summarize: summarize)
        Self.kept.withLock { $0.append(storage) }
        self.storage = storage
    }

    /// The name `run` takes: `activate`, `payer-auth` …
    public var rawValue: String { storage.rawValue }
    /// A title for screens, e.g. "Activate device".
    public var title: String { storage.title }
    /// The SDK the flow drives, as a screen's header names it ("IdpSdk on MC-SDK"); empty when its family gives none.
    public var sdk: String { storage.sdk }
    /// Whether the flow asks the user for anything (`run` needs no answers for one that does not: a terminal on
    /// standard input is not read, and empty input stands for `{}`).
    public var asksTheUser: Bool { storage.asksTheUser }
    /// The parties of its sequence diagram, left to right.
    public var lanes: [Participant] { storage.lanes }
    /// Which of its steps answer another by name, beyond a step coming back as itself.
    public var replies: StepReplies { storage.replies }
    /// Whether an event of this kind with `status` says its step went as it should (a log draws it as information,
    /// not as an error): none, `OK`, the app's `answered` and `entered`, HTTP 200 and 302, and the kind's own
    /// `goodStatuses`.
    public func isGood(_ status: String?) -> Bool {
        guard let status else { return true }
        return Self.engineGoodStatuses.contains(status) || storage.goodStatuses.contains(status)
    }

    /// Whether `step` is one whose failure this kind goes on from another way: what it reports there is a warning
    /// (the login that OfflineLogin could not complete goes on at the IdP), not the flow's error.
    public func fallsBack(at step: FlowStep) -> Bool { storage.fallbackSteps.contains(step) }

    private static let engineGoodStatuses: Set<String> = ["OK", "answered", "entered", "200", "302"]

    /// Rewords the engine's summary of a result of this kind in its family's terms.
    public func summarize(_ summary: inout ResultSummary, _ result: FlowResult) { storage.summarize(&summary, result) }

    public static func == (lhs: FlowKind, rhs: FlowKind) -> Bool { lhs.storage === rhs.storage || lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
