import FlowEngine
import Foundation
import LocaleText

/// The pane of flow events, newest at the bottom, scrollable.
enum LogPane {
    /// The columns of the lines shown: as wide as their longest value, within bounds. `width` is the terminal's
    /// (docs/terminal.md: "Terminals 110 columns or wider add the time").
    struct Columns {
        /// Who talks to whom: 9 for the app's own calls; wider for two parties with long names (Q2's).
        var who = 9
        var step: Int
        var thread: Int
        var time: Bool

        init(_ events: some Sequence<FlowEvent>, width: Int) {
            var widest = Widest()
            for event in events { widest.add(event) }
            self.init(widest, width: width)
        }

        init(_ widest: Widest, width: Int) {
            let (steps, threads, whos) = widest.events == 0 ? (8, 8, 9) : (widest.step, widest.thread, widest.who)
            who = min(max(whos, 9), width >= 100 ? 24 : 16)
            // The step column grows with a wide terminal: 28 at 100 columns and one more for every two beyond, up
            // to the longest step (a bridge message's name, 41); a fixed 28 cut them at 160 with room to spare.
            step = min(max(steps, 8), width >= 100 ? min(44, 28 + (width - 100) / 2) : 20)
            // A narrow log drops the thread column first (the detail view has it).
            thread = width < 72 ? 0 : min(max(threads, 6), width >= 100 ? 18 : 12)
            time = width >= 110
            // On a wide terminal the rest of the line (status, took, detail) keeps two fifths of it: the columns
            // fitted to the widest values ever held (a Q2 login's parties, a bridge message's name) left the detail
            // 26 of 118 columns. The step gives way first (to 28), then the time goes (so that 110 columns do not
            // show less than 109), then the step (to 20), who (to 16) and the thread (to 12).
            if width >= 100 {
                let rest = max(36, (width - 2) * 2 / 5)
                var over = (time ? 13 : 0) + who + 1 + step + 1 + (thread > 0 ? thread + 1 : 0) + rest - (width - 2)
                func cut(_ column: WritableKeyPath<Columns, Int>, to floor: Int) {
                    let cut = min(max(0, over), max(0, self[keyPath: column] - floor))
                    self[keyPath: column] -= cut
                    over -= cut
                }
                cut(\.step, to: 28)
                if over > 0 && time {
                    time = false
                    over -= 13
                }
                cut(\.step, to: 20)
                cut(\.who, to: 16)
                cut(\.thread, to: 12)
            }
        }

        init(who: Int, step: Int, thread: Int, time: Bool) {
            self.who = who
            self.step = step
            self.thread = thread
            self.time = time
        }
    }

    /// The widest who, step and thread of a run of events: the live log keeps it as events come, so that its
    /// columns fit every event it holds and do not move as it scrolls from one flow into another.
    struct Widest: Sendable, Equatable {
        var events = 0
        var who = 0
        var step = 0
        var thread = 0
        /// Whether an SDK's request to the IdP or its answer has come (the legend's `⇢ ⇠ IdP` then, not during a
        /// payment or a Q2 flow alone, whose events never have them).
        var identityProvider = false

        mutating func add(_ event: FlowEvent) {
            events += 1
            if event.from == .identityProvider || event.to == .identityProvider { identityProvider = true }
            who = max(who, CharacterWidth.of(LogPane.who(event)))
            step = max(step, CharacterWidth.of(event.step.rawValue))
            thread = max(thread, CharacterWidth.of(event.thread))
        }
    }

    /// Whether a rule naming the flow goes above the event: where the flow changes, and above the first event listed
    /// (a filter's first group, or a session's first flow, was the one without a name).
    /// A log of one row (a result at 60×18) has no room for the first one's: its one event shows.
    static func startsFlow(_ events: [FlowEvent], _ index: Int, rows: Int) -> Bool {
        index == 0 ? rows > 1 : events[index - 1].flowID != events[index].flowID
    }

