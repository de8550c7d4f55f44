import FlowRecords
import LegacyFlows

/// The KSSIDP comparison: the parity check's report, scrollable. It is laid out for the width it is drawn at
/// (again after a resize), every value wrapped, none cut.
public struct ComparisonState: Sendable, Equatable {
    /// Nil until the report arrives.
    public var report: ParityReport?
    public var scroll = 0

    public var running: Bool { report == nil }
    public var differences: Int { report?.differenceCount ?? 0 }

    /// The report's lines at `width` columns.
    func lines(width: Int) -> [String] {
        guard let report else { return ["Running the same cases through the IdpSdk orchestration and through KSSIDP…"] }
        return ParityText.lines(report, width: max(40, width))
    }
}

extension TerminalApp {
    /// Starts the parity check (off this thread, on worlds of its own: this device is not touched); the report
    /// replaces the screen's placeholder when it arrives.
    func openComparison() {
        state.screen = .comparison(ComparisonState())
        service.compareOrchestrations()
    }

    func showComparison(_ report: ParityReport) {
        guard case .comparison(let shown) = state.screen, shown.running else { return }
        state.screen = .comparison(ComparisonState(report: report))
    }

    func handleComparison(_ key: Key, _ comparison: inout ComparisonState) {
        // The body as AppView lays it out (the screen less its border and margins): it scrolls until its last line
        // is on the panel's last row.
        let rows = AppView.mainPanelHeight(state) - 2
        let last = max(0, comparison.lines(width: state.width - 4).count - rows)
        switch key {
        case .escape, .enter, .character("q"):
            state.screen = .home
            return
        case .up: comparison.scroll = max(0, comparison.scroll - 1)
        case .down: comparison.scroll = min(last, comparison.scroll + 1)
        case .pageUp: comparison.scroll = max(0, comparison.scroll - 8)
        case .pageDown: comparison.scroll = min(last, comparison.scroll + 8)
        case .home: comparison.scroll = 0
        case .end: comparison.scroll = last
        default: break
        }
        state.screen = .comparison(comparison)
    }
}

extension AppView {
    static func drawComparison(_ buffer: inout ScreenBuffer, _ comparison: ComparisonState, _ area: Panel) {
        let lines = comparison.lines(width: area.width)
        for (offset, line) in lines.dropFirst(min(comparison.scroll, max(0, lines.count - area.height))).prefix(area.height).enumerated() {
            let role: Role = line.hasPrefix("✗") || line.contains("✗ differs") ? .error : line.hasPrefix("✓") ? .success : .text
            buffer.put(line, row: area.top + offset, column: area.left, role: role, limit: area.width)
        }
    }
}
