import Foundation

extension HistorySummary {
    /// A duration as the history prints it: `870 µs`, `12.3 ms`, `1.25 s`.
    public static func durationText(_ microseconds: Int64) -> String {
        if microseconds < 1000 { return "\(microseconds) µs" }
        if microseconds < 1_000_000 { return String(format: "%.1f ms", Double(microseconds) / 1000) }
        return String(format: "%.2f s", Double(microseconds) / 1_000_000)
    }
}

extension HistoryRecord {
    /// The flow as `history show` prints it, and plain mode's history: a header, the result's error and next step
    /// (``outcomeLines``), then one line an event, each whole. Not yet made visible: the caller escapes controls.
    public var transcriptLines: [String] {
        let s = summary
        var lines = ["flow \(s.id): \(s.flow) · \(s.user ?? HistorySummary.noUser) · \(s.outcome.rawValue) \(s.status) · "
            + "\(HistorySummary.durationText(s.duration)) · \(s.time)"]
        lines += outcomeLines
        for event in events {
            var line = "\(event.sequence). \(event.from) → \(event.to)  \(event.step)  [\(event.thread)]"
            if let status = event.status { line += "  \(status)" }
            if let micros = event.duration { line += "  \(HistorySummary.durationText(micros))" }
            lines.append(line + "  \(event.detail)")
        }
        return lines
    }
}
