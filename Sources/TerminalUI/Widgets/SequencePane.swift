import FlowEngine
import FlowRecords
import LocaleText

/// The event log as a sequence diagram: one lane per party of the newest flow (its kind's lanes first), an arrow
/// per event from the lane that sent it to the lane that received it, labelled with the step; the newest at the
/// bottom, as the log scrolls. What the Mermaid export draws, in the terminal.
enum SequencePane {
    /// One arrow: who sent it, who received it, its label, its colour.
    struct Arrow {
        let from: String
        let to: String
        let label: String
        let role: Role
        /// A fault: drawn as a mark, not an arrow.
        let isFault: Bool
        /// The simulator's notice, not a fault that bit (the faults switched on at a flow's start, a history record
        /// not saved): a plain mark, not ⚡.
        var isNotice = false

        /// An event's arrow, in the log's colour for it: a live flow's and a past one's alike. A fault's mark says what
        /// struck ("⚡ added latency: +800 ms on this round trip"), and a notice what it is ("● faults on: added latency
        /// +800 ms", "● this flow was not saved to the history: …"): the ⚡ says it is a fault ("fault injected FAULT ⚡" said so twice,
        /// and nothing of which).
        init(_ event: FlowEvent) {
            let isFault = event.from == .simulator, isNotice = event.step == .faultsOn || event.step == .historyNotSaved
            let step = RecordedEvent.arrowLabel(step: event.step.rawValue, status: event.status, separator: " ")
            // A record not saved says so in its detail ("this flow was not saved to the history: …").
            let label = !isFault || event.detail.isEmpty ? step : event.step == .faultsOn ? "faults on: \(event.detail)" : event.detail
            self.init(from: event.from.rawValue, to: event.to.rawValue, label: VisibleText.escaped(label),
                      role: LogPane.role(event), isFault: isFault, isNotice: isNotice)
        }

        init(from: String, to: String, label: String, role: Role, isFault: Bool, isNotice: Bool = false) {
            (self.from, self.to, self.label, self.role, self.isFault, self.isNotice) = (from, to, label, role, isFault, isNotice)
        }
    }

    /// `tabListsEvents`: whether Tab gives the log the focus now (not while a form, whose fields Tab moves between,
    /// or another screen has the keys): a cut label's hint names it, else F6, which does from any screen. `listKey`: the key that shows the
    /// list now (`v`; F6 on a form, where v is typed), which the title names. `hints`: arrows of past flows of the
    /// newest flow's kind, not drawn, whose labels the lanes are spaced for too.
    static func draw(_ buffer: inout ScreenBuffer, events: [FlowEvent], scroll: Int, top: Int, left: Int, width: Int, height: Int,
                     historyIDs: [Int: Int] = [:], tabListsEvents: Bool = true, listKey: String? = "v", hints: [Arrow] = []) {
        guard let newest = events.last else {
            Frame.draw(&buffer, top: top, left: left, width: width, height: height,
                       title: "SDK events — sequence" + (listKey.map { " (\($0): the list)" } ?? ""))
            // An empty box said nothing about what would appear in it.
            if height > 2 {
                buffer.put("No flow yet: run one, and its calls are drawn here.",
                           row: top + 1, column: left + 2, role: .hint, limit: width - 4)
            }
            return
        }
        // The newest flow's events: one diagram per flow. Its lanes are also spaced for the labels that earlier
        // flows of its kind drew, in this session and in the history (`hints`, gathered once per flow, not at each
        // frame), so that they stay put while it runs (each longer label re-spaced them: IdpSdk's lane moved six
        // columns when an activation's prompt was answered).
        let arrows = events.filter { $0.flowID == newest.flowID }.map(Arrow.init)
        draw(&buffer, arrows: arrows, lanes: newest.flow.lanes.map(\.rawValue),
             title: Title(names: [LogPane.flowName(newest.flowID, historyIDs), "flow \(newest.flowID)"], what: newest.flow.title), wholeKey: tabListsEvents ? "tab" : "F6", listKey: listKey, scroll: scroll,
             top: top, left: left, width: width, height: height, spacedAlsoFor: hints)
    }

