import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import LocaleText

/// The history screen: past flows, newest first.
public struct HistoryState: Sendable, Equatable {
    /// Every flow read, newest first.
    public private(set) var all: [HistorySummary]
    /// The flows the list shows: those the filter matches (all without one).
    public private(set) var entries: [HistorySummary]
    /// Only flows whose row's text contains this are listed (smart case, as the log's `/`): `failure`, `payer`.
    /// The flow selected stays selected while the filter lists it (an index kept landed on another flow).
    public var filter = "" {
        didSet {
            let selected = entries.indices.contains(selection) ? entries[selection].id : nil
            entries = filter.isEmpty ? all : all.filter { Self.matches($0, filter) }
            selection = entries.firstIndex { $0.id == selected } ?? min(selection, max(0, entries.count - 1))
        }
    }
    /// `/` was pressed: keys type into the filter until Enter or Esc.
    public var editingFilter = false
    public var selection = 0
    /// The first flow shown (``ListWindow``).
    public var first = 0
    /// Why the history could not be read, if it could not.
    public var error: String?
    /// Whether the file holds older flows than the list shows (it shows the newest ``TerminalApp/historyLimit``).
    public var olderNotShown = false
    /// Kept in memory (`--ephemeral`): gone when idp-tui exits.
    public var inMemory = false

    public init(entries: [HistorySummary], error: String? = nil, olderNotShown: Bool = false) {
        all = entries
        self.entries = entries
        self.error = error
        self.olderNotShown = olderNotShown
    }

    /// Whether `entry`'s row holds `filter`: its ID, flow, user, outcome, status or time, or its flow's title as the
    /// menu names it (`/kssidp` found none of the flows the menu calls "Activate device (KSSIDP)", listed as
    /// `legacy-activate`).
    static func matches(_ entry: HistorySummary, _ filter: String) -> Bool {
        entry.holds(filter, title: FlowCatalog.kind(named: entry.flow)?.title ?? "")
    }
}

/// One past flow's transcript: its events listed as the event log lists them (its columns, a filter, the detail
/// view), or drawn as a sequence diagram.
public struct TranscriptState: Sendable, Equatable {
    public let record: HistoryRecord
    /// The record's events as the log holds events, for its columns, lines and filter.
    public let events: [FlowEvent]
    /// The selected event's index in the record; as a diagram, the first arrow shown.
    public var scroll = 0
    /// The first of the listed events the list shows (``ListWindow``).
    public var first = 0
    /// Only events whose text contains this are listed (as the log's `/`).
    public var filter = ""
    /// `/` was pressed: keys type into the filter until Enter or Esc.
    public var editingFilter = false
    /// The selected event's detail view, scrolled this far, when open.
    public var detail: Int?
    /// The flow drawn as a sequence diagram (`v`).
    public var asSequence = false
    /// The list's selection when the diagram opened, and where the diagram started: `v` again goes back to it unless
    /// the diagram was moved (the diagram's shorter range had moved event 20's selection to 14).
    var beforeSequence: BeforeSequence?
    /// The `--state` the export command names (``AppState/stateOption``): nil in memory, where no command reaches it.
    var stateOption: String?

    struct BeforeSequence: Sendable, Equatable {
        var selection: Int
        var diagram: Int
    }

    public init(record: HistoryRecord) {
        self.record = record
        let summary = record.summary
        let kind = FlowCatalog.kind(named: summary.flow) ?? FlowKind(summary.flow, title: summary.flow, lanes: [])
        events = record.events.map { FlowEvent(recorded: $0, flowID: summary.id, flow: kind) }
    }
}

extension TerminalApp {
    static let historyLimit = 200

    /// Shows the log as the sequence diagram, spaced for the newest flow's kind's past labels.
    func showDiagram() {
        state.logAsSequence = true
        state.diagramZoomed = false
        if let newest = state.log.last { readLaneHints(for: newest.flow) }
    }

