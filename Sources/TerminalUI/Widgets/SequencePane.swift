import FlowEngine

/// The event log as a sequence diagram: one lane per party of the newest flow (its kind's lanes first), an arrow
/// per event from the lane that sent it to the lane that received it, labelled with the step; the newest at the
/// bottom, as the log scrolls. What the Mermaid export draws, in the terminal.
enum SequencePane {
    static func draw(_ buffer: inout ScreenBuffer, events: [FlowEvent], scroll: Int, top: Int, left: Int, width: Int, height: Int) {
        let rows = max(0, height - 3)
        guard let newest = events.last else {
            Frame.draw(&buffer, top: top, left: left, width: width, height: height, title: "SDK events — sequence (v: the list)")
            return
        }
        // The newest flow's events: one diagram per flow.
        let flowEvents = events.filter { $0.flowID == newest.flowID }
        let scroll = min(scroll, max(0, flowEvents.count - rows))
        let title = "Sequence — flow \(newest.flowID): \(newest.flow.title) · v: the list"
            + (scroll > 0 ? " · \(scroll) newer below" : "")
        Frame.draw(&buffer, top: top, left: left, width: width, height: height, title: CharacterWidth.truncate(title, to: width - 6))
        var lanes = newest.flow.lanes
        for event in flowEvents {
            for party in [event.from, event.to] where !lanes.contains(party) && party != .simulator { lanes.append(party) }
        }
        let inner = width - 2
        let spacing = max(4, inner / max(1, lanes.count))
        func column(_ party: Participant) -> Int? {
            lanes.firstIndex(of: party).map { left + 1 + spacing / 2 + $0 * spacing }
        }
        // The lanes' names.
        for party in lanes {
            guard let x = column(party) else { continue }
            let name = CharacterWidth.truncate(party.rawValue, to: spacing - 1)
            buffer.put(name, row: top + 1, column: max(left + 1, x - CharacterWidth.of(name) / 2), role: .label,
                       limit: left + width - 1 - max(left + 1, x - CharacterWidth.of(name) / 2))
        }
        let end = flowEvents.count - scroll
        let visible = flowEvents[max(0, end - rows)..<max(0, end)]
        for (offset, event) in visible.enumerated() {
            let row = top + 2 + offset
            for party in lanes { if let x = column(party) { buffer.put("│", row: row, column: x, role: .label) } }
            let role = LogPane.role(event)
            let label = event.step.rawValue + (event.status.map { " \($0)" } ?? "")
            guard let from = column(event.from), let to = column(event.to), from != to else {
                // A fault, or a party talking to itself: a mark on its lane.
                let x = column(event.to) ?? left + 1
                let mark = event.from == .simulator ? "⚡ " : "● "
                buffer.put(CharacterWidth.truncate(mark + label, to: left + width - 1 - x), row: row, column: x, role: role)
                continue
            }
            let (low, high) = (min(from, to), max(from, to))
            var arrow = String(repeating: "─", count: max(1, high - low - 2))
            let text = CharacterWidth.truncate(label, to: max(1, high - low - 3))
            // The label sits on the arrow, from its tail.
            let start = from < to ? 1 : max(1, arrow.count - CharacterWidth.of(text) - 1)
            var characters = Array(arrow)
            for (index, character) in text.enumerated() where start + index < characters.count { characters[start + index] = character }
            arrow = String(characters)
            let line = from < to ? arrow + "▶" : "◀" + arrow
            buffer.put(line, row: row, column: low + 1, role: role, limit: high - low - 1)
        }
    }
}
