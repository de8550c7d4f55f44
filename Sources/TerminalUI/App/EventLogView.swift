import FlowEngine
import FlowRecords
import JSONText

/// The event log with the focus (Tab from the home, working and result screens): a selected event, a filter,
/// and the detail view of one event whole.
public struct LogFocusState: Sendable, Equatable {
    /// The selected event's sequence number (it stays on that event as new ones come); nil follows the newest.
    public var selected: Int?
    /// Only events whose text contains this (any case) are listed.
    public var filter = ""
    /// The most characters a filter (the log's, the card picker's) takes, and what a key past them says.
    static let filterLimit = 40
    static let filterFull = "the filter takes at most \(filterLimit) characters"
    /// What typing and a paste meant for the screen behind say while the log has the keys (short enough for a
    /// 60-column status line with a fault on); they go when that screen's prompt does.
    static let notTyped = "not typed: esc gives the keys back"
    /// A "/" while a form waits: no filter opens, as the "/" may be in a password typed here by mistake (the filter
    /// would show what follows it in clear).
    static let notTypedSlash = "not typed: no filter while a form waits"
    static let pasteIgnored = "paste ignored: esc gives the keys back"
    /// A form came while the filter was typed: the filter stops, and the log keeps the keys until Esc.
    static let formCame = "a form came: esc gives it the keys"
    /// `/` was pressed: keys type into the filter until Enter or Esc.
    public var editingFilter = false
    /// The detail view of the selected event is open, scrolled this far.
    public var detail: Int?
    /// Events hidden below the view (as ``AppState/logScroll``): it moves only when the selection leaves the view.
    public var scroll = 0
    /// The log was the sequence diagram when it took the focus (which lists the events): leaving, it is again.
    public var fromDiagram = false
    /// `z`: the log takes the main panel's rows too, as lazygit's `+` and tmux's zoom do (a result's log at 60×18 is
    /// one row); the panel keeps its frame and title. Leaving the log ends it.
    public var zoomed = false

    public init(selected: Int? = nil, scroll: Int = 0, fromDiagram: Bool = false, zoomed: Bool = false) {
        self.selected = selected
        self.scroll = scroll
        self.fromDiagram = fromDiagram
        self.zoomed = zoomed
    }
}

extension LogFocusState {
    /// A key typed into a filter being typed (the log's, a past flow's transcript's): Enter keeps it; Esc clears it,
    /// as in the card picker (it kept it too, and only backspacing one character at a time cleared a filter); a
    /// character is added up to the limit; the editing keys delete from its end. Returns what to say: a key past
    /// the limit is said, not dropped silently.
    static func edit(_ filter: inout String, editing: inout Bool, with key: Key) -> String? {
        switch key {
        case .enter: editing = false
        case .escape:
            editing = false
            filter = ""
        case .character(let character) where filter.count < filterLimit: filter.append(character)
        case .character: return filterFull
        default: _ = TextInput.deleteAtEnd(of: &filter, key)
        }
        return nil
    }
}

extension AppState {
    /// The events the log lists: all of them, or those the filter matches.
    public var listedEvents: [FlowEvent] {
        guard let filter = logFocus?.filter, !filter.isEmpty else { return log }
        return log.filter { LogPane.matches($0, filter) }
    }

    /// Where the selected event is among `events` (the newest when none is selected, or it has gone).
    static func selectedIndex(_ focus: LogFocusState, in events: [FlowEvent]) -> Int {
        focus.selected.flatMap { sequence in events.firstIndex { $0.sequence == sequence } } ?? (events.count - 1)
    }
}

extension TerminalApp {
    /// Screens from which Tab moves into the log (elsewhere Tab moves between fields and buttons).
    var logTakesTab: Bool { state.logTakesTab }