    /// The labels past flows of `kind` drew (``AppState/laneHints``), from the history's newest flows: the newest of
    /// each status, so that a cancel's and a failure's labels are among them. Once a session per kind,
    /// when the diagram first shows one of its flows; a history that cannot be read gives none.
    func readLaneHints(for kind: FlowKind) {
        guard state.laneHintsRead.insert(kind.rawValue).inserted else { return }
        guard let history = service.history, let newest = try? history.list(limit: Self.historyLimit) else { return }
        var statuses: Set<String> = []
        let chosen = newest.filter { $0.flow == kind.rawValue && statuses.insert($0.status).inserted }.prefix(8)
        let events = chosen.compactMap { try? history.record(id: $0.id) }.flatMap { record in
            record.events.map { FlowEvent(recorded: $0, flowID: record.summary.id, flow: kind) }
        }
        addLaneHints(SequencePane.longestLabels(events), for: kind)
    }

    /// `arrows` join the labels `kind`'s lanes are spaced for.
    func addLaneHints(_ arrows: [SequencePane.Arrow], for kind: FlowKind) {
        state.laneHints[kind.rawValue] = SequencePane.longest((state.laneHints[kind.rawValue] ?? []) + arrows)
    }

    func openHistory() {
        guard let history = service.history else {
            state.notice = "this run keeps no history"
            return
        }
        do {
            // One more than is shown: whether the file holds older ones, which the title then says (it said "200 flows"
            // of a file that kept 1,000).
            var entries = try history.list(limit: Self.historyLimit + 1)
            let older = entries.count > Self.historyLimit
            if older { entries.removeLast() }
            var opened = HistoryState(entries: entries, olderNotShown: older)
            opened.inMemory = history is MemoryFlowHistory
            state.screen = .history(opened)
        } catch {
            state.screen = .history(HistoryState(entries: [], error: "the history cannot be read: \(error)"))
        }
    }

    func handleHistory(_ key: Key, _ history: inout HistoryState) {
        // Where the list is drawn now: the key moves the selection from that view, which moves only to keep it shown.
        func keepInView() {
            let rows = AppView.historyRows(history, AppView.innerPanel(state))
            history.first = ListWindow.first(kept: history.first, focus: history.selection, rows: rows, count: history.entries.count)
        }
        keepInView()
        let last = max(0, history.entries.count - 1)
        // While the filter is typed, keys edit it; the arrows and page keys move the selection, as in a transcript.
        if history.editingFilter && ![.up, .down, .pageUp, .pageDown, .home, .end].contains(key) {
            var (filter, editing) = (history.filter, history.editingFilter)
            if let notice = LogFocusState.edit(&filter, editing: &editing, with: key) { state.notice = notice }
            (history.filter, history.editingFilter) = (filter, editing)
            keepInView()
            state.screen = .history(history)
            return
        }
        // A page is the rows shown, less one kept in sight (k9s and less page so).
        let page = max(1, AppView.historyRows(history, AppView.innerPanel(state)) - 1)
        switch key {
        // The first Esc clears a filter, the next goes back, as a transcript's.
        case .escape where !history.filter.isEmpty: history.filter = ""
        case .escape, .character("q"), .f3:
            state.screen = .home
            return
        // As the home menu moves (and lazygit's and k9s's lists): j k, either end, and PgUp PgDn a page of flows (they
        // paged the event log below, and 200 flows were stepped through one by one).
        case .up, .backTab, .character("k"): history.selection = max(0, history.selection - 1)
        case .down, .tab, .character("j"): history.selection = min(last, history.selection + 1)
        case .pageUp: history.selection = max(0, history.selection - page)
        case .pageDown: history.selection = min(last, history.selection + page)
        case .home: history.selection = 0
        case .end: history.selection = last
        // `failure`, `payer-auth`, `alice`: the flows whose row holds it.
        case .character("/"): history.editingFilter = true
        case .enter:
            guard history.entries.indices.contains(history.selection) else { break }
            let id = history.entries[history.selection].id
            do {
                if let record = try service.history?.record(id: id) {
                    var transcript = TranscriptState(record: record)
                    transcript.stateOption = state.stateOption
                    state.screen = .transcript(transcript, returnTo: history)
                    return
                }
                history.error = "flow \(id) is no longer in the history"
            } catch {
                history.error = "flow \(id) cannot be read: \(error)"
            }
        default: break
        }
        keepInView()
        state.screen = .history(history)
    }
}

