import FlowEngine
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

    /// `→ MC-SDK  Start                idp-tui.flow StartEvent` and `← MC-SDK  Start MC-SDK OK 0µs sdkState=…`:
    /// fixed columns for who, what and which thread, then status, duration and detail as they come. Wider
    /// terminals add the time.
    static func line(_ event: FlowEvent, width: Int) -> String {
        var parts: [String] = []
        if width >= 110 { parts.append(time(event)) }
        parts.append(pad(who(event), 9))
        parts.append(pad(event.step.rawValue, 20))
        parts.append(pad(event.thread, 12))
        if let status = event.status { parts.append(status) }
        if let duration = event.duration { parts.append(format(duration)) }
        parts.append(event.detail)
        return parts.joined(separator: " ")
    }

    /// Seen from the app (the Safepay Drops SDK counts as the app's side of the bridge): `→ MC-SDK` for a call
    /// out, `← Drops` for what comes back, and `Drops→DS` between two others. An SDK's requests to the IdP are
    /// `⇢ IdP` and its answers `⇠ IdP` (the thread column says which SDK); an injected fault is `⚡ fault`.
    static func who(_ event: FlowEvent) -> String {
        switch (event.from, event.to) {
        case (.app, .app): "✕"
        case (_, .identityProvider): "⇢ IdP"
        case (.identityProvider, _): "⇠ IdP"
        case (.simulator, _): "⚡ fault"
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

    static func role(_ event: FlowEvent) -> Role {
        switch event.status {
        case nil, "OK", "answered", "entered", "ack", "Y", "A", "C", "200", "302": event.step == .cancel ? .logWarn : .logInfo
        case "USER_CANCEL", "FAULT": .logWarn
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
