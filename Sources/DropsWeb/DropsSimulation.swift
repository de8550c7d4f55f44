import Foundation
import Determinism
import ThreeDSecure

/// The card details the Drops page's form collects.
public struct PaymentDetails: Sendable {
    public var card: CardNumber
    public var expiryMonth: Int
    public var expiryYear: Int
    public var amountMinorUnits: Int
    public var currency: String
    public var merchantName: String

    public init(card: CardNumber, expiryMonth: Int, expiryYear: Int, amountMinorUnits: Int, currency: String, merchantName: String) {
        self.card = card
        self.expiryMonth = expiryMonth
        self.expiryYear = expiryYear
        self.amountMinorUnits = amountMinorUnits
        self.currency = currency
        self.merchantName = merchantName
    }
}

/// What the cardholder does on a challenge screen.
public enum CardholderAction: Sendable {
    case answer(ChallengeAnswer)
    /// Out-of-band: approve (or refuse) on the other device, then continue on this one.
    case decideOnOtherDevice(approve: Bool)
}

/// The cardholder's other device: an out-of-band challenge's banking app, where they approve or refuse the payment
/// while the challenge screen stays open. The decision reaches the ACS at once, and is logged then; the 3DS SDK
/// learns it at the next CReq (`oobContinue`), when the cardholder continues on the challenge screen.
public struct OtherDevice: Sendable {
    private let decided: @Sendable (Bool) -> Void

    public init(_ decided: @escaping @Sendable (_ approve: Bool) -> Void) {
        self.decided = decided
    }

    public func decide(approve: Bool) { decided(approve) }
}

/// The person at the Drops page. In a browser they type into the page; in the simulation a front end answers
/// for them. The page's payment awaits each answer on its own queue, holding no thread while the person thinks.
public protocol DropsCardholder: AnyObject, Sendable {
    /// The card form; nil when the cardholder closes it.
    func enterPaymentDetails() async -> PaymentDetails?
    func respond(to screen: ChallengeScreen) async -> CardholderAction
    /// As ``respond(to:)``, with the cardholder's other device for an out-of-band screen: a cardholder who decides
    /// there answers the screen with `.answer(.continueOutOfBand)` (by default, ``respond(to:)`` is asked).
    func respond(to screen: ChallengeScreen, otherDevice: OtherDevice?) async -> CardholderAction
    /// Awaited by the page after it has told the host that a challenge follows, before the 3DS SDK's first CReq:
    /// a cardholder whose app shows the challenge on that callback waits for it here.
    func challengeWillStart() async
}

extension DropsCardholder {
    public func challengeWillStart() async {}
    public func respond(to screen: ChallengeScreen, otherDevice: OtherDevice?) async -> CardholderAction { await respond(to: screen) }
}

/// Faults the simulated page can show: the bridge's error paths, and the 3-D Secure exchanges the page runs.
public struct BridgeFaults: Sendable, Equatable {
    /// The first this many acks are lost.
    public var lostAcks: Int
    public var loseEveryAck: Bool
    public var readyNeverComes: Bool
    /// The page sends one malformed message first.
    public var malformedMessage: Bool
    /// The page sends one event with a name the host does not know first.
    public var unknownEvent: Bool
    /// The page posts from an origin that is not the Drops origin.
    public var wrongOrigin: Bool
    /// The directory server's and the ACS's faults, and the spec timers' triggers.
    public var threeDS: ThreeDSFaults

    public init(lostAcks: Int = 0, loseEveryAck: Bool = false, readyNeverComes: Bool = false, malformedMessage: Bool = false,
                unknownEvent: Bool = false, wrongOrigin: Bool = false, threeDS: ThreeDSFaults = .none) {
        self.lostAcks = lostAcks
        self.loseEveryAck = loseEveryAck
        self.readyNeverComes = readyNeverComes
        self.malformedMessage = malformedMessage
        self.unknownEvent = unknownEvent
        self.wrongOrigin = wrongOrigin
        self.threeDS = threeDS
    }

