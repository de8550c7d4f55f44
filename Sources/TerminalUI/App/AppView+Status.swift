import FlowRecords
import LocaleText

// The status line, and the screen that replaces everything when the terminal is too small.
extension AppState {
    /// How many faults are on (`2 faults on`), one a family's setting holds (`--insecure-device`) included; nil when
    /// none is.
    var faultsOnText: String? {
        let faults = faultSwitches.filter(\.isOn).count
        return faults > 0 ? "\(faults) \(faults == 1 ? "fault" : "faults") on" : nil
    }
}

extension AppView {
    /// A prompt's last seconds before it times out (`--prompt-timeout`), in whole seconds rounded up.
    static func countdown(_ state: AppState) -> String? {
        countdownSeconds(state).map { "answer within \($0) s: the prompt then times out" }
    }

    static func countdownSeconds(_ state: AppState) -> Int64? {
        guard let left = state.promptTimeLeft(at: state.now), left <= AppState.countdownFrom else { return nil }
        return left.components.seconds + (left.components.attoseconds > 0 ? 1 : 0)
    }

    static func drawStatus(_ buffer: inout ScreenBuffer, _ state: AppState, row: Int) {
        buffer.fill(row: row, column: 0, count: buffer.width, role: .status)
        let faultsOn = state.faultsOnText.map { "⚡ \($0)" }
        var right = "device: \(state.deviceStatus) "
        let left: String
        // A notice answers the last key; a countdown running meanwhile stays in sight before it, in short (it hid
        // the notice, which then showed on the next screen).
        let seconds = countdownSeconds(state)
        var message = state.notice.map { notice in seconds.map { "\($0) s left · \(notice)" } ?? notice } ?? countdown(state)
        // The state file waits for another process's lock as the session starts: the line says so, and how to leave
        // (whole at 60 columns).
        if state.showsStartupLockWait(at: state.now), let since = state.startupLockedSince {
            message = "\(AppState.startupLockText) · \(tenthsText(since.duration(to: state.now))) · q quits"
        }
        if let message {
            // A notice answers the last key and goes with the next: it has the line, the faults before it (they
            // stay in sight while any is on), and the device only when there is room left (it comes back with
            // the next key).
            left = " " + ([faultsOn, message].compactMap { $0 }.joined(separator: " · "))
            if CharacterWidth.of(left) + 2 + CharacterWidth.of(right) > buffer.width { right = "" }
        } else {
            // The faults before the host, so that a narrow line cuts the host, not the faults; which ones, as far as
            // the line has room (a count alone sent a tester into the panel to find which were on).
            let names = state.faultSwitches.filter(\.isOn).map(\.label).joined(separator: ", ")
            left = " tenant \(state.tenant)" + (faultsOn.map { " · \($0): \(names)" } ?? "") + " · \(state.idpHost)"
        }
        // The device keeps at most half the line; the rest is the left part's, cut with … and two spaces before
        // the device, so that the two never run together.
        right = CharacterWidth.truncate(right, to: max(0, buffer.width / 2))
        let room = buffer.width - CharacterWidth.of(right) - (right.isEmpty ? 0 : 2)
        buffer.put(CharacterWidth.truncateAtWord(left, to: room), row: row, column: 0, role: .status, limit: room)
        buffer.put(right, row: row, column: buffer.width - CharacterWidth.of(right), role: .status)
    }

    static func drawTooSmall(_ buffer: inout ScreenBuffer, _ state: AppState) {
        let message = "terminal too small (need \(minimumWidth)×\(minimumHeight), have \(state.width)×\(state.height))"
        // The ways out on a line of their own (Ctrl-Z suspends here too), and that other keys wait for the screen
        // (typed on, they were lost unsaid).
        let lines = Wrap.lines(message, width: max(1, state.width))
            + Wrap.lines((state.quitsOnQ ? "q quits" : "ctrl-c quits") + " · ctrl-z suspends", width: max(1, state.width))
            + Wrap.lines("other keys are ignored until it is larger", width: max(1, state.width))
        let top = max(0, (state.height - lines.count) / 2)
        for (index, line) in lines.enumerated() {
            let left = max(0, (state.width - CharacterWidth.of(line)) / 2)
            buffer.put(line, row: top + index, column: left, role: .error)
        }
    }
}
