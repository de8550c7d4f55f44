// `z` on the sequence diagram: it takes the main panel's rows too, as `z` in the focused log does. The screen behind
// does not take keys while it is hidden (Enter on a hidden result went home).
extension AppState {
    /// Whether the diagram shows zoomed now: the diagram, not the list, with no focus in the log.
    var isDiagramZoomed: Bool { diagramZoomed && logAsSequence && logFocus == nil }
}

extension TerminalApp {
    /// Zooms the diagram, where it shows and `z` is not typed: not while a form or a choice waits behind (its
    /// prompt's time running), as the focused log's zoom is not.
    func zoomDiagram() -> Bool {
        guard state.logAsSequence, state.logFocus == nil, !state.isAsking, state.logTakesV, AppView.logRows(state) > 0 else { return false }
        state.diagramZoomed = true
        scrollLog(by: 0)
        return true
    }

    /// The zoomed diagram's keys; false for those that act as anywhere (Tab and F6 into the log, zoomed too; help;
    /// the faults panel; Ctrl-C).
    func handleZoomedDiagram(_ key: Key) -> Bool {
        switch key {
        case .character("z"), .escape, .character("q"): state.diagramZoomed = false
        // The list, as v shows it from the diagram.
        case .character("v"):
            state.diagramZoomed = false
            state.logAsSequence = false
            state.logScroll = 0
        case .up, .character("k"): scrollLog(by: 1)
        case .down, .character("j"): scrollLog(by: -1)
        case .pageUp, .pageDown, .character(" "), .character("b"): pageLog(down: key == .pageDown || key == .character(" "))
        case .home: scrollLog(by: Int.max / 2)
        case .end: state.logScroll = 0
        case .tab, .f6, .f1, .f2, .character("?"), .character("f"): return false
        default: state.notice = AppState.diagramZoomedNotice
        }
        return true
    }
}

extension AppState {
    static let diagramZoomedNotice = "the diagram is zoomed: z or esc shows the screen again"
}