    /// The terminal's new size; what scrolls stays within what the new size shows.
    public func resize(width: Int, height: Int) {
        state.width = width
        state.height = height
        // A scroll past the end of what the new size shows is brought back to it: grown, a diagram scrolled to
        // its end stayed past the new end, and the first keys that way did nothing.
        if state.logFocus == nil, !state.isTooSmall { scrollLog(by: 0) }
        if case .transcript(var transcript, let history) = state.screen, transcript.asSequence {
            // A diagram not moved since it opened is still unmoved: `v` then goes back to the list's selection.
            let unmoved = transcript.beforeSequence?.diagram == transcript.scroll
            transcript.scroll = min(transcript.scroll, lastScroll(transcript))
            if unmoved { transcript.beforeSequence?.diagram = transcript.scroll }
            state.screen = .transcript(transcript, returnTo: history)
        }
    }

    /// A page of the unfocused log, as the focused log pages it (less's): the list's next rows, none skipped unseen;
    /// the diagram's next arrows, as many as it shows. It was at most 5 lines: a third of a 16-row log.
    func pageLog(down: Bool) {
        let rows = AppView.logRows(state)
        guard !state.logAsSequence else {
            scrollLog(by: (down ? -1 : 1) * max(1, rows))
            return
        }
        let from = min(state.logScroll, LogPane.maximumScroll(state.log, rows: rows))
        scrollLog(by: LogPane.page(state.log, from: from, down: down, rows: rows) - state.logScroll)
    }

    /// Moves the log `lines` up (down when negative), no further than its first event at the top.
    func scrollLog(by lines: Int) {
        // The diagram draws the newest flow's arrows only: its limit is theirs (the list's, over every event, let
        // PgUp run on past the diagram's top, and PgDn then seemed to do nothing for as many presses).
        let newest = state.log.last?.flowID
        let limit = state.logAsSequence && state.logFocus == nil
            ? max(0, state.log.reversed().prefix { $0.flowID == newest }.count - AppView.logRows(state))
            : LogPane.maximumScroll(state.log, rows: AppView.logRows(state))
        state.logScroll = max(0, min(state.logScroll + lines, limit))
    }

    /// The focus leaves the log (Esc, Tab, a prompt that takes the keys): the log stays where the selection left it,
    /// as less does, and follows again from the newest event (End); a filter is dropped, and the log shows every
    /// event again from the newest.
    func leaveLogFocus(_ focus: LogFocusState) {
        state.logFocus = nil
        // With a filter on, the event it found stays in view among all the events, in the middle of the view (the log
        // went back to the newest and the place was lost); its view's scroll was the filtered list's.
        let current = AppState.selectedIndex(focus, in: state.log), rows = AppView.logRows(state)
        state.logScroll = LogPane.scroll(keeping: current, from: focus.filter.isEmpty ? focus.scroll : max(0, state.log.count - 1 - current - rows / 2),
                                         state.log, rows: rows)
        // The diagram it was (F6 over a form, or Tab, to read an event whole, left the list for good, and on a form no
        // key brought the diagram back), at the arrow of the event selected where it is one of the newest flow's.
        if focus.fromDiagram {
            let newest = state.log.last?.flowID
            state.logScroll = state.log.indices.contains(current) && state.log[current].flowID == newest ? state.log.count - 1 - current : 0
            showDiagram()
            // Zoomed as the log was (Tab from the zoomed diagram, Esc back).
            state.diagramZoomed = focus.zoomed
            scrollLog(by: 0)
        }
    }