extension AppView {
    /// The flows the list shows in `area`: all of it but the header, and the error's line when there is one.
    static func historyRows(_ history: HistoryState, _ area: Panel) -> Int {
        area.height - 1 - (history.error == nil ? 0 : 1)
    }

    /// `focused` false: the log has the keys, and the selection is drawn in bold, not highlighted (one highlight says
    /// where Enter goes).
    static func drawHistory(_ buffer: inout ScreenBuffer, _ history: HistoryState, _ area: Panel, focused: Bool = true) {
        if let error = history.error {
            buffer.put(error, row: area.top, column: area.left, role: .error, limit: area.width)
        }
        guard !history.entries.isEmpty else {
            // Wrapped at words (at 60 columns it stopped mid-word: "…, with thei").
            // Under --ephemeral, until the session ends, as plain mode says (it read as kept).
            let kept = history.inMemory ? "kept here until idp-tui exits (--ephemeral)" : "kept here"
            let none = history.all.isEmpty ? "No flows yet: the flows you run are \(kept), with their transcripts."
                : "No flow matches the filter (esc clears it)."
            buffer.putWrapped(none, row: area.top + 1,
                              column: area.left, width: area.width, lines: max(1, area.height - 1), role: .hint)
            return
        }
        let top = area.top + (history.error == nil ? 0 : 1)
        let columns = HistoryColumns(history.entries, width: area.width)
        buffer.put(columns.row(HistoryColumns.header), row: top, column: area.left,
                   role: .label, limit: area.width)
        let rows = historyRows(history, area)
        let first = ListWindow.first(kept: history.first, focus: history.selection, rows: rows, count: history.entries.count)
        // Flows that do not fit: the header's end says how many, and where, as the faults panel's last row does.
        putHiddenNote(&buffer, above: first, below: history.entries.count - first - rows, after: columns.row(HistoryColumns.header),
                      row: top, area: area)
        for (offset, entry) in history.entries.enumerated().dropFirst(first).prefix(rows) {
            let line = CharacterWidth.truncate(columns.row(HistoryColumns.values(entry)), to: area.width)
            let selected = offset == history.selection
            let at = top + 1 + offset - first
            buffer.targets.append(ClickTarget(row: at, column: area.left, width: area.width, stop: offset))
            if selected && focused { buffer.fill(row: at, column: area.left, count: area.width, role: .menuFocused) }
            buffer.put(line, row: at, column: area.left,
                       role: selected ? (focused ? .menuFocused : .title) : entry.outcome == .failure ? .error : .text, limit: area.width)
        }
    }

    /// The history's columns, each as wide as its widest value among all the entries (not fixed widths: USER took
    /// 8 columns for "—" while STATUS was cut), the status last with the rest of the row. The time goes when the
    /// row is too narrow for it and the longest status (under 70 columns, always): the transcript shows it.
    struct HistoryColumns {
        var widths: [Int]
        var withTime: Bool
        var gap = 1
        /// What ends a cut value, as it is printed ("..." in plain mode's ASCII, three columns, not one).
        var ellipsis = "…"

        /// The time's zone in its column's head, where the time shows: the times are UTC, as recorded (a tester in
        /// Tokyo read 02:46 for 11:46; plain mode said it, the terminal UI did not).
        static let header = ["ID", "TIME (UTC)", "FLOW", "USER", "OUTCOME", "STATUS"]

        /// An entry's cells; `spelled`, as they are printed (plain mode's ASCII spells "—" in two columns).
        static func values(_ entry: HistorySummary, spelled: (String) -> String = { $0 }) -> [String] {
            entry.rowValues.map(spelled)
        }