    /// The scroll a page down or up goes to from `scroll` (events hidden below), as less pages: down, the first event
    /// shown is the one after the last shown (or the last shown again, where a rule would otherwise skip one); up, the
    /// last shown is the one before the first shown. Within the log's ends. A flow's first event on the top line
    /// without its rule is shown again, under it, by the next page either way, so that no flow's name goes by unseen.
    static func page(_ events: [FlowEvent], from scroll: Int, down: Bool, rows: Int) -> Int {
        func cutsARule(_ scroll: Int) -> Bool {
            guard let top = lines(events, scroll: scroll, rows: rows).first else { return false }
            return !top.isRule && startsFlow(events, top.index, rows: rows)
        }
        if down {
            let last = events.count - 1 - scroll
            var to = scroll
            while to > 0, firstShown(events, scroll: to, rows: rows) <= last, firstShown(events, scroll: to - 1, rows: rows) <= last + 1 { to -= 1 }
            // One event back: the last shown again, and the rule under it; not where this page showed that rule.
            guard cutsARule(to), to + 1 < scroll, let top = lines(events, scroll: to, rows: rows).first,
                  !lines(events, scroll: scroll, rows: rows).contains(where: { $0.isRule && $0.index == top.index }) else { return to }
            return to + 1
        }
        let first = firstShown(events, scroll: scroll, rows: rows)
        // The first shown again, under its rule, where the view cut the rule.
        let overlap = cutsARule(scroll) && events.count - 1 - first > scroll ? 1 : 0
        return max(scroll, min(maximumScroll(events, rows: rows), events.count - first - overlap))
    }

    /// The lines `scroll` shows, top to bottom: each event's index, and whether the line is the rule above it.
    static func lines(_ events: [FlowEvent], scroll: Int, rows: Int) -> [(index: Int, isRule: Bool)] {
        var shown: [(index: Int, isRule: Bool)] = []
        var index = events.count - 1 - scroll
        while index >= 0 && shown.count < rows {
            shown.insert((index, false), at: 0)
            if startsFlow(events, index, rows: rows), shown.count < rows { shown.insert((index, true), at: 0) }
            index -= 1
        }
        return shown
    }

    /// How far up the log scrolls: until its first flow's rule is on the top line (a rule takes a line).
    static func maximumScroll(_ events: [FlowEvent], rows: Int) -> Int {
        var lines = 0
        for index in events.indices {
            lines += startsFlow(events, index, rows: rows) ? 2 : 1
            if lines > rows { return events.count - index }
        }
        return 0
    }

    /// The first event shown when `scroll` events are hidden below (a rule above a flow takes a line).
    static func firstShown(_ events: [FlowEvent], scroll: Int, rows: Int) -> Int {
        var index = events.count - 1 - scroll
        var lines = 0
        while index >= 0 {
            lines += 1
            if lines >= rows { return index }
            if startsFlow(events, index, rows: rows) {
                lines += 1
                if lines >= rows { return index }
            }
            index -= 1
        }
        return 0
    }

    /// The scroll that shows `selected`, moved as little as it can from `scroll`: the view moves only when the
    /// selection leaves it, as lazygit's and less's do.
    static func scroll(keeping selected: Int, from scroll: Int, _ events: [FlowEvent], rows: Int) -> Int {
        let limit = maximumScroll(events, rows: rows)
        var scroll = max(0, min(scroll, limit))
        guard events.indices.contains(selected), rows > 0 else { return scroll }
        if selected > events.count - 1 - scroll { return events.count - 1 - selected }
        // The first event selected brings its flow's rule into view too: the top of the log (a filter's first group
        // was never named while its events outgrew the view, nor the first flow while the log had the focus).
        if selected == 0 { return limit }
        while scroll < limit, selected < firstShown(events, scroll: scroll, rows: rows) { scroll += 1 }
        return scroll
    }

