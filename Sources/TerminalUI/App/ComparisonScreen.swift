import FlowCatalog
import FlowRecords

/// The KSSIDP comparison: the parity check's report, scrollable. It is laid out for the width it is drawn at
/// (again after a resize), every value wrapped, none cut.
public struct ComparisonState: Sendable, Equatable {
    /// Nil until the report arrives.
    public var report: ParityReport?
    public var scroll = 0
    /// How the IdpSdk side orchestrates (`compare --variant`): 1, 2 and 3 run the check again with another.
    public var variant: ParityCheck.Variant = .guide
    /// The faults panel had switches set otherwise than the scenario's when the check started: they do not reach
    /// its worlds (the scenario's faults do), and the report says so.
    public var panelFaultsIgnored = false

    /// The variants in the order their digits pick them (`compare --variant`'s order), with the help bar's word for
    /// each, which the title repeats for any but the first.
    static let variantWords: [(variant: ParityCheck.Variant, word: String)] = zip(
        ParityCheck.Variant.allCases, ["guide", "as written", "wrong"]).map { ($0, $1) }

    public var running: Bool { report == nil }
    public var differences: Int { report?.differenceCount ?? 0 }

    /// The rows the report's lines get in a panel of `height` rows: the last one goes to the note of how many lines
    /// are above and below when they do not all fit.
    static func rows(for lines: Int, in height: Int) -> Int { lines > height ? max(1, height - 1) : height }

    /// The report's lines at `width` columns.
    /// `stacked`: one side under the other (plain mode), not side by side.
    func lines(width: Int, stacked: Bool = false) -> [String] {
        guard let report, stacked else { return markedLines(width: width).map(\.text) }
        return ignoredFaultsNote(width: width) + ParityText.stackedLines(report, width: max(40, width))
    }

    /// The report's lines side by side, each with its verdict (a case's heading, a difference), which the
    /// terminal colours.
    func markedLines(width: Int) -> [ParityText.Line] {
        guard let report else { return [ParityText.Line(text: "Running the same cases through the IdpSdk orchestration and through KSSIDP…", agrees: nil)] }
        return ignoredFaultsNote(width: width).map { ParityText.Line(text: $0, agrees: nil) } + ParityText.markedLines(report, width: max(40, width))
    }

    /// The status line says "⚡ N faults on" beside a report that they did not touch.
    private func ignoredFaultsNote(width: Int) -> [String] {
        guard panelFaultsIgnored else { return [] }
        // Plain mode has no panel (its faults question), and a session without --scenario has no scenario file.
        let note = "The faults switched in this session did not apply: the check runs on worlds of its own, with the "
            + "scenario's own faults only (docs/migration.md)."
        return ParityText.wrapText(note, width: max(40, width)) + [""]
    }
}

extension TerminalApp {
    /// Starts the parity check (off this thread, on worlds of its own: this device is not touched); the report
    /// replaces the screen's placeholder when it arrives.
    func openComparison(variant: ParityCheck.Variant = .guide) {
        refreshFaults()
        let ignored = !service.world.hasTheScenariosFaults
        state.screen = .comparison(ComparisonState(variant: variant, panelFaultsIgnored: ignored))
        service.compareOrchestrations(variant: variant)
    }

    /// The report of the variant asked for last (one asked for before it may still arrive: it is not shown).
    func showComparison(_ report: ParityReport) {
        guard case .comparison(let shown) = state.screen, shown.running, report.variant == shown.variant.rawValue else { return }
        state.screen = .comparison(ComparisonState(report: report, variant: shown.variant, panelFaultsIgnored: shown.panelFaultsIgnored))
    }

    func handleComparison(_ key: Key, _ comparison: inout ComparisonState) {
        // The body as AppView lays it out (the screen less its border and margins): it scrolls until its last line
        // is on the panel's last row.
        let count = comparison.lines(width: state.width - 4).count
        let rows = ComparisonState.rows(for: count, in: AppView.mainPanelHeight(state) - 2)
        let last = max(0, count - rows)
        // A page is the rows shown less one, kept in view (it was 8 lines whatever the height: under half of 34).
        let page = max(1, rows - 1)
        switch key {
        case .escape, .enter, .character("q"):
            state.screen = .home
            return
        // The variants by number, as `compare --variant` names them: the guide's code as written shows why its Step 3
        // needs its guard, which only the command line showed (a tester).
        case .character(let digit) where digit.wholeNumberValue.map { ComparisonState.variantWords.indices.contains($0 - 1) } == true:
            let variant = ComparisonState.variantWords[(digit.wholeNumberValue ?? 1) - 1].variant
            if variant != comparison.variant || !comparison.running { openComparison(variant: variant) }
            return
        // j and k as in the history and the log, space and b as in less (a tester's j did nothing here).
        case .up, .character("k"): comparison.scroll = max(0, comparison.scroll - 1)
        case .down, .character("j"): comparison.scroll = min(last, comparison.scroll + 1)
        case .pageUp, .character("b"): comparison.scroll = max(0, comparison.scroll - page)
        case .pageDown, .character(" "): comparison.scroll = min(last, comparison.scroll + page)
        case .home: comparison.scroll = 0
        case .end: comparison.scroll = last
        default: break
        }
        state.screen = .comparison(comparison)
    }
}

extension AppView {
    static func drawComparison(_ buffer: inout ScreenBuffer, _ comparison: ComparisonState, _ area: Panel) {
        let lines = comparison.markedLines(width: area.width)
        let rows = ComparisonState.rows(for: lines.count, in: area.height)
        let first = min(comparison.scroll, max(0, lines.count - rows))
        for (offset, line) in lines.dropFirst(first).prefix(rows).enumerated() {
            let role: Role = switch line.agrees { case true?: .success; case false?: .error; case nil: .text }
            buffer.put(line.text, row: area.top + offset, column: area.left, role: role, limit: area.width)
        }
        // The report runs to some 60 lines: say how many are out of view, and how to reach them.
        if rows < lines.count {
            let below = lines.count - first - rows
            let more = [first > 0 ? "↑ \(first) above" : nil, below > 0 ? "↓ \(below) more" : nil].compactMap { $0 }.joined(separator: " · ")
            buffer.put(more + " (↑↓ PgUp PgDn Home End)", row: area.top + area.height - 1, column: area.left, role: .hint, limit: area.width)
        }
    }
}