        init(_ entries: [HistorySummary], width: Int, spelled: (String) -> String = { $0 }) {
            ellipsis = spelled("…")
            widths = Self.header.map(CharacterWidth.of)
            for entry in entries {
                for (index, value) in Self.values(entry, spelled: spelled).enumerated() {
                    widths[index] = max(widths[index], CharacterWidth.of(value))
                }
            }
            // One long user name (a Q2 login takes 60 characters) took the status's room from every row; it is cut
            // with "…" at 16, and the transcript has it whole.
            widths[3] = min(widths[3], Self.userLimit)
            // The first layout in which the longest status fits: the time first, then two spaces between columns.
            let all = widths.reduce(0, +), time = widths[1], count = widths.count
            let layouts = (width >= 70 ? [(true, 2), (true, 1)] : []) + [(false, 2), (false, 1)]
            let fitting = layouts.first { withTime, gap in
                (withTime ? all : all - time) + gap * (count - (withTime ? 1 : 2)) <= width
            }
            (withTime, gap) = fitting ?? (false, 1)
        }

        static let userLimit = 16

        func row(_ values: [String]) -> String {
            var parts: [String] = []
            for (index, value) in values.enumerated() where index != 1 || withTime {
                let value = index == values.count - 1 || CharacterWidth.of(value) <= widths[index] ? value
                    : CharacterWidth.prefix(value, fitting: widths[index] - CharacterWidth.of(ellipsis)) + ellipsis
                parts.append(index == values.count - 1 ? value : value + String(repeating: " ", count: max(0, widths[index] - CharacterWidth.of(value))))
            }
            return parts.joined(separator: String(repeating: " ", count: gap))
        }
    }

    /// How many rows a list does not show, above and below, at the right end of `row` after the text `after`: both,
    /// in the longest form that fits beside it ("↑ 3 above · ↓ 9 more", "↑ 3 · ↓ 9", "↑3 · ↓9"), or nothing.
    static func putHiddenNote(_ buffer: inout ScreenBuffer, above: Int, below: Int, after: String, row: Int, area: Panel) {
        let forms = [
            [above > 0 ? "↑ \(above) above" : nil, below > 0 ? "↓ \(below) more" : nil],
            [above > 0 ? "↑ \(above)" : nil, below > 0 ? "↓ \(below)" : nil],
            [above > 0 ? "↑\(above)" : nil, below > 0 ? "↓\(below)" : nil],
        ].map { $0.compactMap { $0 }.joined(separator: " · ") }
        let taken = CharacterWidth.of(after)
        guard let note = forms.first(where: { !$0.isEmpty && taken + 2 + CharacterWidth.of($0) <= area.width }) else { return }
        buffer.put(note, row: row, column: area.left + area.width - CharacterWidth.of(note), role: .hint)
    }