    /// The log: a header of its columns, a rule where the flow changes, one line per event, the newest at the
    /// bottom. `scroll` lines are hidden below; with the focus, `selected` is highlighted and kept in view (the
    /// focus's own scroll, moved only as far as that needs).
    static func draw(_ buffer: inout ScreenBuffer, events: [FlowEvent], scroll: Int, top: Int, left: Int, width: Int,
                     height: Int, focus: LogFocusState? = nil, widest: Widest, historyIDs: [Int: Int] = [:], formWaiting: Bool = false,
                     tabReadsIt: Bool = true, vDrawsIt: Bool = true, total: Int? = nil) {
        let rows = max(0, height - 3)
        var scroll = min(scroll, maximumScroll(events, rows: rows))
        if let focus {
            scroll = Self.scroll(keeping: AppState.selectedIndex(focus, in: events), from: focus.scroll, events, rows: rows)
        }
        // Each event, and a rule above it where the flow before was another.
        let shown: [(index: Int?, event: FlowEvent)] = lines(events, scroll: scroll, rows: rows).map { ($0.isRule ? nil : $0.index, events[$0.index]) }
        var title = "SDK events"
        // A log of one row has no room for a flow's rule: the title names the flow of the event shown (paging at 60×18
        // went from one flow into the next with nothing to say so).
        if rows == 1, let event = shown.first?.event { title += " · flow \(event.flowID)" }
        if let focus {
            let keys = "enter keeps it, esc clears it"
            // How many events the filter lists, as a past flow's transcript says it (the live log said nothing).
            let count = focus.filter.isEmpty ? "" : total.map { " · \(events.count) of \($0)" } ?? ""
            if focus.editingFilter {
                // The filter's end and its cursor stay in sight: the count goes first, then the keys, then the filter's
                // start (a long filter hid its own end, so that Ctrl-W seemed to do nothing).
                let room = width - 6 - CharacterWidth.of(title + " — filter: ▏")
                let keysText = " (\(keys))"
                let typed = CharacterWidth.of(focus.filter)
                let filter = typed + CharacterWidth.of(count + keysText) <= room ? focus.filter + "▏" + count + keysText
                    : typed + CharacterWidth.of(keysText) <= room ? focus.filter + "▏" + keysText
                    : typed <= room ? focus.filter + "▏"
                    : "…" + CharacterWidth.suffix(focus.filter, fitting: max(0, room - 1)) + "▏"
                title += " — filter: " + filter
            } else if !focus.filter.isEmpty {
                title += " — filter \"\(focus.filter)\"" + count
            }
            // Before the keys, so that a narrow title cuts the keys, not the note. Those above too, as the history's
            // transcript says them: a filter's "8 of 20" over seven rows said nothing of the eighth.
            let above = shown.lazy.compactMap(\.index).first ?? 0
            if above > 0 { title += " — ↑ \(above) above" }
            if scroll > 0 { title += " — \(scroll) newer below" }
            // While the filter is typed its own keys are in the title above (enter and esc meant other things here).
            // No filter while a form waits (a "/" may be in a password typed here by mistake).
            // Each key whole or not at all, in order (with the note above, "end newe…" was cut mid-word at 80
            // columns); the help bar below has them all.
            if !focus.editingFilter {
                let keys = [" — ↑↓ select", " · enter details"] + (formWaiting ? [] : [" · / filter"]) + [" · end newest", " · esc back"]
                title = appendingWhole(keys, to: title, within: width - 6)
            }
        } else if scroll > 0 {
            title += " — \(scroll) newer below (pgdn)"
        } else {
            // Arrows say which way a message went, seen from the app (`who`): a prompt the SDK sends the app is
            // `← IdpSdk` and the app's reply to it `→ IdpSdk`, so the legend says to and from, not call and answer.
            let identityProvider = widest.events == 0 || widest.identityProvider ? "⇢ ⇠ IdP " : ""
            // Tab reads them where Tab reaches the log (on a form it moves between fields: the hint was a promise
            // the form's Tab did not keep).
            title += " — → to ← from \(identityProvider)⚡ fault"
            // Each key where the title has room for it whole (at 60 columns "tab: read…" was cut mid-word); the
            // diagram's from 80 columns (the home's help bar has it from about 90, and it was found only in the help).
            // A challenge with no code field takes v, not Tab (it moves between its options and buttons).
            let keys = (tabReadsIt ? [" · tab: read them"] : []) + (vDrawsIt ? [" · v: diagram"] : [])
            title = appendingWhole(keys, to: title, within: width - 6)
        }
        Frame.draw(&buffer, top: top, left: left, width: width, height: height, title: CharacterWidth.truncate(title, to: width - 6))
        // The terminal's width (the pane spans it), which the thresholds are written in: the time from 110 columns.
        // The widest values of every event the log holds (`widest`, kept as they come: scanning all 2,000 events
        // took most of a frame), so the columns stay put as the log scrolls from one flow into another.
        let columns = Columns(widest, width: width)
        buffer.put(header(columns, fitting: width - 2), row: top + 1, column: left + 1, role: .label, limit: width - 2)
        if let focus, events.isEmpty, !focus.filter.isEmpty, rows > 0 {
            let widen = focus.editingFilter ? "backspace widens it" : "/ then backspace widens it"
            // Wrapped over the rows the list would take (it was cut mid-word, six empty rows below).
            buffer.putWrapped("No event matches the filter \"\(focus.filter)\": \(widen).", row: top + 2, column: left + 1,
                              width: width - 2, lines: rows, role: .hint)
        }
        let selectedIndex = focus.map { AppState.selectedIndex($0, in: events) }
        for (offset, entry) in shown.enumerated() {
            let row = top + 2 + offset
            guard let eventIndex = entry.index else {
                // Dashes to the border: cut with "…" only when the flow's name is (a rule cut in its dashes read as
                // if something were hidden).
                let label = CharacterWidth.truncate("── \(flowName(entry.event.flowID, historyIDs)): \(entry.event.flow.title) ", to: width - 2)
                let rule = label + String(repeating: "─", count: max(0, width - 2 - CharacterWidth.of(label)))
                buffer.put(rule, row: row, column: left + 1, role: .label, limit: width - 2)
                continue
            }
            let selected = eventIndex == selectedIndex
            let text = CharacterWidth.truncate(line(entry.event, columns: columns), to: width - 2)
            if selected { buffer.fill(row: row, column: left + 1, count: width - 2, role: .menuFocused) }
            buffer.put(text, row: row, column: left + 1, role: selected ? .menuFocused : role(entry.event), limit: width - 2)
        }
    }

