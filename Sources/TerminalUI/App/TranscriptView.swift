import FlowEngine
import FlowRecords
import LocaleText

extension TranscriptState {
    /// The indices of the events the filter lists (every one without a filter), in order.
    var listed: [Int] {
        guard !filter.isEmpty else { return Array(events.indices) }
        return events.indices.filter { LogPane.matches(events[$0], filter) }
    }

    /// The selection's place among `listed`: the listed event at or after it, else the last.
    func position(in listed: [Int]) -> Int {
        listed.firstIndex { $0 >= scroll } ?? max(0, listed.count - 1)
    }
}

extension TerminalApp {
    /// The furthest the transcript moves: its last event selected, or, as a diagram, its last arrow on the last
    /// line (the diagram's first shown arrow is the position).
    func lastScroll(_ transcript: TranscriptState) -> Int {
        let count = transcript.record.events.count
        return transcript.asSequence ? max(0, count - AppView.transcriptSequenceRows(state.height)) : max(0, count - 1)
    }

    private func transcriptPage(_ transcript: TranscriptState) -> Int {
        if transcript.asSequence { return AppView.transcriptSequenceRows(state.height) }
        return AppView.transcriptLayout(transcript, AppView.innerPanel(state)).rows
    }

    /// A past flow's events take the event log's keys: ↑↓ (j k), pages, Home and End, Enter for the event whole, `/`
    /// to filter (the first Esc clears a filter, the next goes back), `v` for the diagram.
    func handleTranscript(_ key: Key, _ transcript: inout TranscriptState, returnTo history: HistoryState) {
        if let scroll = transcript.detail {
            let events = transcript.record.events
            let lines = events.indices.contains(transcript.scroll)
                ? LogPane.detailLines(events[transcript.scroll], flow: transcript.record.summary.flow, width: state.width - 8).count : 0
            transcript.detail = AppView.detailScroll(key, from: scroll, lines: lines, screenHeight: state.height)
            state.screen = .transcript(transcript, returnTo: history)
            return
        }
        /// Moves the selection `steps` among the events listed.
        func move(_ steps: Int) {
            let listed = transcript.listed
            guard !listed.isEmpty else { return }
            transcript.scroll = listed[max(0, min(listed.count - 1, transcript.position(in: listed) + steps))]
        }
        // As the history list's: the list moves only to keep the selection shown; a filter that no longer lists
        // the selection moves it to the next event it lists.
        func keepInView() {
            guard !transcript.asSequence else { return }
            let listed = transcript.listed
            if !listed.isEmpty && !listed.contains(transcript.scroll) { transcript.scroll = listed[transcript.position(in: listed)] }
            transcript.first = ListWindow.first(kept: transcript.first, focus: transcript.position(in: listed),
                                                rows: transcriptPage(transcript), count: listed.count)
        }
        keepInView()
        // While the filter is typed, keys edit it; the arrows and page keys move the selection as they do with the
        // filter kept (only ↑↓ did).
        if transcript.editingFilter && ![.up, .down, .pageUp, .pageDown, .home, .end].contains(key) {
            if let notice = LogFocusState.edit(&transcript.filter, editing: &transcript.editingFilter, with: key) { state.notice = notice }
            keepInView()
            state.screen = .transcript(transcript, returnTo: history)
            return
        }
        let page = transcriptPage(transcript)
        switch key {
        case .escape where transcript.asSequence:
            // Back to the transcript the diagram was opened from (it went to the history list, a step too far).
            transcript.asSequence = false
            transcript.scroll = min(transcript.scroll, lastScroll(transcript))
        // The first Esc clears a filter, the next goes back, as the card picker's.
        case .escape where !transcript.filter.isEmpty: transcript.filter = ""
        case .escape, .character("q"):
            // The list read again (another process may have run, pruned or reset meanwhile: it showed the count from
            // when it opened), the selection kept on the flow just read, or as near as the list now allows.
            openHistory()
            if case .history(var fresh) = state.screen {
                // The list's filter kept, as its selection is.
                fresh.filter = history.filter
                let id = transcript.record.summary.id
                fresh.selection = fresh.entries.firstIndex { $0.id == id } ?? min(history.selection, max(0, fresh.entries.count - 1))
                state.screen = .history(fresh)
            }
            return
        case .character("v"):
            transcript.asSequence.toggle()
            if transcript.asSequence {
                let selection = transcript.scroll
                transcript.scroll = min(transcript.scroll, lastScroll(transcript))
                transcript.beforeSequence = TranscriptState.BeforeSequence(selection: selection, diagram: transcript.scroll)
            } else if let before = transcript.beforeSequence, before.diagram == transcript.scroll {
                transcript.scroll = before.selection
            }
        case .character("/") where !transcript.asSequence: transcript.editingFilter = true
        case .enter where !transcript.asSequence && transcript.listed.contains(transcript.scroll): transcript.detail = 0
        // The diagram moves a line at a time, from its first arrow; the list, from event to listed event.
        case .up, .character("k"):
            if transcript.asSequence { transcript.scroll = max(0, transcript.scroll - 1) } else { move(-1) }
        case .down, .character("j"):
            if transcript.asSequence { transcript.scroll = min(lastScroll(transcript), transcript.scroll + 1) } else { move(1) }
        // A page is the events shown (10 skipped three unseen where seven show); the diagram's, its arrows.
        case .pageUp where transcript.asSequence: transcript.scroll = max(0, transcript.scroll - page)
        case .pageDown where transcript.asSequence: transcript.scroll = min(lastScroll(transcript), transcript.scroll + page)
        // A page of events either way, as the live log's PgUp and PgDn move its selection (PgDn went to the bottom of
        // the next page, and Home, PgDn, PgUp did not come back to the start).
        case .pageUp: move(-page)
        case .pageDown: move(page)
        case .home where transcript.asSequence: transcript.scroll = 0
        case .end where transcript.asSequence: transcript.scroll = lastScroll(transcript)
        case .home: move(-transcript.events.count)
        case .end: move(transcript.events.count)
        default: break
        }
        keepInView()
        state.screen = .transcript(transcript, returnTo: history)
    }
}