    /// The longest label each pair of parties drew in `events` (faults aside): all that spacing lanes needs.
    static func longestLabels(_ events: [FlowEvent]) -> [Arrow] {
        longest(events.filter { $0.from != .simulator }.map(Arrow.init))
    }

    /// The longest of `arrows`' labels for each pair of parties.
    static func longest(_ arrows: [Arrow]) -> [Arrow] {
        var longest: [String: Arrow] = [:]
        for drawn in arrows where !drawn.isFault {
            let pair = drawn.from + "\u{0}" + drawn.to
            if CharacterWidth.of(drawn.label) > longest[pair].map({ CharacterWidth.of($0.label) }) ?? -1 { longest[pair] = drawn }
        }
        return longest.keys.sorted().compactMap { longest[$0] }
    }

    /// A diagram's title: "Sequence — flow 3 · history 17: Pay with card (3-D Secure)". Short of room, the flow's
    /// name stays and what it is gives way: cut, then left out, then the name's shorter forms (`names`, longest
    /// first), so the flow's number is the last thing to go (it went first, cut from the end).
    struct Title {
        let names: [String]
        let what: String

        var whole: String { "Sequence — \(names[0]): \(what)" }

        func fitting(_ room: Int) -> String {
            if CharacterWidth.of(whole) <= room { return whole }
            let named = "Sequence — \(names[0]): "
            // A few letters of what it is say something ("Pay wi…"); fewer do not.
            if room - CharacterWidth.of(named) >= 8 { return named + CharacterWidth.truncate(what, to: room - CharacterWidth.of(named)) }
            for name in names {
                for form in ["Sequence — \(name)", name] where CharacterWidth.of(form) <= room { return form }
            }
            return CharacterWidth.truncate(names.last ?? "", to: room)
        }
    }