    public static let none = BridgeFaults()

    /// Every fault that is on in either.
    public func merged(with other: BridgeFaults) -> BridgeFaults {
        BridgeFaults(
            lostAcks: max(lostAcks, other.lostAcks), loseEveryAck: loseEveryAck || other.loseEveryAck,
            readyNeverComes: readyNeverComes || other.readyNeverComes, malformedMessage: malformedMessage || other.malformedMessage,
            unknownEvent: unknownEvent || other.unknownEvent, wrongOrigin: wrongOrigin || other.wrongOrigin,
            threeDS: threeDS.merged(with: other.threeDS))
    }

    /// Each of the faults, by name, as ``IdentityFaults/Fault`` names the identity side's.
    public enum Fault: CaseIterable, Sendable {
        case loseAcks, loseEveryAck, readyNeverComes, malformedMessage, unknownEvent, wrongOrigin, methodTimeout,
            firstCReqLost, directoryServer, acs

        /// The key a scenario's or an answer's `faults` gives it by.
        public var key: String {
            switch self {
            case .loseAcks: "bridge.loseAcks"
            case .loseEveryAck: "bridge.loseEveryAck"
            case .readyNeverComes: "bridge.readyNeverComes"
            case .malformedMessage: "bridge.malformedMessage"
            case .unknownEvent: "bridge.unknownEvent"
            case .wrongOrigin: "bridge.wrongOrigin"
            case .methodTimeout: "threeDS.methodTimeout"
            case .firstCReqLost: "threeDS.firstCReqLost"
            case .directoryServer: "threeDS.directoryServer"
            case .acs: "threeDS.acs"
            }
        }

        /// Every fault's key, in order.
        public static let keys: [String] = allCases.map(\.key)
    }

    /// Whether `fault` is on (a server's fault: whatever its value).
    public func isOn(_ fault: Fault) -> Bool {
        switch fault {
        case .loseAcks: lostAcks > 0
        case .loseEveryAck: loseEveryAck
        case .readyNeverComes: readyNeverComes
        case .malformedMessage: malformedMessage
        case .unknownEvent: unknownEvent
        case .wrongOrigin: wrongOrigin
        case .methodTimeout: threeDS.methodTimeout
        case .firstCReqLost: threeDS.firstCReqLost
        case .directoryServer: threeDS.directoryServer != nil
        case .acs: threeDS.acs != nil
        }
    }

    /// Every fault, made once: a flow's start asks for the names.
    private static let everyFault = Fault.allCases

    /// The faults on that `include` takes, in words, in the order of ``Fault`` (`include` is asked of those on only).
    public func activeNames(where include: (Fault) -> Bool) -> [String] {
        Self.everyFault.compactMap { fault in
            guard isOn(fault), include(fault) else { return nil }
            return switch fault {
            case .loseAcks: lostAcks == 1 ? "the first bridge ack lost" : "the first \(lostAcks) bridge acks lost"
            case .loseEveryAck: "every bridge ack lost"
            case .readyNeverComes: "the Drops page never gets ready"
            case .malformedMessage: "a malformed bridge message"
            case .unknownEvent: "an unknown bridge event"
            case .wrongOrigin: "messages from the wrong origin"
            case .methodTimeout: "the 3DS Method never completes"
            case .firstCReqLost: "the first CReq is lost"
            case .directoryServer: threeDS.directoryServer.map { "directory server \($0.name)" }
            case .acs: threeDS.acs.map { "ACS \($0.name)" }
            }
        }
    }
}

/// One thing that crossed the bridge or the 3-D Secure network, for the log. Never carries a code or a
/// full card number.
public struct DropsLogEntry: Sendable, Equatable {
    public let from: String
    public let to: String
    public let name: String
    public let detail: String
    /// The thread it happened on.
    public let thread: String
    /// The message's outcome where it has one: the transStatus of an ARes or RReq, `ack` for an ack.
    public let status: String?
    /// The whole message, as JSON: a 3-D Secure one (EMV field names) for AReq, ARes, CReq, CRes, RReq and Erro;
    /// the bridge's property update with the merchant's credentials redacted.
    public let message: String?

