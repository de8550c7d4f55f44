import FlowEngine
import FlowRecords

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
    }

    static func draw(_ buffer: inout ScreenBuffer, events: [FlowEvent], scroll: Int, top: Int, left: Int, width: Int, height: Int) {
        guard let newest = events.last else {
            Frame.draw(&buffer, top: top, left: left, width: width, height: height, title: "SDK events — sequence (v: the list)")
            return
        }
        // The newest flow's events: one diagram per flow.
        let arrows = events.filter { $0.flowID == newest.flowID }.map { event in
            Arrow(from: event.from.rawValue, to: event.to.rawValue, label: RecordedEvent.arrowLabel(step: event.step.rawValue, status: event.status, separator: " "),
                  role: LogPane.role(event), isFault: event.from == .simulator)
        }
        draw(&buffer, arrows: arrows, lanes: newest.flow.lanes.map(\.rawValue),
             title: "Sequence — flow \(newest.flowID): \(newest.flow.title)", scroll: scroll,
             top: top, left: left, width: width, height: height)
    }

    /// The diagram of `arrows`: `lanes` first, then any other party in the order it appears. The title is followed
    /// by v's hint and, when scrolled, how many arrows are below.
    static func draw(_ buffer: inout ScreenBuffer, arrows: [Arrow], lanes given: [String], title: String, scroll: Int,
                     top: Int, left: Int, width: Int, height: Int) {
        let rows = max(0, height - 3)
        let scroll = min(scroll, max(0, arrows.count - rows))
        // It may be drawn over another view (a past flow's, over its transcript): what is beneath goes first.
        buffer.fill(top: top, left: left, width: width, height: height, role: .text)
        // The scroll note is kept whole, and the key's hint whole or shorter ("v: the l…" was cut mid-word): the
        // flow's name gives way to them.
        let note = scroll > 0 ? " · \(scroll) newer below" : ""
        let room = max(1, width - 6 - CharacterWidth.of(note))
        let hint = [" · v: the list", " · v: list"].first { CharacterWidth.of(title + $0) <= room } ?? " · v: list"
        Frame.draw(&buffer, top: top, left: left, width: width, height: height,
                   title: CharacterWidth.truncate(title, to: max(1, room - CharacterWidth.of(hint))) + hint + note)
        var lanes = given
        for arrow in arrows where !arrow.isFault {
            for party in [arrow.from, arrow.to] where !lanes.contains(party) { lanes.append(party) }
        }
        // The lanes spread over the whole width (11 columns right of the last one were left empty at 80): the first
        // and the last as near the edges as their names allow, the labels between them getting the rest.
        let inner = width - 2
        let even = max(4, inner / max(1, lanes.count))
        func half(_ party: String?) -> Int { party.map { min(CharacterWidth.of($0), even - 1) / 2 + 1 } ?? 2 }
        let first = left + 1 + max(2, half(lanes.first))
        let last = left + width - 2 - max(2, half(lanes.last))
        let spacing = lanes.count > 1 ? max(4, (last - first) / (lanes.count - 1)) : even
        func column(_ party: String) -> Int? {
            lanes.firstIndex(of: party).map { lanes.count > 1 ? first + $0 * spacing : left + 1 + even / 2 }
        }
        // The lanes' names.
        for party in lanes {
            guard let x = column(party) else { continue }
            let name = CharacterWidth.truncate(party, to: spacing - 1)
            let start = max(left + 1, x - CharacterWidth.of(name) / 2)
            buffer.put(name, row: top + 1, column: start, role: .label, limit: left + width - 1 - start)
        }
        let end = arrows.count - scroll
        let visible = arrows[max(0, end - rows)..<max(0, end)]
        for (offset, arrow) in visible.enumerated() {
            let row = top + 2 + offset
            for party in lanes { if let x = column(party) { buffer.put("│", row: row, column: x, role: .label) } }
            guard !arrow.isFault, let from = column(arrow.from), let to = column(arrow.to), from != to else {
                // A fault, or a party talking to itself: a mark on its lane.
                let x = column(arrow.to) ?? left + 1
                let mark = arrow.isFault ? "⚡ " : "● "
                buffer.put(CharacterWidth.truncate(mark + arrow.label, to: left + width - 1 - x), row: row, column: x, role: arrow.role)
                continue
            }
            let (low, high) = (min(from, to), max(from, to))
            var characters = Array(String(repeating: "─", count: max(1, high - low - 2)))
            let text = CharacterWidth.truncate(arrow.label, to: max(1, high - low - 3))
            // The label sits on the arrow, from its tail.
            let start = from < to ? 1 : max(1, characters.count - CharacterWidth.of(text) - 1)
            for (index, character) in text.enumerated() where start + index < characters.count { characters[start + index] = character }
            let line = from < to ? String(characters) + "▶" : "◀" + String(characters)
            buffer.put(line, row: row, column: low + 1, role: arrow.role, limit: high - low - 1)
        }
    }
}
