import FlowCatalog
import FlowRecords
import Foundation
import JSONText
import LocaleText

/// History as text: the list, a transcript, a Mermaid sequence diagram, or JSON.
public enum HistoryExport {
    /// The list, its columns aligned as the terminal shows them: each cell as the user's locale spells it
    /// (`spelled`: "—" is "--" under the C locale) and padded by its width in columns (a wide character takes two,
    /// a combining mark none). It was padded by characters before being spelled, and the rows went askew.
    public static func table(_ entries: [HistorySummary], spelled: (String) -> String = PlainASCII.forUserLocale) -> String {
        guard !entries.isEmpty else { return spelled("no flows yet") }
        let header = ["ID", "TIME", "FLOW", "USER", "OUTCOME", "STATUS", "DURATION"]
        let rows = entries.map { entry in
            [String(entry.id), entry.time, entry.flow, entry.user ?? HistorySummary.noUser, entry.outcome.rawValue, entry.status,
             HistorySummary.durationText(entry.duration)].map { spelled(VisibleText.escaped($0)) }
        }
        return CharacterWidth.columns([header] + rows).joined(separator: "\n")
    }

    public static func transcript(_ record: HistoryRecord) -> String {
        record.transcriptLines.map(VisibleText.escaped).joined(separator: "\n")
    }

    /// A Mermaid `sequenceDiagram`: the flow's own parties first, in its kind's order (``FlowKind/lanes``), then
    /// any other as it appears; a request is a solid arrow, an answer a dashed one (``ArrowKind``).
    public static func mermaid(_ record: HistoryRecord) -> String {
        let s = record.summary
        let kind = FlowCatalog.kind(named: s.flow)
        var order = kind?.lanes.map(\.rawValue) ?? ["App"]
        for event in record.events {
            for name in [event.from, event.to] where !order.contains(name) { order.append(name) }
        }
        var lines = ["sequenceDiagram", "    title \(escape("\(s.flow) #\(s.id): \(s.outcome.rawValue) \(s.status)"))"]
        for name in order { lines.append("    participant \(id(name)) as \(escape(name))") }
        let answers = ArrowKind.answers(record.events, replies: kind?.replies ?? .none)
        // A detail over 90 characters is cut with "…" to keep the diagram readable: a comment at its top says so, and
        // where each is whole (an exported diagram attached to a report was cut with nothing said).
        if record.events.contains(where: { shorten($0.detail) != $0.detail }) {
            lines.insert("    %% details over 90 characters end in …: idp-tui history show \(s.id) prints them whole", at: 1)
        }
        for (event, answers) in zip(record.events, answers) {
            let label = RecordedEvent.arrowLabel(step: event.step, status: event.status, separator: " · ")
            let text = [label, shorten(event.detail)].filter { !$0.isEmpty }.joined(separator: " · ")
            if event.from == event.to {
                lines.append("    Note over \(id(event.from)): \(escape(text))")
            } else {
                // Requests solid, answers dashed (ArrowKind), not by whether the event has a status.
                let arrow = answers ? "-->>" : "->>"
                lines.append("    \(id(event.from))\(arrow)\(id(event.to)): \(escape(text))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The flow as one JSON document: its summary, its result (as `run` prints it) and its events.
    public static func json(_ record: HistoryRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let events = (try? encoder.encode(record.events)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        let summary = (try? encoder.encode(record.summary)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let body = summary.dropLast()
        // The result as the file holds it; a damaged one (not a JSON object) is null, its text beside it as
        // `unreadableResult`, so that `result` is always an object or null (it was the text, a string where a reader
        // of the export expects an object, and nothing said so).
        let readable = record.resultIsReadable
        let result = readable ? record.resultJSON : "null"
        let unreadable = readable ? "" : ",\"unreadableResult\":" + ((try? encoder.encode(record.resultJSON)).map { String(decoding: $0, as: UTF8.self) } ?? "null")
        // Events the file holds but could not be read are counted, so that the export says it is not whole.
        let damaged = unreadable + (record.unreadableEvents > 0 ? ",\"unreadableEvents\":\(record.unreadableEvents)" : "")
        return VisibleText.escapedInJSON("\(body),\"result\":\(result),\"events\":\(events)\(damaged)}")
    }

    private static func id(_ participant: String) -> String {
        let cleaned = participant.filter { $0.isLetter || $0.isNumber }
        return cleaned.isEmpty ? "P" : cleaned
    }

    /// Cut after a whole word, and never right after a label whose value is cut away: `password: …` read as a
    /// password cut off (a Q2 tester), where the value was `<redacted>`.
    private static func shorten(_ text: String) -> String {
        guard text.count > 90 else { return text }
        var words = text.prefix(89).split(separator: " ", omittingEmptySubsequences: false)
        if words.count > 1 { words.removeLast() }
        while words.count > 1, let last = words.last, last.hasSuffix(":") || last.isEmpty { words.removeLast() }
        return words.joined(separator: " ") + " …"
    }

    /// Mermaid reads `;` and `#` in message text as syntax, `<` `>` as HTML (a merchant named `<br>` broke its
    /// line, `<b>` made bold) and `%%` as a comment or directive: write them as entity codes.
    private static func escape(_ text: String) -> String {
        var out = ""
        for character in VisibleText.escaped(text) {
            switch character {
            case "#": out += "#35;"
            case ";": out += "#59;"
            // `%%{…}%%` anywhere is an init directive, which a user name could carry into the diagram's settings.
            case "%": out += "#37;"
            case "<": out += "#60;"
            case ">": out += "#62;"
            case "\n", "\r": out += " "
            default: out.append(character)
            }
        }
        return out
    }
}