    public init(from: String, to: String, name: String, detail: String, thread: String, status: String? = nil, message: String? = nil) {
        self.from = from
        self.to = to
        self.name = name
        self.detail = detail
        self.thread = thread
        self.status = status
        self.message = message
    }
}

/// Everything the simulated Drops needs that the real SDK gets from a browser and the network.
public struct DropsSimulation: Sendable {
    public var clock: any SimulationClock
    public var random: RandomSource
    public var acs: AccessControlServer
    public var cardholder: any DropsCardholder
    public var faults: BridgeFaults
    public var timing: BridgeTiming
    /// The network between the device and Drops, the DS and the ACS; nil: no latency, no network fault.
    public var network: (any PageNetwork)?
    /// Told each time one of `faults` strikes, as the log is told of it (`fault injected`): which ones a failure may
    /// be put down to.
    public var faultHit: @Sendable (BridgeFaults.Fault) -> Void
    public var log: @Sendable (DropsLogEntry) -> Void

    public init(
        clock: any SimulationClock, random: RandomSource, acs: AccessControlServer, cardholder: any DropsCardholder,
        faults: BridgeFaults = .none, timing: BridgeTiming = .swiftHost, network: (any PageNetwork)? = nil,
        faultHit: @escaping @Sendable (BridgeFaults.Fault) -> Void = { _ in },
        log: @escaping @Sendable (DropsLogEntry) -> Void = { _ in }
    ) {
        self.faultHit = faultHit
        self.clock = clock
        self.random = random
        self.acs = acs
        self.cardholder = cardholder
        self.faults = faults
        self.timing = timing
        self.network = network
        self.log = log
    }
}

/// A URL as logs and messages show it: without its query, fragment or user, where a JWT or a password may ride
/// (`https://collect.example/V1/Collect?<redacted>`), and with a path segment that looks like a token (a JWT's
/// three dotted parts, or 32 or more base64url characters) as `<redacted>`; not a URL at all, `<redacted>`.
public func urlForLogs(_ text: String) -> String {
    guard var components = URLComponents(string: text), components.scheme != nil else { return "<redacted>" }
    let hidden = components.query != nil || components.fragment != nil || components.user != nil || components.password != nil
    (components.query, components.fragment, components.user, components.password) = (nil, nil, nil, nil)
    // "<redacted>" is not a valid path (URLComponents traps on it): the path is joined after the rest.
    let path = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        .map { looksLikeAToken($0) ? "<redacted>" : String($0) }.joined(separator: "/")
    components.percentEncodedPath = ""
    guard let rest = components.string else { return "<redacted>" }
    return rest + path + (hidden ? "?<redacted>" : "")
}

/// A JWT or JWE (`eyJ…` with two dots or more, a part possibly empty) or a long opaque token (32 or more base64 or
/// base64url characters), as apps put one in a URL's path: the whole segment, or one of its pieces between `.`
/// and `;` (`token.json`, `Collect;jsessionid=…`).
private func looksLikeAToken(_ segment: Substring) -> Bool {
    if segment.hasPrefix("eyJ") && segment.filter({ $0 == "." }).count >= 2 { return true }
    func opaque(_ piece: Substring) -> Bool {
        let value = piece.split(separator: "=", maxSplits: 1).last ?? piece
        return value.count >= 32 && value.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_+%=".unicodeScalars.contains($0)
        }
    }
    return segment.split(whereSeparator: { $0 == "." || $0 == ";" }).contains(where: opaque)
}

// What a dump of a Drops view shows of the page's simulation: the bridge's faults and timing, not the ACS, the
// world's randomness or the cardholder's script.
extension DropsSimulation: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: ["faults": faults, "timing": timing], displayStyle: .struct) }
}
