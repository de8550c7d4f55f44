import FlowEngine
import LocaleText

// Plain mode's printed lines: the events, their header, and the one-off notices and listings once printed.
extension TerminalApp {
    /// Lays plain mode's comparison out for a terminal of `columns` (0: not a terminal, the 78 a log keeps).
    public func plainTerminal(columns: Int) {
        state.plainWidth = columns > 0 ? max(38, min(78, columns)) : 78
    }

    /// The one-off notice has been shown.
    public func clearNotice() { state.notice = nil }

    /// The listing has been printed.
    public func clearPlainListing() { state.plainListing = [] }

    /// The plain event lines' header, over their columns as ``plainLine(_:ascii:)`` lays them out: who, step and
    /// the thread the event ran on (an unlabelled `idp-tui.flow` or `MC-SDK` read as a destination).
    public static func plainHeader(ascii: Bool = false) -> String {
        let header = LogPane.header(plainColumns(ascii: ascii), fitting: 200)
        return "  " + (ascii ? PlainASCII.text(header) : header)
    }

    /// An event as the plain front end prints it: one line, whole; `ascii`, its symbols spelled in ASCII
    /// (``PlainASCII``) with the columns as aligned as they are in Unicode (`-> MC-SDK  Start`).
    public static func plainLine(_ event: FlowEvent, ascii: Bool = false) -> String {
        func spelled(_ text: String) -> String { ascii ? PlainASCII.text(text) : text }
        // A line has no width to keep to: step and thread whole. Lines are printed as they come, so the columns
        // are as wide as the IdpSdk's and the Q2 module's longest step (getAuthorizationCode) and thread
        // (idp-tui.flow): every line of those flows lines up (each was as wide as its own step); a longer one (a
        // bridge message's name) pushes only its own line's rest.
        let least = plainColumns(ascii: ascii)
        let columns = LogPane.Columns(who: max(least.who, CharacterWidth.of(spelled(LogPane.who(event)))),
                                      step: max(least.step, CharacterWidth.of(spelled(event.step.rawValue))),
                                      thread: max(least.thread, CharacterWidth.of(spelled(event.thread))), time: false)
        return "  " + LogPane.line(event, columns: columns, spelled: spelled)
    }

    /// An event as plain mode prints it in this session: one that came after its flow's result (KSSIDP's, which goes
    /// on after a cancel, maybe while the next flow runs) names that flow first, `(flow 3, ended)`: among the next
    /// flow's lines it read as that flow's.
    public func plainLine(_ event: FlowEvent, ascii: Bool = false) -> String {
        let line = Self.plainLine(event, ascii: ascii)
        guard state.lateEvents.contains(event.sequence) else { return line }
        return "  (\(LogPane.flowName(event.flowID, state.historyIDs)), ended)" + line.dropFirst(1)
    }

    /// The plain lines' columns at their least: the IdpSdk's and the Q2 module's longest step and thread.
    private static func plainColumns(ascii: Bool) -> LogPane.Columns {
        LogPane.Columns(who: ascii ? 10 : 9, step: 20, thread: 12, time: false)
    }
}