    func handleLogFocus(_ key: Key, _ focus: inout LogFocusState) {
        let events = state.listedEvents
        let last = events.count - 1
        if focus.editingFilter {
            let filtered = !focus.filter.isEmpty
            // No filter is typed while a form waits: one being typed stops when a form comes.
            if let notice = LogFocusState.edit(&focus.filter, editing: &focus.editingFilter, with: key) { state.notice = notice }
            // ↑↓ move the selection while the filter is typed, as gum's filter and fzf do.
            if key == .up || key == .down {
                let listed = state.listedEvents
                let index = AppState.selectedIndex(focus, in: listed) + (key == .up ? -1 : 1)
                focus.selected = index >= listed.count - 1 || listed.isEmpty ? nil : listed[max(0, index)].sequence
            }
            // The selected event stays selected while the filter still lists it, and in view: clearing a filter
            // shows the event found with it among its neighbours, in the middle of the view (it jumped to the newest,
            // as less's `&` does not; then it stayed on the top row, with nothing older in view).
            state.logFocus = focus
            let listed = state.listedEvents
            if let selected = focus.selected, !listed.contains(where: { $0.sequence == selected }) { focus.selected = nil }
            let index = AppState.selectedIndex(focus, in: listed), rows = AppView.logRows(state)
            let cleared = filtered && focus.filter.isEmpty && focus.selected != nil
            focus.scroll = LogPane.scroll(keeping: index, from: cleared ? max(0, listed.count - 1 - index - rows / 2) : 0, listed, rows: rows)
            state.logFocus = focus
            return
        }
        if let scroll = focus.detail {
            let index = AppState.selectedIndex(focus, in: events)
            let selected = events.indices.contains(index) ? index : last
            let lines = last >= 0 ? LogPane.detailLines(events[selected], width: state.width - 8, historyIDs: state.historyIDs).count : 0
            focus.detail = AppView.detailScroll(key, from: scroll, lines: lines, screenHeight: state.height)
            // A form came while the event was shown: closing it hands the form the keys.
            if focus.detail == nil && state.isAsking { leaveLogFocus(focus); return }
            state.logFocus = focus
            return
        }
        let current = AppState.selectedIndex(focus, in: events)
        // A move to an index: the newest follows (nil), any other keeps that event's sequence.
        func select(_ index: Int) {
            focus.selected = index >= last || events.isEmpty ? nil : events[max(0, index)].sequence
        }
        switch key {
        case .escape, .tab, .backTab, .f6:
            leaveLogFocus(focus)
            return
        case .up, .character("k"): select(current - 1)
        case .down, .character("j"): select(current + 1)
        // A page shows the next rows, none skipped unseen (10 events skipped three where seven show), and the selection
        // keeps its row, as in less, lazygit and k9s; at either end it goes to the end (it moved the view only as far as
        // the selection left it: Home, then PgDn, moved the log two rows).
        case .pageUp, .pageDown:
            let rows = AppView.logRows(state)
            let from = LogPane.scroll(keeping: current, from: focus.scroll, events, rows: rows)
            let to = LogPane.page(events, from: from, down: key == .pageDown, rows: rows)
            let lines = LogPane.lines(events, scroll: to, rows: rows)
            guard to != from, !lines.isEmpty else {
                select(key == .pageDown ? last : 0)
                break
            }
            // The event on the selection's row, or under it where the row is a rule.
            let row = LogPane.lines(events, scroll: from, rows: rows).firstIndex { $0.index == current && !$0.isRule } ?? 0
            var index = lines[min(row, lines.count - 1)].index
            // The first event selected brings the log's top, its rule, into view: not where this page shows it without.
            if index == 0 && to < LogPane.maximumScroll(events, rows: rows) { index = min(1, last) }
            focus.scroll = to
            select(index)
        case .home: select(0)
        // End follows the newest event again.
        case .end: focus.selected = nil
        case .enter where last >= 0:
            // The event shown stays the one opened: following the newest, it was swapped for each new event.
            focus.selected = events[max(0, current)].sequence
            focus.detail = 0
        // Not while a form waits behind (F6 from it): a "z" in a password typed here by mistake hid the form.
        case .character("z") where !state.isAsking: focus.zoomed.toggle()
        case .character("v") where state.logTakesV:
            // The diagram, as v shows it from the screen: the focus (and a filter, which the diagram does not take)
            // goes with it (v did nothing here).
            leaveLogFocus(focus)
            showDiagram()
            state.diagramZoomed = focus.zoomed
            state.logScroll = 0
            return
        case .character("/") where state.isAsking:
            // A form waits behind (F6 took its keys): a "/" in a password typed here by mistake opened the filter, which
            // then showed the rest of the password in clear. Holding one and opening at the second did the same for a
            // password with "//" in it: no filter opens while a form waits (one kept from before stays).
            state.notice = LogFocusState.notTypedSlash
        case .character("/"):
            // A kept filter opens again at its end, to be refined (it was thrown away, as lazygit and gum do not).
            focus.editingFilter = true
        // Typing meant for the form behind (F6 took the keys from it) is said, not dropped without a word.
        case .character where state.isAsking: state.notice = LogFocusState.notTyped
        default: break
        }
        // The view follows the selection only when it leaves the view.
        focus.scroll = LogPane.scroll(keeping: AppState.selectedIndex(focus, in: events), from: focus.scroll, events,
                                      rows: AppView.logRows(state))
        state.logFocus = focus
    }
}