    /// The diagram of `arrows`: `lanes` first, then any other party in the order it appears. The title is followed
    /// by v's hint and how many arrows are above and below, when any are. `wholeKey` is the key that lists the events whole.
    /// `spacedAlsoFor`: arrows not drawn whose labels the lanes are spaced for too.
    static func draw(_ buffer: inout ScreenBuffer, arrows: [Arrow], lanes given: [String], title: Title, wholeKey: String?, listKey: String? = "v", scroll: Int,
                     top: Int, left: Int, width: Int, height: Int, spacedAlsoFor earlier: [Arrow] = []) {
        let rows = max(0, height - 3)
        let scroll = min(scroll, max(0, arrows.count - rows))
        // It may be drawn over another view (a past flow's, over its transcript): what is beneath goes first.
        buffer.fill(top: top, left: left, width: width, height: height, role: .text)
        // The scroll note is kept whole, and the key's hint whole or shorter ("v: the l…" was cut mid-word): the
        // flow's name gives way to them.
        // Arrows hidden either way: above too (a past flow's diagram opened at its fifth arrow said nothing of four).
        let above = max(0, arrows.count - rows - scroll)
        let note = [above > 0 ? "\(above) above" : nil, scroll > 0 ? "\(scroll) newer below" : nil].compactMap { $0 }.map { " · " + $0 }.joined()
        let room = max(1, width - 6 - CharacterWidth.of(note))
        // Only a key that shows the list now: "v: the list" over a form had v typed into its password.
        let hints = listKey.map { [" · \($0): the list", " · \($0): list"] } ?? [""]
        let hint = hints.first { CharacterWidth.of(title.whole + $0) <= room } ?? hints[hints.count - 1]
        Frame.draw(&buffer, top: top, left: left, width: width, height: height,
                   title: title.fitting(max(1, room - CharacterWidth.of(hint))) + hint + note)
        var lanes = given
        for arrow in arrows where !arrow.isFault {
            for party in [arrow.from, arrow.to] where !lanes.contains(party) { lanes.append(party) }
        }
        // The lanes spread over the whole width, each gap as wide as its labels want (``laneColumns``).
        let inner = width - 2
        let even = max(4, inner / max(1, lanes.count))
        func half(_ party: String?) -> Int { party.map { min(CharacterWidth.of($0), even - 1) / 2 + 1 } ?? 2 }
        let first = left + 1 + max(2, half(lanes.first))
        let last = left + width - 2 - max(2, half(lanes.last))
        // Spaced for earlier flows' labels too, even where that cuts a label the flow's own spacing would keep whole
        // (the terminal too narrow for all its kind's labels): falling back moved a payment's lanes from the card
        // form to the challenge, as the challenge's messages came. A cut label says where it is whole.
        let columns = laneColumns(lanes: lanes, arrows: earlier + arrows, first: first, last: last)
        func column(_ party: String) -> Int? {
            lanes.firstIndex(of: party).map { lanes.count > 1 ? columns[$0] : left + 1 + even / 2 }
        }
        // The lanes' names.
        let xs = lanes.compactMap(column)
        for placed in namePlacements(lanes, columns: xs, low: left + 1, high: left + width - 2) {
            buffer.put(placed.text, row: top + 1, column: placed.start, role: .label, limit: left + width - 1 - placed.start)
        }
        let end = arrows.count - scroll
        let visible = arrows[max(0, end - rows)..<max(0, end)]
        // A fault that bit goes on the lane of the party whose call it hit: the one the last arrow before it reached
        // (every ⚡ was on the App's lane, the events' receiver, whichever call it hit).
        var hit: [Int: String] = [:]
        var working: String?
        for (index, arrow) in arrows.enumerated() {
            if !arrow.isFault { working = arrow.to } else if !arrow.isNotice, let working { hit[index] = working }
        }
        var cut = false
        for (index, arrow) in zip(visible.indices, visible) {
            let offset = index - visible.startIndex
            let row = top + 2 + offset
            for party in lanes { if let x = column(party) { buffer.put("│", row: row, column: x, role: .label) } }
            guard !arrow.isFault, let from = column(arrow.from), let to = column(arrow.to), from != to else {
                // A fault, or a party talking to itself: a mark on its lane.
                let x = column(hit[index] ?? arrow.to) ?? left + 1
                let mark = arrow.isFault && !arrow.isNotice ? "⚡" : "●"
                let right = left + width - 1 - x, leftOfLane = x - left - 2
                // Too long for the room right of its lane (the rightmost, a server's, where a fault that struck a
                // request goes: "⚡…"), and more room left of it: the label ends at its mark there.
                if CharacterWidth.of(mark + " " + arrow.label) > right, leftOfLane > right {
                    let text = CharacterWidth.truncate(arrow.label, to: leftOfLane)
                    cut = cut || text != arrow.label
                    buffer.put(text + " " + mark, row: row, column: x - 1 - CharacterWidth.of(text), role: arrow.role)
                    continue
                }
                let label = CharacterWidth.truncate(mark + " " + arrow.label, to: right)
                cut = cut || label != mark + " " + arrow.label
                buffer.put(label, row: row, column: x, role: arrow.role)
                continue
            }
            let (low, high) = (min(from, to), max(from, to))
            var characters = Array(String(repeating: "─", count: max(1, high - low - 2)))
            let text = CharacterWidth.truncate(arrow.label, to: max(1, high - low - 3))
            cut = cut || text != arrow.label
            // The label sits on the arrow, from its tail.
            let start = from < to ? 1 : max(1, characters.count - CharacterWidth.of(text) - 1)
            for (index, character) in text.enumerated() where start + index < characters.count { characters[start + index] = character }
            let line = from < to ? String(characters) + "▶" : "◀" + String(characters)
            buffer.put(line, row: row, column: low + 1, role: arrow.role, limit: high - low - 1)
        }
        // A label cut short says where it is whole: the live log's Tab opens the list on the newest arrow shown, whose
        // lines are cut too (it said "tab lists them whole"), and Enter there shows one event whole; the history's v
        // opens its transcript, whose Enter does the same.
        let whole = wholeKey.map { " a label is cut: \($0), then enter, shows one whole " } ?? " a label is cut "
        if cut, width >= CharacterWidth.of(whole) + 4 {
            buffer.put(whole, row: top + height - 1, column: left + width - 2 - CharacterWidth.of(whole), role: .hint)
        }
    }

