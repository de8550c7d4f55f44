/// Why a flow was cancelled, as the front end that cancelled it says.
///
/// The user's own cancel (Cancel, Esc, an answers file's `"cancel": true`) is `USER_CANCEL`. A front end that
/// gives up on a flow because its own input cannot answer a prompt — the headless runner's answers lack a field,
/// or hold fewer one-time codes than the challenge asks for — aborts it: nobody chose to cancel, so the history
/// says `ABORTED_BAD_INPUT`, and a family tells its SDK no more than it must (a payment's ACS hears
/// challengeCancel 06, transaction error, rather than 01, the cardholder selected Cancel). A signal that ends the
/// process (a CI job's timeout or cancel: SIGTERM, SIGINT, a hang-up) interrupts the flow: `INTERRUPTED`, told to
/// its SDK as an abort is, and named in the history (it read as a person's Cancel, "cancelled by the cardholder").
public enum CancelReason: Sendable, Equatable {
    /// The user cancelled.
    case user
    /// The front end's input could not answer the flow: `why` names the input at fault (never a value), and is
    /// kept in the history.
    case badInput(String)
    /// A signal ended the process: its name (`SIGTERM`; Ctrl-C in the terminal UI is `SIGINT`, as it is elsewhere).
    case interrupted(String)

    /// The interrupt of signal `number` (`SIGTERM`, or `signal 10` for one without a name here).
    public static func signal(_ number: Int32) -> CancelReason {
        let names: [Int32: String] = [1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 10: "SIGUSR1", 12: "SIGUSR2", 14: "SIGALRM", 15: "SIGTERM"]
        return .interrupted(names[number] ?? "signal \(number)")
    }

    /// Whether the user chose the cancel (an abort and an interrupt are nobody's choice).
    public var isUsers: Bool { self == .user }

    /// What ended a flow that the user did not cancel, in short ("aborted for bad input", "interrupted by SIGTERM"),
    /// for the event at its prompt; nil for the user's.
    public var abortHead: String? {
        switch self {
        case .user: nil
        case .badInput: "aborted for bad input"
        case .interrupted(let signal): "interrupted by \(signal)"
        }
    }

    /// The same, and why, for the flow's error ("aborted for bad input: …"); nil for the user's.
    public var abortText: String? {
        switch self {
        case .user: nil
        case .badInput(let why): "\(abortHead ?? ""): \(why)"
        case .interrupted: "\(abortHead ?? ""): the process was told to end before the flow did"
        }
    }

    /// The status a cancel for this reason ends a flow with, and its events carry.
    public var status: String {
        switch self {
        case .user: EngineStatus.cancelled
        case .badInput: EngineStatus.abortedBadInput
        case .interrupted: EngineStatus.interrupted
        }
    }

    /// "cancelled" or "aborted", for the words of an event.
    public var verb: String {
        switch self {
        case .user: "cancelled"
        case .badInput: "aborted"
        case .interrupted: "interrupted"
        }
    }
}