    /// The transcript's header lines, its result's lines (error, next step) with the rows each takes, and the rows
    /// left for its events: what is drawn and what a page is.
    static func transcriptLayout(_ transcript: TranscriptState, _ area: Panel)
        -> (header: [String], outcome: [(text: String, rows: Int)], rows: Int)
    {
        let s = transcript.record.summary
        // The help bar says what Enter does. The time as the list shows it; a header too long for a line goes on
        // to a second between its parts (it was cut: "… · 26 even…").
        let time = String(s.time.prefix(19)).replacingOccurrences(of: "T", with: " ") + " UTC"
        let count = transcript.record.events.count
        // A user name longer than a line is cut to share the first line with the flow's name (the events name it
        // whole), so that the rest fits the header's three lines: at 60 columns one pushed the status, the time and
        // the count out of the header.
        let user = s.user.map { CharacterWidth.of($0) > area.width - 2 ? CharacterWidth.truncate($0, to: area.width - CharacterWidth.of(s.flow) - 5) : $0 }
        let parts = [s.flow] + (user.map { [$0] } ?? []) + ["\(s.outcome.rawValue) \(s.status)", time, "\(count) events"]
        /// The parts on lines of the width, at most three; `room`: columns the last line keeps free.
        func lines(keeping room: Int) -> [String] {
            var header = [parts[0]]
            for (index, part) in parts.enumerated().dropFirst() {
                // A part with more after it keeps room for the " ·" that ends its line if the next goes on (a time
                // that filled the line exactly was cut to "17:46:4…" by it); the last, room for the note.
                let end = index < parts.count - 1 ? " ·" : String(repeating: " ", count: room)
                if CharacterWidth.of(header[header.count - 1] + " · " + part + end) <= area.width || header.count == 3 {
                    header[header.count - 1] += " · " + part
                } else {
                    header[header.count - 1] += " ·"
                    header.append(part)
                }
            }
            return header
        }
        /// The result's error and next step under `header`, as `history show` prints them, wrapped (up to three
        /// rows each, and never so many that fewer than three events show), and the rows left for events.
        func below(_ header: [String]) -> (outcome: [(text: String, rows: Int)], rows: Int) {
            var top = area.top + header.count
            var outcome: [(text: String, rows: Int)] = []
            for line in transcript.record.outcomeLines + exportLine(transcript, width: area.width) {
                let room = min(3, area.top + area.height - 3 - top)
                guard room > 0 else { break }
                let rows = Wrap.lines(line, width: area.width, atMost: room).count
                outcome.append((line, rows))
                top += rows
            }
            // A row for the columns' header above the events, as the log has.
            return (outcome, max(1, area.top + area.height - top - 1))
        }
        var header = lines(keeping: 0)
        var rest = below(header)
        // Events out of view are said at the end of the header's last line: when some are and the header leaves no
        // room for the note's shortest form, its last part goes on (there was no note at all for a flow whose
        // header filled its line).
        let note = CharacterWidth.of("↑\(count) · ↓\(count)") + 2
        if count > rest.rows, CharacterWidth.of(header[header.count - 1]) + note > area.width {
            header = lines(keeping: note)
            rest = below(header)
        }
        return (header, rest.outcome, rest.rows)
    }

    /// Arrows a past flow's diagram shows at once at a terminal height (its frame, title and lanes take three).
    static func transcriptSequenceRows(_ height: Int) -> Int { max(1, height - 3 - 3) }

    /// A past flow as a sequence diagram, over the main panel and the log: its kind's lanes, an arrow per event.
    static func drawTranscriptSequence(_ buffer: inout ScreenBuffer, _ transcript: TranscriptState) {
        guard transcript.asSequence else { return }
        let s = transcript.record.summary
        // In the log's colours, as the live diagram (every arrow of a past flow was drawn as information, a refused
        // password's too), and titled as it is: "flow 3: Activate device", not the kind's name.
        let arrows = transcript.events.map(SequencePane.Arrow.init)
        let kind = transcript.events.first?.flow
        let lanes = kind?.lanes.map(\.rawValue) ?? ["App"]
        // ↑↓ move the diagram a line: the transcript's position is the first arrow shown.
        let height = buffer.height - 3
        let scroll = max(0, arrows.count - transcriptSequenceRows(buffer.height) - transcript.scroll)
        SequencePane.draw(&buffer, arrows: arrows, lanes: lanes, title: .init(names: ["flow \(s.id)"], what: kind?.title ?? s.flow), wholeKey: "v",
                          scroll: scroll, top: 1, left: 0, width: buffer.width, height: height)
    }

    static func drawTranscriptDetail(_ buffer: inout ScreenBuffer, _ transcript: TranscriptState) {
        guard let scroll = transcript.detail, transcript.record.events.indices.contains(transcript.scroll) else { return }
        let event = transcript.record.events[transcript.scroll]
        drawEventDetail(&buffer, lines: LogPane.detailLines(event, flow: transcript.record.summary.flow, width: buffer.width - 8), scroll: scroll)
    }
}