extension LogPane {
    static func matches(_ event: FlowEvent, _ filter: String) -> Bool {
        [who(event), event.step.rawValue, event.thread, event.status ?? "", event.detail, event.from.rawValue, event.to.rawValue]
            .joined(separator: " ").holds(filter)
    }

    /// Every field of one event, for the detail view: the whole detail, and the whole protocol message pretty-printed.
    static func detailLines(_ event: FlowEvent, width: Int, historyIDs: [Int: Int] = [:]) -> [String] {
        detailLines(
            // The session's count of events, not the flow's: a transcript numbers its flow's events from 1 ("event 54"
            // here was "34." there).
            flow: "\(event.flow.rawValue) (\(flowName(event.flowID, historyIDs)), session event \(event.sequence))", from: event.from.rawValue, to: event.to.rawValue,
            step: event.step.rawValue, thread: event.thread + (event.mainThread ? " (the main thread)" : ""), time: event.time.description,
            took: event.duration.map(format), status: event.status, detail: event.detail, message: event.message, width: width)
    }

    /// The same for an event kept in the history.
    static func detailLines(_ event: RecordedEvent, flow: String, width: Int) -> [String] {
        detailLines(
            flow: "\(flow) (event \(event.sequence))", from: event.from, to: event.to, step: event.step, thread: event.thread,
            time: event.time, took: event.duration.map { format(.microseconds($0)) }, status: event.status, detail: event.detail,
            message: event.message, width: width)
    }

    private static func detailLines(
        flow: String, from: String, to: String, step: String, thread: String, time: String, took: String?, status: String?,
        detail: String, message: String?, width: Int
    ) -> [String] {
        // Each field wrapped under its value (a long one was cut at the frame with no "…": "(flow 12 · history 45, event 18").
        var lines: [String] = []
        func field(_ label: String, _ value: String) {
            // An empty value keeps its label (Wrap gives no line for it).
            for (index, part) in (value.isEmpty ? [""] : Wrap.lines(value, width: max(10, width - 10))).enumerated() {
                lines.append((index == 0 ? label.padding(toLength: 10, withPad: " ", startingAt: 0) : String(repeating: " ", count: 10)) + part)
            }
        }
        field("flow", flow)
        // A fault is no message: the simulator struck the call of the party named ("simulator → App" read as one
        // the app got; a record from before session 52 names the App).
        if step == FlowStep.fault.rawValue { field("fault on", to) } else { field("from → to", "\(from) → \(to)") }
        field("step", step)
        field("thread", thread)
        field("time", time)
        if let took { field("took", took) }
        if let status { field("status", status) }
        lines.append("detail")
        // A bridge message's body is its detail: JSON, pretty-printed as a protocol message is.
        lines += prettyLines(detail, width: width, onlyJSON: true)
        if let message {
            lines.append("message")
            lines += prettyLines(message, width: width, onlyJSON: false)
        }
        return lines
    }

    /// `text` pretty-printed when it is a JSON object or array, each line wrapped at `width` with its indentation
    /// kept (a wrapped line goes two further in); other text wrapped as it is.
    private static func prettyLines(_ text: String, width: Int, onlyJSON: Bool) -> [String] {
        let json = text.first == "{" || text.first == "[" || !onlyJSON
        let pretty = json ? (try? JSONParser.parse(text))?.text(pretty: true) ?? text : text
        var lines: [String] = []
        for line in pretty.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            let wrapped = Wrap.lines(String(line.dropFirst(indent)), width: max(10, width - 4 - indent))
            for (index, part) in wrapped.enumerated() {
                lines.append(String(repeating: " ", count: 2 + indent + (index == 0 ? 0 : 2)) + part)
            }
        }
        return lines
    }
}