    /// "flow 2", and once it is recorded, its id in the history when that is another ("flow 2 · history 57"): the
    /// flows are numbered from 1 in each session, the history's ids go on from the state file's last, and
    /// `idp-tui history show 2` would show another flow.
    static func flowName(_ flowID: Int, _ historyIDs: [Int: Int]) -> String {
        guard let history = historyIDs[flowID], history != flowID else { return "flow \(flowID)" }
        return "flow \(flowID) · history \(history)"
    }

    /// The column names, in `width` columns: the last column's name in shorter words when the full one does not
    /// fit (a wide who column, a Q2 sign-in's, left "status · took · deta" at 60 columns), and cut with "…" only
    /// when even those do not (docs/decisions.md, "The event log and the sequence view").
    static func header(_ columns: Columns, fitting width: Int) -> String {
        var parts: [String] = []
        if columns.time { parts.append(pad("time", 12)) }
        parts.append(pad("who", columns.who))
        parts.append(pad("step", columns.step))
        if columns.thread > 0 { parts.append(pad("thread", columns.thread)) }
        let start = parts.joined(separator: " ") + " "
        for last in ["status · took · detail", "status·took·detail"] where CharacterWidth.of(start + last) <= width {
            return start + last
        }
        return CharacterWidth.truncate(start + "status·took·detail", to: width)
    }

