/// Why a flow was cancelled, as the front end that cancelled it says.
///
/// The user's own cancel (Cancel, Esc, an answers file's `"cancel": true`) is `USER_CANCEL`. A front end that
/// gives up on a flow because its own input cannot answer a prompt — the headless runner's answers lack a field,
/// or hold fewer one-time codes than the challenge asks for — aborts it: nobody chose to cancel, so the history
/// says `ABORTED_BAD_INPUT`, and a family tells its SDK no more than it must (a payment's ACS hears
/// challengeCancel 06, transaction error, rather than 01, the cardholder selected Cancel).
public enum CancelReason: Sendable, Equatable {
    /// The user cancelled.
    case user
    /// The front end's input could not answer the flow: `why` names the input at fault (never a value), and is
    /// kept in the history.
    case badInput(String)

    /// The status a cancel for this reason ends a flow with, and its events carry.
    public var status: String {
        switch self {
        case .user: EngineStatus.cancelled
        case .badInput: EngineStatus.abortedBadInput
        }
    }

    /// "cancelled" or "aborted", for the words of an event.
    public var verb: String {
        switch self {
        case .user: "cancelled"
        case .badInput: "aborted"
        }
    }
}
