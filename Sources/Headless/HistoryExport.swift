import FlowCatalog
import FlowEngine
import FlowRecords
import Foundation
import JSONText
import LocaleText

/// History as text: the list, a transcript, a Mermaid sequence diagram, or JSON.
public enum HistoryExport {
    /// The list, its columns aligned as the terminal shows them: each cell as the user's locale spells it
    /// (`spelled`: "—" is "--" under the C locale) and padded by its width in columns (a wide character takes two,
    /// a combining mark none). It was padded by characters before being spelled, and the rows went askew.
    /// `none`: what an empty list says (a filter or `--before` that matches nothing is no "no flows yet").
    public static func table(_ entries: [HistorySummary], none: String = "no flows yet", spelled: (String) -> String = PlainASCII.forUserLocale) -> String {
        guard !entries.isEmpty else { return spelled(none) }
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
    /// any other as it appears; a request is a solid arrow, an answer a dashed one (``ArrowKind``). The simulator's
    /// events are notes, not messages: a fault that bit over the party whose call it hit (the one the event before it
    /// reached, as the terminal's diagram puts its ⚡), the faults on at the start over the simulator's lane. They
    /// were arrows to the App, which never hears of a fault.
    public static func mermaid(_ record: HistoryRecord) -> String {
        let s = record.summary
        let kind = FlowCatalog.kind(named: s.flow)
        var order = kind?.lanes.map(\.rawValue) ?? ["App"]
        let answers = ArrowKind.answers(record.events, replies: kind?.replies ?? .none)
        var body: [String] = []
        var reached: String?
        for (event, answers) in zip(record.events, answers) {
            let label = RecordedEvent.arrowLabel(step: event.step, status: event.status, separator: " · ")
            let text = wrapped([label, event.detail].filter { !$0.isEmpty }.joined(separator: " · "))
            let simulator = Participant.simulator.rawValue
            // A record from before session 52 sent a fault to the App: the party it hit is read from the events.
            let notice = [FlowStep.faultsOn, .historyNotSaved].map(\.rawValue).contains(event.step)
            let over: String? = event.from != simulator ? (event.from == event.to ? event.from : nil) : notice ? simulator : reached ?? simulator
            if event.from != simulator { reached = event.to }
            for name in over.map({ [$0] }) ?? [event.from, event.to] where !order.contains(name) { order.append(name) }
            if let over {
                body.append("    Note over \(id(over)): \(text)")
            } else {
                // Requests solid, answers dashed (ArrowKind), not by whether the event has a status.
                let arrow = answers ? "-->>" : "->>"
                body.append("    \(id(event.from))\(arrow)\(id(event.to)): \(text)")
            }
        }
        let title = "    title \(escape("\(s.flow) #\(s.id): \(s.outcome.rawValue) \(s.status)"))"
        return (["sequenceDiagram", title] + order.map { "    participant \(id($0)) as \(escape($0))" } + body).joined(separator: "\n")
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

    /// A message's text whole, escaped, with Mermaid's `<br/>` between lines broken at spaces: as few lines as
    /// ``lineLength`` allows, of even lengths ("restarts<br/>itself" left a word alone). A word too long for a line
    /// (a bridge message's JSON) is broken after its commas; one without (a URL) stays whole.
    /// A detail over 90 characters was cut with "…", whatever its label's length: the MC-SDK's runtime error was cut
    /// while longer labels stayed whole (a tester), and a cut could read as a value cut off (`password: …`).
    static func wrapped(_ text: String) -> String {
        let count = (text.count + lineLength - 1) / lineLength
        let width = count <= 1 ? lineLength : (text.count + count - 1) / count + 10
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            for (index, piece) in pieces(of: String(word)).enumerated() {
                let gap = index == 0 && !line.isEmpty ? " " : ""
                if !line.isEmpty, line.count + gap.count + piece.count > width {
                    lines.append(line)
                    line = piece
                } else {
                    line += gap + piece
                }
            }
        }
        return (lines + [line]).map(escape).joined(separator: "<br/>")
    }

    /// `word` whole when it fits a line, else in pieces that end after a comma.
    private static func pieces(of word: String) -> [String] {
        guard word.count > lineLength else { return [word] }
        var pieces = word.split(separator: ",", omittingEmptySubsequences: false).map { String($0) + "," }
        pieces[pieces.count - 1].removeLast()
        return pieces
    }

    /// How long a line of a message may be before it is broken: a message up to it is one line, as most are.
    static let lineLength = 100

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