    /// Where each lane's name goes on the names' row, between columns `low` and `high`: centred on its lane when
    /// there is room, moved aside (still over its lane) when a neighbour's name needs the room, one space between
    /// names, and cut with "…" only when its neighbours leave it no room whole. Each used to have only the room to
    /// its nearer neighbour, both sides alike: "SecurityMo…" beside 37 empty columns.
    static func namePlacements(_ names: [String], columns: [Int], low: Int, high: Int) -> [(start: Int, text: String)] {
        guard names.count == columns.count else { return [] }
        let widths = names.map { CharacterWidth.of($0) }
        var starts = names.indices.map { columns[$0] - widths[$0] / 2 }
        // Left to right: after the name before it, over its own lane.
        for index in starts.indices {
            let floor = index == 0 ? low : starts[index - 1] + widths[index - 1] + 1
            starts[index] = min(max(starts[index], floor), columns[index])
        }
        // Right to left: before the name after it (placed already), as far left as the name before it and its lane
        // allow, then cut.
        var texts = names
        for index in starts.indices.reversed() {
            let ceiling = index == starts.count - 1 ? high : starts[index + 1] - 2
            let width = widths[index]
            guard starts[index] + width - 1 > ceiling else { continue }
            let floor = index == 0 ? low : starts[index - 1] + CharacterWidth.of(texts[index - 1]) + 1
            starts[index] = max(min(floor, columns[index]), columns[index] - width + 1, ceiling - width + 1)
            if starts[index] + width - 1 > ceiling {
                starts[index] = min(starts[index], columns[index])
                texts[index] = ceiling >= starts[index] ? CharacterWidth.truncate(names[index], to: ceiling - starts[index] + 1) : ""
            }
        }
        return names.indices.map { (starts[$0], texts[$0]) }
    }

    /// The lanes' columns from `first` to `last`. Each gap between two lanes is first as wide as their names and
    /// then as its arrows' labels ask (an arrow over several gaps shares them out); the rest of the width is
    /// shared evenly. When the labels want more than there is, the widest gaps narrow first, so only the longest
    /// labels are cut, and only when the terminal is too narrow for all of them (evenly spaced lanes cut
    /// "provideCredentials USER_CANCEL" at 80 columns with 30 columns empty beside it).
    static func laneColumns(lanes: [String], arrows: [Arrow], first: Int, last: Int) -> [Int] {
        guard lanes.count > 1 else { return [first] }
        let total = last - first
        let count = lanes.count - 1
        let names: [Int] = lanes.map { CharacterWidth.of($0) }
        let least: [Int] = (0..<count).map { (index: Int) -> Int in
            let both = names[index] + names[index + 1]
            return max(4, (both + 1) / 2 + 1)
        }
        var gaps = least
        let spans = arrows.compactMap { arrow -> (low: Int, high: Int, want: Int)? in
            guard !arrow.isFault, let from = lanes.firstIndex(of: arrow.from), let to = lanes.firstIndex(of: arrow.to), from != to else { return nil }
            // "─label─▶" between the lanes' lines.
            return (min(from, to), max(from, to), CharacterWidth.of(arrow.label) + 4)
        }.sorted { $0.high - $0.low < $1.high - $1.low }
        for span in spans {
            let have: Int = gaps[span.low..<span.high].reduce(0, +)
            guard have < span.want else { continue }
            let missing = span.want - have
            let width = span.high - span.low
            for (offset, index) in (span.low..<span.high).enumerated() {
                gaps[index] += missing / width + (offset < missing % width ? 1 : 0)
            }
        }
        let asked = gaps.reduce(0, +)
        if asked <= total {
            let spare = total - asked
            for index in gaps.indices { gaps[index] += spare / count + (index < spare % count ? 1 : 0) }
        } else {
            // The widest gaps give way first, one column at a time: the short labels stay whole, the longest are cut.
            var over = asked - total
            while over > 0, let widest = gaps.indices.filter({ gaps[$0] > least[$0] }).max(by: { gaps[$0] < gaps[$1] }) {
                gaps[widest] -= 1
                over -= 1
            }
            // Too narrow even for the names: even spacing, as before.
            if over > 0 { gaps = Array(repeating: max(4, total / count), count: count) }
        }
        var columns = [first]
        for gap in gaps { columns.append(columns[columns.count - 1] + gap) }
        return columns
    }
}
