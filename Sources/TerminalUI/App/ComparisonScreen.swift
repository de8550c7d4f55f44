import FlowRecords
import LegacyFlows

/// The KSSIDP comparison: the parity check's report, scrollable.
public struct ComparisonState: Sendable, Equatable {
    public let lines: [String]
    public let differences: Int
    public var scroll = 0
    /// True until the report arrives.
    public var running = false
}

extension TerminalApp {
    /// Starts the parity check (off this thread, on worlds of its own: this device is not touched); the report
    /// replaces the screen's placeholder when it arrives.
    func openComparison() {
        state.screen = .comparison(ComparisonState(
            lines: ["Running the same cases through the IdpSdk orchestration and through KSSIDP…"], differences: 0, running: true))
        service.compareOrchestrations()
    }

    func showComparison(_ report: ParityReport) {
        guard case .comparison(let shown) = state.screen, shown.running else { return }
        state.screen = .comparison(ComparisonState(lines: ParityText.lines(report, width: max(60, state.width - 4)),
                                                   differences: report.differenceCount))
    }

    func handleComparison(_ key: Key, _ comparison: inout ComparisonState) {
        let last = max(0, comparison.lines.count - 1)
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
        for (offset, line) in comparison.lines.dropFirst(comparison.scroll).prefix(area.height).enumerated() {
            let role: Role = line.hasPrefix("✗") || line.contains("✗ differs") ? .error : line.hasPrefix("✓") ? .success : .text
            buffer.put(line, row: area.top + offset, column: area.left, role: role, limit: area.width)
        }
    }
}