    /// `→ MC-SDK  Start                idp-tui.flow StartEvent` and `← MC-SDK  Start MC-SDK OK 0µs sdkState=…`:
    /// columns for who, what and which thread (cut with … when a value is longer), then status, duration and
    /// detail as they come. Wider terminals add the time.
    /// `spelled` rewrites each part before it is padded (plain mode's ASCII), so that the columns stay aligned.
    static func line(_ event: FlowEvent, columns: Columns, spelled: (String) -> String = { $0 }) -> String {
        var parts: [String] = []
        if columns.time { parts.append(time(event)) }
        parts.append(pad(spelled(who(event)), columns.who))
        parts.append(pad(spelled(event.step.rawValue), columns.step))
        if columns.thread > 0 { parts.append(pad(spelled(event.thread), columns.thread)) }
        if let status = event.status { parts.append(spelled(status)) }
        if let duration = event.duration { parts.append(spelled(format(duration))) }
        parts.append(spelled(event.detail))
        return parts.joined(separator: " ")
    }

    /// Seen from the app (the Safepay Drops SDK counts as the app's side of the bridge): `→ MC-SDK` for a call
    /// out, `← Drops` for what comes back, and `Drops→DS` between two others. An SDK's requests to the IdP are
    /// `⇢ IdP` and its answers `⇠ IdP` (the thread column says which SDK); an injected fault is `⚡ fault`. The
    /// app's cancel is `✕`; anything else the app does within itself (a KSSIDP app collecting the credentials
    /// before it calls the wrapper) is `• App`.
    static func who(_ event: FlowEvent) -> String {
        switch (event.from, event.to) {
        case (.app, .app) where event.step == .cancel: "✕"
        case (.app, .app): "• App"
        // A party's own note (the Drops SDK giving up on a message): "→ Safepay" read as sent to it.
        case (let from, let to) where from == to && from != .simulator: "• \(short(from))"
        // The faults switched on for a flow, at its start: a notice, not a fault that bit. A fault goes to the party
        // it hit (the IdP's: it read "⇢ IdP").
        case (.simulator, _) where event.step == .faultsOn || event.step == .historyNotSaved: "simulator"
        case (.simulator, _): "⚡ fault"
        case (_, .identityProvider): "⇢ IdP"
        case (.identityProvider, _): "⇠ IdP"
        case (.app, let to): "→ \(short(to))"
        case (let from, .app): "← \(short(from))"
        case (.safepayDrops, let to): "→ \(short(to))"
        case (let from, .safepayDrops): "← \(short(from))"
        case (let from, let to): "\(short(from))→\(short(to))"
        }
    }

    private static func short(_ participant: Participant) -> String {
        switch participant {
        case .safepayDrops: "Safepay"
        case .otherDevice: "Phone"
        default: participant.rawValue
        }
    }

    /// `title` with each of `parts` in turn, as long as each fits whole within `room` columns: a key is named whole
    /// or left to the help bar, never cut mid-word.
    private static func appendingWhole(_ parts: [String], to title: String, within room: Int) -> String {
        var title = title
        for part in parts {
            guard CharacterWidth.of(title + part) <= room else { break }
            title += part
        }
        return title
    }

    static func role(_ event: FlowEvent) -> Role {
        if event.flow.isGood(event.status) { return event.step == .cancel ? .logWarn : .logInfo }
        if event.flow.fallsBack(at: event.step) { return .logWarn }
        return switch event.status {
        case "FAULT" where event.step == .faultsOn: .logInfo  // records from before session 29 gave the notice a status
        case EngineStatus.cancelled, "FAULT", EngineStatus.abandoned: .logWarn
        default: .logError
        }
    }

    private static func time(_ event: FlowEvent) -> String {
        let description = event.time.description  // 2030-01-01T00:00:00.000Z
        guard let t = description.firstIndex(of: "T") else { return description }
        return String(description[description.index(after: t)...].prefix(12))
    }

    static func format(_ duration: Duration) -> String {
        let micros = Double(duration.microseconds)
        if micros < 1000 { return String(format: "%.0fµs", micros) }
        if micros < 1_000_000 { return String(format: "%.1fms", micros / 1000) }
        return String(format: "%.2fs", micros / 1_000_000)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        let fitted = CharacterWidth.truncate(text, to: width)
        return fitted + String(repeating: " ", count: max(0, width - CharacterWidth.of(fitted)))
    }
}