extension AppView {
    /// A past flow's events as the event log lists them: its columns and their header, one line each (cut with …),
    /// the selected one highlighted (Enter shows it whole); the filter beside the header while there is one.
    static func drawTranscript(_ buffer: inout ScreenBuffer, _ transcript: TranscriptState, _ area: Panel, focused: Bool = true) {
        let layout = transcriptLayout(transcript, area)
        for (index, line) in layout.header.enumerated() {
            buffer.put(CharacterWidth.truncate(line, to: area.width), row: area.top + index, column: area.left, role: .title, limit: area.width)
        }
        var top = area.top + layout.header.count
        for line in layout.outcome {
            top += buffer.putWrapped(line.text, row: top, column: area.left, width: area.width, lines: line.rows, role: .hint)
        }
        let listed = transcript.listed
        let rows = layout.rows
        let first = ListWindow.first(kept: transcript.first, focus: transcript.position(in: listed), rows: rows, count: listed.count)
        // Events that do not fit: said at the end of the header's last line, as the history list says its flows (the
        // transcript said nothing of them).
        if let last = layout.header.last {
            putHiddenNote(&buffer, above: first, below: max(0, listed.count - first - rows), after: last,
                          row: area.top + layout.header.count - 1, area: area)
        }
        // The log's columns for the terminal's width, fitted to this flow's events.
        let columns = LogPane.Columns(transcript.events, width: buffer.width)
        // The filter at the header's end, the header cut to leave it room (the filter wrote over the header's end).
        var filter = ""
        if transcript.editingFilter || !transcript.filter.isEmpty {
            // Its end, the cursor and the count stay in sight: a long filter is cut at its start (it kept its start,
            // and the cursor and the count went).
            let count = " · \(listed.count) of \(transcript.events.count)"
            let typed = transcript.filter + (transcript.editingFilter ? "▏" : "")
            let room = max(4, area.width / 2 - CharacterWidth.of(count) - 1)
            filter = "/" + (CharacterWidth.of(typed) > room ? "…" + CharacterWidth.suffix(typed, fitting: room - 1) : typed) + count
        }
        let room = area.width - (filter.isEmpty ? 0 : CharacterWidth.of(filter) + 2)
        buffer.put(CharacterWidth.truncate(LogPane.header(columns, fitting: room), to: room), row: top, column: area.left, role: .label, limit: room)
        if !filter.isEmpty {
            buffer.put(filter, row: top, column: area.left + area.width - CharacterWidth.of(filter), role: .hint, limit: area.width)
        }
        top += 1
        if listed.isEmpty, !transcript.filter.isEmpty {
            buffer.put(CharacterWidth.truncate("no event matches the filter (esc clears it)", to: area.width), row: top, column: area.left,
                       role: .hint, limit: area.width)
        }
        for (offset, index) in listed.dropFirst(first).prefix(rows).enumerated() {
            let event = transcript.events[index]
            let selected = index == transcript.scroll
            buffer.targets.append(ClickTarget(row: top + offset, column: area.left, width: area.width, stop: index))
            if selected && focused { buffer.fill(row: top + offset, column: area.left, count: area.width, role: .menuFocused) }
            buffer.put(CharacterWidth.truncate(LogPane.line(event, columns: columns), to: area.width), row: top + offset, column: area.left,
                       role: selected ? (focused ? .menuFocused : .title) : LogPane.role(event), limit: area.width)
        }
    }
}
