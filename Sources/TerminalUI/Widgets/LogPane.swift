import FlowService
import Foundation

/// The pane of flow events, newest at the bottom, scrollable.
enum LogPane {
    static func draw(_ buffer: inout ScreenBuffer, events: [FlowEvent], scroll: Int, top: Int, left: Int, width: Int,
                     height: Int) {
        let rows = max(0, height - 2)
        let scroll = min(scroll, max(0, events.count - rows))
        var title = "SDK events"
        if scroll > 0 { title += " — \(scroll) newer below (pgdn)" }
        Frame.draw(&buffer, top: top, left: left, width: width, height: height, title: title)
        let end = events.count - scroll
        let visible = events[max(0, end - rows)..<max(0, end)]
        for (offset, event) in visible.enumerated() {
            buffer.put(line(event, width: width - 2), row: top + 1 + offset, column: left + 1, role: role(event),
                       limit: width - 2)
        }
    }

    /// `→ MC-SDK Start                idp-tui.flow StartEvent` and `← MC-SDK Start MC-SDK OK 0µs sdkState=…`:
    /// fixed columns for who, what and which thread, then status, duration and detail as they come. Wider
    /// terminals add the time.
    static func line(_ event: FlowEvent, width: Int) -> String {
        let arrow: String
        let peer: Participant
        switch (event.from, event.to) {
        case (.app, .app): (arrow, peer) = ("✕", .app)
        case (.app, let to): (arrow, peer) = ("→", to)
        case (let from, _): (arrow, peer) = ("←", from)
        }
        var parts: [String] = []
        if width >= 110 { parts.append(time(event)) }
        parts.append(arrow)
        parts.append(pad(peer.rawValue, 6))
        parts.append(pad(event.step.rawValue, 20))
        parts.append(pad(event.thread, 12))
        if let status = event.status { parts.append(status) }
        if let duration = event.duration { parts.append(format(duration)) }
        parts.append(event.detail)
        return parts.joined(separator: " ")
    }

    static func role(_ event: FlowEvent) -> Role {
        switch event.status {
        case nil, "OK", "answered": event.step == .cancel ? .logWarn : .logInfo
        case "USER_CANCEL": .logWarn
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

    private static func pad(_ text: String, _ width: Int) -> String {
        let fitted = CharacterWidth.truncate(text, to: width)
        return fitted + String(repeating: " ", count: max(0, width - CharacterWidth.of(fitted)))
    }
}
