import FlowEngine
import FlowRecords
import LocaleText

/// The faults panel: which switch has focus.
public struct FaultsPanelState: Sendable, Equatable {
    public var focus = 0
    /// The first switch shown: it moves only when the focus leaves the rows shown, as the log's and lazygit's lists
    /// do (it followed the focus, so ↑ from the last switch scrolled the list under a cursor pinned to the bottom).
    public var first = 0

    /// The switches the panel shows at a terminal of `height` rows, of `count`.
    static func rows(height: Int, count: Int) -> Int { min(height - 4, count + 4) - 4 }

    /// The first switch shown with the focus in view, moved as little as that needs from ``first``.
    func firstShown(rows: Int, count: Int) -> Int {
        ListWindow.first(kept: first, focus: focus, rows: rows, count: count)
    }
}

extension TerminalApp {
    /// Opens the panel on the switch it was closed on (switching one on and off again is one key each time).
    func openFaults() {
        refreshFaults()
        guard !state.faultSwitches.isEmpty else {
            state.notice = Self.noFaultSwitches
            return
        }
        state.faultsPanel = FaultsPanelState(focus: min(state.lastFaultFocus, state.faultSwitches.count - 1))
    }

    /// What `f` says when no family offers a fault to switch.
    static let noFaultSwitches = "no fault to switch: no flow family offers one"

    func refreshFaults() {
        guard let service = serviceIfReady else { return }
        state.faultSwitches = service.faultSwitches.map(\.state)
    }

    func handleFaultsPanel(_ key: Key, _ panel: inout FaultsPanelState) {
        let switches = state.faultSwitches
        guard !switches.isEmpty else {
            state.faultsPanel = nil
            return
        }
        let rows = FaultsPanelState.rows(height: state.height, count: switches.count)
        // Where the list is drawn now (a panel opened again on its last switch, or a terminal resized, draws it from
        // there): the key moves the focus from that view.
        panel.first = panel.firstShown(rows: rows, count: switches.count)
        switch key {
        case .escape, .f2, .character("f"), .character("q"):
            state.lastFaultFocus = panel.focus
            state.faultsPanel = nil
            return
        // As the menu and the lists take them (j and k did nothing here).
        case .up, .backTab, .character("k"): panel.focus = (panel.focus - 1 + switches.count) % switches.count
        case .down, .tab, .character("j"): panel.focus = (panel.focus + 1) % switches.count
        case .home, .pageUp: panel.focus = 0
        case .end, .pageDown: panel.focus = switches.count - 1
        case .character(" "), .enter: state.notice = switchFault(at: panel.focus)
        // Every fault off at once, as a test starts over (one by one, the panel opening on the last switch made a
        // tester switch the wrong ones on).
        case .character("x"):
            let on = service.faultSwitches.filter(\.state.isOn)
            let held = on.filter { !$0.switchOff() }.count
            refreshFaults()
            state.notice = on.isEmpty ? "no fault is on" : "switched off: \(on.count - held) of \(on.count)"
                + (held > 0 ? " (\(held) held on by a command-line option)" : "")
        default: break
        }
        panel.first = panel.firstShown(rows: rows, count: switches.count)
        state.faultsPanel = panel
    }

    /// Switches the `index`th switch (the panel's space, plain mode's number), live: a flow in flight meets the fault
    /// at its next step. Says what it did: "switched on: …", or the value a switch with several is now set to.
    func switchFault(at index: Int) -> String {
        let switches = service.faultSwitches
        guard switches.indices.contains(index) else { return "" }
        let notice = switches[index].flip()
        refreshFaults()
        return notice
    }

    /// The switches as plain mode lists them, one a line: number, on or off in words (a screen reader read the
    /// panel's `[ ]` as "left bracket right bracket"), and the panel's label; a switch with several values says the
    /// ones its number moves to, in order (it read `off … answers normally`, and each entry moved it on unsaid).
    func plainFaultLines() -> [String] {
        let rows = state.faultSwitches.enumerated().map { index, fault in
            [String(index + 1), fault.isOn ? "on" : "off", fault.label + Self.plainUpcoming(fault, all: true)]
        }
        return Self.plainColumns(rows, ascii: state.plainASCII)
    }

    /// What a switch with several values moves to next: all of them up to off (`all`), or the next alone, as its
    /// switch says it (`now 3DS: ACS unreachable · next: slow (+5 s)`). Empty for an on/off switch.
    static func plainUpcoming(_ fault: FaultSwitchState, all: Bool) -> String {
        guard !fault.values.isEmpty else { return "" }
        let upcoming = fault.upcoming
        if upcoming.isEmpty { return " · next: off" }
        return all ? " · next: \(upcoming.joined(separator: ", ")), then off" : " · next: \(upcoming[0])"
    }
}

extension AppView {
    static func drawFaultsPanel(_ buffer: inout ScreenBuffer, _ state: AppState, _ panel: FaultsPanelState) {
        let switches = state.faultSwitches
        // Wide enough for the longest value ("[x] 3DS: directory server answering a malformed message").
        let width = min(buffer.width - 4, 62)
        // The status line below stays visible: it says what the last switch did.
        let height = FaultsPanelState.rows(height: buffer.height, count: switches.count) + 4
        let top = max(1, (buffer.height - height) / 2)
        let left = max(2, (buffer.width - width) / 2)
        buffer.fill(top: top, left: left, width: width, height: height, role: .text)
        // What the panel covers is not clickable through it; its switches are.
        buffer.targets = []
        Frame.draw(&buffer, top: top, left: left, width: width, height: height, title: "Faults — space switches, esc closes")
        let rows = height - 4
        let first = panel.firstShown(rows: rows, count: switches.count)
        // Identity and network faults are read at each step; the bridge's and 3-D Secure's when a payment starts.
        // A focused label cut in its row (60 columns) is shown whole there instead, as the card picker shows its
        // focused card (it could be read only by switching it).
        let focusedLabel = switches.indices.contains(panel.focus) ? switches[panel.focus].label : ""
        let hint = CharacterWidth.of("[x] " + focusedLabel) > width - 6 ? focusedLabel : "Identity: next step · bridge, 3DS: next payment"
        buffer.put(CharacterWidth.truncate(hint, to: width - 4), row: top + 1, column: left + 2, role: .hint, limit: width - 4)
        for (offset, fault) in switches.enumerated().dropFirst(first).prefix(rows) {
            let row = top + 2 + offset - first
            let focused = offset == panel.focus
            buffer.targets.append(ClickTarget(row: row, column: left + 2, width: width - 4, stop: offset))
            let on = fault.isOn
            buffer.put(focused ? "›" : " ", row: row, column: left + 2, role: focused ? .fieldFocused : .fieldBlurred)
            // Narrower than that (60 columns), a label ends in "…": the row above shows the focused one whole.
            let entry = CharacterWidth.truncate("[\(on ? "x" : " ")] \(fault.label)", to: width - 6)
            buffer.put(entry, row: row, column: left + 4, role: focused ? .menuFocused : on ? .error : .text, limit: width - 6)
        }
        // Entries that do not fit: the panel's last row says how many, and where.
        let below = switches.count - first - rows
        let more = [first > 0 ? "↑ \(first) above" : nil, below > 0 ? "↓ \(below) more" : nil].compactMap { $0 }
        if !more.isEmpty {
            buffer.put(more.joined(separator: " · "), row: top + height - 2, column: left + 4, role: .hint, limit: width - 6)
        }
        buffer.cursor = nil
    }
}