extension AppView {
    /// The log pane from `top` down to the status line, as a list or as a sequence diagram; nothing when the main
    /// panel has taken its rows (the KSSIDP comparison).
    static func drawLog(_ buffer: inout ScreenBuffer, _ state: AppState, top: Int) {
        let height = state.height - 2 - top
        guard height > 0 else { return }
        if state.logAsSequence && state.logFocus == nil {
            SequencePane.draw(&buffer, events: state.log, scroll: state.logScroll, top: top, left: 0, width: state.width, height: height,
                              historyIDs: state.historyIDs, tabListsEvents: state.logTakesTab,
                              listKey: state.logTakesV ? "v" : "F6", hints: state.log.last.flatMap { state.laneHints[$0.flow.rawValue] } ?? [])
        } else {
            LogPane.draw(&buffer, events: state.listedEvents, scroll: state.logScroll, top: top, left: 0, width: state.width,
                         height: height, focus: state.logFocus, widest: state.logWidest, historyIDs: state.historyIDs,
                         formWaiting: state.isAsking, tabReadsIt: state.logTakesTab, vDrawsIt: state.logTakesV,
                         total: state.log.count)
        }
    }

    static func drawEventDetail(_ buffer: inout ScreenBuffer, _ event: FlowEvent, scroll: Int, historyIDs: [Int: Int] = [:],
                                formWaiting: Bool = false) {
        drawEventDetail(&buffer, lines: LogPane.detailLines(event, width: buffer.width - 8, historyIDs: historyIDs), scroll: scroll,
                        closes: formWaiting ? "esc closes, a form waits" : "esc closes")
    }

    /// The detail view's first line after `key` (nil: closed), between its first line and its last page: it went
    /// on past the end, and ↑ then did nothing for as many presses. A page is the rows shown.
    static func detailScroll(_ key: Key, from scroll: Int, lines: Int, screenHeight: Int) -> Int? {
        // The overlay's rows less its frame and the blank row under its title, as drawEventDetail lays them out.
        let rows = max(1, Frame.overlayHeight(screen: screenHeight) - 3)
        let last = max(0, lines - rows)
        let scroll = min(scroll, last)
        switch key {
        case .escape, .enter, .character("q"): return nil
        case .down, .character("j"): return min(last, scroll + 1)
        case .up, .character("k"): return max(0, scroll - 1)
        case .pageDown: return min(last, scroll + rows)
        case .pageUp: return max(0, scroll - rows)
        case .home: return 0
        case .end: return last
        default: return scroll
        }
    }

    static func drawEventDetail(_ buffer: inout ScreenBuffer, lines: [String], scroll: Int, closes: String = "esc closes") {
        let width = buffer.width - 4
        let height = Frame.overlayHeight(screen: buffer.height)
        let top = 1
        let left = 2
        let rows = height - 3
        let first = min(scroll, max(0, lines.count - rows))
        let more = lines.count > rows ? " (\(first + 1)–\(min(lines.count, first + rows)) of \(lines.count) lines, ↑↓ scroll)" : ""
        Frame.drawOverlay(&buffer, top: top, left: left, width: width, height: height, title: "Event — \(closes)" + more)
        // A field's first line starts with its label (10 columns, ``detailLines``), as do the "detail" and "message"
        // headings; its other lines, and the message's, start with spaces. Only labels take the label's colour (the
        // first five lines did, wrapped values too, and "took", "status" and "detail" did not).
        for (offset, line) in lines.dropFirst(first).prefix(rows).enumerated() {
            let row = top + 2 + offset
            let label = line.first == " " ? "" : String(line.prefix(10))
            buffer.put(label, row: row, column: left + 2, role: .label, limit: width - 4)
            buffer.put(String(line.dropFirst(label.count)), row: row, column: left + 2 + label.count, role: .text,
                       limit: width - 4 - label.count)
        }
        buffer.cursor = nil
    }
}
