import FlowCatalog
import FlowEngine
import FlowRecords
import LocaleText
import PaymentFlows

/// Draws the app's state: title row, the main panel, the SDK event log, the status line and the help bar.
public enum AppView {
    public static let minimumWidth = 60
    public static let minimumHeight = 18
    /// Rows of the main panel, border included; the log pane takes the rest.
    static let mainHeight = 11

    /// The main panel's rows, border included; the log pane has the rest but the status and help rows. Half the
    /// terminal, and at least what the menu needs; but on a terminal under 24 rows, where that would leave the log
    /// fewer than 7 events (one at 60×18), a form and the working screen take only the rows they use. The KSSIDP
    /// comparison takes the log's rows too: its events do not go into the log, and its report runs to some 60 lines;
    /// so does a past flow's transcript, which is that flow's log (at 80×24 it showed 2 of a failed login's 14
    /// events under its header and error, over the live log's nine rows).
    static func mainPanelHeight(_ state: AppState) -> Int {
        // The log zoomed (`z`): the panel is its frame and title alone.
        if state.logFocus?.zoomed == true || state.isDiagramZoomed { return 2 }
        switch state.screen {
        case .comparison, .transcript: return state.height - 3
        default: break
        }
        let half = max(mainHeight, (state.height - 3) / 2)
        guard state.height < 24 else { return half }
        switch state.screen {
        // Working…, a blank, the call in flight (two lines when wrapped), Esc's hint.
        case .working: return min(half, 7)
        // The hint (two lines), the fields, a blank, the buttons and an error under them; at least two fields'
        // worth, so that activation's one-field second page does not move the log.
        case .form(let form): return min(half, max(2, form.fieldCount) + 7)
        default: return half
        }
    }

    /// The main panel's inside, where each screen draws (its frame takes a row or column on each side).
    static func innerPanel(_ state: AppState) -> Panel {
        (top: 2, left: 2, width: state.width - 4, height: mainPanelHeight(state) - 2)
    }

    /// Events the log pane lists at once (its frame and header take three rows).
    static func logRows(_ state: AppState) -> Int { max(0, state.height - 2 - (1 + mainPanelHeight(state)) - 3) }

    public static func render(_ state: AppState) -> ScreenBuffer {
        var buffer = ScreenBuffer(width: state.width, height: state.height)
        guard !state.isTooSmall else {
            drawTooSmall(&buffer, state)
            return buffer
        }
        let width = state.width
        buffer.put(" idp-tui · \(family(state))", row: 0, column: 0, role: .title)
        let mainHeight = mainPanelHeight(state)
        Frame.draw(&buffer, top: 1, left: 0, width: width, height: mainHeight, title: panelTitle(state))
        let inner = innerPanel(state)
        switch state.screen {
        case _ where inner.height <= 0: break  // The log zoomed over it.
        case .home: drawHome(&buffer, state, inner)
        // A form that came while the log had the keys (a filter typed) shows no focus of its own until it has them.
        case .form(var form):
            if state.logFocus != nil { form.focus = Int.max }
            // A later page (activation's code, a password asked on its own) names the user the first page sent.
            let named = state.lastUser.flatMap { $0.flowID == form.prompt.flowID && !form.prompt.fields.contains(.username) ? $0.name : nil }
            drawForm(&buffer, form, inner, named: named)
        case .payment(var form):
            if state.logFocus != nil { form.focus = Int.max }
            drawPayment(&buffer, form, inner)
        case .challenge(let challenge): drawChallenge(&buffer, challenge, inner, hasKeys: state.logFocus == nil)
        case .choice(let choice): drawChoice(&buffer, choice, inner, focused: state.logFocus == nil)
        case .working(let flowID, let flow, let step): drawWorking(&buffer, flowID, flow, step, state, inner)
        case .result(let result): drawResult(&buffer, result, scroll: state.resultScroll, focused: state.logFocus == nil, inner)
        case .history(let history): drawHistory(&buffer, history, inner, focused: state.logFocus == nil)
        case .transcript(let transcript, _): drawTranscript(&buffer, transcript, inner, focused: state.logFocus == nil)
        case .comparison(let comparison): drawComparison(&buffer, comparison, inner)
        }
        drawLog(&buffer, state, top: 1 + mainHeight)
        drawStatus(&buffer, state, row: state.height - 2)
        HelpBar.draw(&buffer, row: state.height - 1, keys: helpKeys(state))
        if let panel = state.faultsPanel { drawFaultsPanel(&buffer, state, panel) }
        if let picker = state.cardPicker { drawCardPicker(&buffer, picker) }
        if case .transcript(let transcript, _) = state.screen {
            drawTranscriptSequence(&buffer, transcript)
            drawTranscriptDetail(&buffer, transcript)
        }
        if let focus = state.logFocus, let scroll = focus.detail {
            let events = state.listedEvents
            // The filter may match nothing any more (the log keeps the newest 2,000 events only).
            if !events.isEmpty {
                drawEventDetail(&buffer, events[AppState.selectedIndex(focus, in: events)], scroll: scroll, historyIDs: state.historyIDs,
                                formWaiting: state.isAsking)
            }
        }
        // The keys go to the log: no cursor waits in a form's field behind it (one that came while it had them).
        if state.logFocus != nil { buffer.cursor = nil }
        if state.showHelp {
            HelpBar.drawOverlay(&buffer, scroll: state.helpScroll, keys: state.helpOverlayKeys)
            buffer.cursor = nil
        }
        return buffer
    }

    private typealias Area = (top: Int, left: Int, width: Int, height: Int)

    /// The SDK family of the flow on screen, as its kind names it (the first family's on the home screen).
    private static func family(_ state: AppState) -> String {
        // A past flow's transcript names its own family (a payment's diagram sat under "IdpSdk on MC-SDK").
        let flow: FlowKind? = switch state.screen {
        case .transcript(let transcript, _): transcript.events.first?.flow ?? FlowCatalog.kind(named: transcript.record.summary.flow)
        case .result(let result): result.flow
        default: state.flowInProgress
        }
        return [flow?.sdk, FlowCatalog.kinds.first?.sdk].compactMap { $0 }.first { !$0.isEmpty } ?? "idp-tui"
    }

    /// A past flow's title, with the shell command that exports it where it fits: the UI said nowhere that the
    /// title's number is the ID `history export` takes (a tester). With the state file's `--state` (`stateOption`),
    /// and none in memory (`--ephemeral`), where no command reaches the flow.
    static func transcriptTitle(_ id: Int, width: Int, stateOption: String?) -> String {
        guard let command = exportCommand(id, stateOption: stateOption) else { return "Flow \(id)" }
        return ["Flow \(id) · export: \(command)", "Flow \(id) · \(command)"].first { CharacterWidth.of($0) <= width - 6 } ?? "Flow \(id)"
    }

    /// The shell command that exports flow `id` of the state file `stateOption` names; nil in memory.
    static func exportCommand(_ id: Int, stateOption: String?) -> String? {
        stateOption.map { "idp-tui history export \(id) --format mermaid\($0)" }
    }

    /// "KSSIDP comparison", with the variant's number and the help bar's word for it when it is not the guide's
    /// (1-3 pick it): short, so that the count of differences stays whole at 60 columns.
    private static func comparisonName(_ comparison: ComparisonState) -> String {
        guard let index = ComparisonState.variantWords.firstIndex(where: { $0.variant == comparison.variant }), index > 0 else {
            return "KSSIDP comparison"
        }
        return "KSSIDP comparison · \(index + 1) \(ComparisonState.variantWords[index].word)"
    }

    private static func panelTitle(_ state: AppState) -> String {
        switch state.screen {
        // The question is the title: the entries take every row (nine in the nine rows at 80×24).
        case .home: "What would you like to do?"
        case .form(let form): form.prompt.title
        case .payment(let form): form.prompt.title
        case .challenge(let challenge): challenge.prompt.title
        case .choice(let choice): choice.prompt.title
        case .working(_, let flow, _): flow.title
        case .result(let result): result.flow.title
        // A filter first, with its count: the end typed and the cursor kept in sight.
        case .history(let history) where history.editingFilter || !history.filter.isEmpty:
            "History — /\(CharacterWidth.of(history.filter) > 24 ? "…" + CharacterWidth.suffix(history.filter, fitting: 23) : history.filter)"
                + "\(history.editingFilter ? "▏" : "") · \(history.entries.count) of \(history.olderNotShown ? "the newest " : "")\(history.all.count) flows"
        case .history(let history) where history.olderNotShown:
            // No command under --ephemeral (none reads this session's memory), as for the export line.
            "History — the newest \(history.entries.count) flows"
                + (state.stateOption.map { "; idp-tui history --before \(history.all.last?.id ?? 1)\($0) lists older ones" } ?? "")
        case .history(let history): "History — \(history.entries.count) \(history.entries.count == 1 ? "flow" : "flows")"
        case .transcript(let transcript, _): transcriptTitle(transcript.record.summary.id, width: state.width, stateOption: transcript.stateOption)
        case .comparison(let comparison) where comparison.running: "\(comparisonName(comparison)) — running…"
        case .comparison(let comparison) where comparison.report?.notRun != nil: "\(comparisonName(comparison)) — not run"
        case .comparison(let comparison):
            "\(comparisonName(comparison)) — " + (comparison.differences == 0 ? "the orchestrations agree" : "\(comparison.differences) \(comparison.differences == 1 ? "difference" : "differences")")
        }
    }

    // MARK: Home

    private static func drawHome(_ buffer: inout ScreenBuffer, _ state: AppState, _ area: Area) {
        // Every row is the entries' (the question is the panel's title): under it, nine did not fit the seven rows left
        // at 80×24. An entry's title is cut only where the panel is narrower than it ("▸ 4 " before it, and two
        // columns for a list's arrows where some are hidden).
        let titles = MenuItem.all.map(\.title)
        let widest = (titles.map { CharacterWidth.of($0) }.max() ?? 0) + 6
        ChoiceList.draw(&buffer, titles, selection: state.menuSelection, top: area.top, left: area.left,
                        width: min(area.width, max(30, widest)), rows: area.height, focused: state.logFocus == nil)
    }

    // MARK: Form

    private static func drawForm(_ buffer: inout ScreenBuffer, _ form: FormState, _ area: Area, named: String? = nil) {
        let asked = form.prompt.fields.map(\.key).joined(separator: ", ")
        // A note too long for the row under a banner takes two, and the fields move down into the blank row
        // above the buttons, so that it is read whole ("… (the saved credential is kept).").
        var shift = 0
        let request = form.prompt.request as? any CredentialForm
        if let request, request.hint != nil || request.banner != nil || form.note != nil {
            // Two rows above the fields: the banner and the note, or the note (why no auto-login) wrapped over both,
            // or the form's own hint.
            if let banner = request.banner {
                buffer.putWrapped("⚠ \(banner)", row: area.top, column: area.left, width: area.width, role: .error)
                if let note = form.note {
                    shift = Wrap.lines(note, width: area.width).count > 1 ? 1 : 0
                    buffer.putWrapped(note, row: area.top + 1, column: area.left, width: area.width, lines: 1 + shift, role: .hint)
                }
            } else if let note = form.note {
                buffer.putWrapped(note, row: area.top, column: area.left, width: area.width, lines: 2, role: .hint)
            } else {
                buffer.putWrapped(request.hint ?? "", row: area.top, column: area.left, width: area.width, role: .hint)
            }
        } else {
            // Who asks, as the form says (the IdP's form: the IdpSdk and its client); else the flow (it read "The IdpSdk
            // asks for … (client )").
            let whose = named.map { "\(VisibleText.escaped($0))'s \(asked)" } ?? asked
            let hint = request?.askedBy.map { "\($0.who) asks for \(whose) (\($0.identified))" }
                ?? "\(form.prompt.flow.title) asks for \(whose)"
            buffer.putWrapped(hint, row: area.top, column: area.left, width: area.width, lines: 2, role: .hint)
        }
        let labelWidth = form.prompt.fields.map { CharacterWidth.of(TerminalApp.label($0)) }.max() ?? 0
        let boxLeft = area.left + labelWidth + 4
        let boxWidth = max(8, min(40, area.width - labelWidth - 5))
        for (index, field) in form.prompt.fields.enumerated() {
            let row = area.top + 2 + shift + index
            let focused = form.focus == index
            buffer.put(TerminalApp.label(field), row: row, column: area.left, role: focused ? .title : .label)
            drawInput(&buffer, form.inputs[index], focused: focused, row: row, left: boxLeft,
                      width: boxWidth)
            buffer.targets.append(ClickTarget(row: row, column: area.left, width: boxLeft + boxWidth + 1 - area.left, stop: index))
        }
        let buttonRow = area.top + 3 + form.fieldCount
        drawButtons(&buffer, [("Submit", form.focus == form.submitIndex), ("Cancel", form.focus == form.cancelIndex)],
                    row: buttonRow, left: boxLeft, firstStop: form.submitIndex)
        if let error = form.error {
            // Beside the field it is about (where the focus went), and under the buttons when that is too narrow.
            let column = boxLeft + boxWidth + 2
            let room = area.left + area.width - column
            if let field = form.focusedField, room >= 16 {
                let lines = Wrap.lines(error, width: room)
                for (offset, line) in lines.prefix(2).enumerated() {
                    buffer.put(line, row: area.top + 2 + shift + field + offset, column: column, role: .error, limit: room)
                }
            } else {
                // On two rows where it needs them and the panel has them ("Not typed: …" was cut at 80 columns), and
                // from the panel's left edge where it does not fit under the buttons (a KSSIDP form's at 60×18).
                let rows = max(1, min(2, area.top + area.height - buttonRow - 1))
                let fits = Wrap.lines(error, width: area.left + area.width - boxLeft).count <= rows
                let column = fits ? boxLeft : area.left
                buffer.putWrapped(error, row: buttonRow + 1, column: column, width: area.left + area.width - column, lines: rows, role: .error)
            }
        }
    }

    /// One field: `› [characters…    ]`. Focus shows on the marker and the brackets; the characters
    /// themselves (• for a secret, one per character) are drawn plain, so that typing one costs the terminal
    /// only the character: the bytes of an attribute change would dwarf it. The terminal cursor sits at the
    /// insertion point of the focused field.
    /// A field's box: its text, or a dot for each character where the input is masked (``TextInput/masked``).
    static func drawInput(_ buffer: inout ScreenBuffer, _ input: TextInput, focused: Bool, row: Int, left: Int, width: Int) {
        let secret = input.masked
        let frame: Role = focused ? .fieldFocused : .fieldBlurred
        buffer.put(focused ? "›" : " ", row: row, column: left - 2, role: frame)
        buffer.put("[", row: row, column: left - 1, role: frame)
        buffer.put("]", row: row, column: left + width, role: frame)
        let shown: [Character] = secret ? Array(repeating: "•", count: input.characters.count) : input.characters
        // Scroll so that the cursor stays in the box.
        var start = 0
        while CharacterWidth.of(String(shown[start..<input.cursor])) > width - 1 { start += 1 }
        buffer.put(String(shown[start...]), row: row, column: left, role: secret ? .mask : .text, limit: width)
        if focused {
            buffer.cursor = (row, left + CharacterWidth.of(String(shown[start..<input.cursor])))
        }
    }

    // MARK: Working and result

    private static func drawWorking(_ buffer: inout ScreenBuffer, _ flowID: Int, _ flow: FlowKind, _ step: String, _ state: AppState, _ area: Area) {
        buffer.put("Working…", row: area.top, column: area.left, role: .title)
        // The call in flight and how long it has taken, ticking; else what happened last.
        var line = step
        // Cancelling says so, not the call it abandons (nor the answer that carried the cancel to the SDK).
        if step != ScreenState.cancellingStep, let call = state.inFlight {
            let elapsed = max(.zero, call.since.duration(to: state.now))
            line = "waiting for \(call.what) · \(tenthsText(elapsed))"
        }
        // Cancelling: Esc again stops waiting for the SDK to carry the cancel out; one still at it after a second
        // says how long it has taken.
        let cancelling = step == ScreenState.cancellingStep
        let hint = cancelling ? "Esc again ends it at once, without the SDK's answer." : "Esc cancels the flow."
        if cancelling, let since = state.cancellingSince, case let elapsed = since.duration(to: state.now),
            elapsed >= AppState.cancelShownAfter
        {
            line = "cancelling… the SDK is ending the flow · \(tenthsText(elapsed))"
        }
        // Another process's lock on the state file, waited for longer than a moment: said, with its time, whatever
        // else waits on it (the SDK's step, the cancel, the flow's record), and one Esc stops waiting.
        var lockHint: String?
        if state.showsLockWait(at: state.now), let since = state.stateFileLockedSince {
            line = "\(AppState.lockWaitText) · \(tenthsText(since.duration(to: state.now)))"
            lockHint = "Esc stops waiting: the flow ends, and is not saved."
        }
        // Two lines, so that the ticking time is not cut off at 60 columns.
        let used = buffer.putWrapped(line, row: area.top + 2, column: area.left, width: area.width, lines: 2, role: .text)
        var hintRow = area.top + 4
        let bottom = area.top + area.height
        // A fault that struck the call waited on says why it waits, and how long it will ("request timeout: Q2 Core
        // does not answer within 30 s"): a tester watched the time count up to 30 s with nothing on screen saying so.
        // Between blank rows where the panel has them, packed where it has not (five rows at 60×18); the hint, which
        // the help bar repeats, goes first.
        // Notices after it (messages the bridge rejected, one per message the wrong-origin page posts) leave it shown.
        // While cancelling, one that struck the cancel's own request (a slow ACS at the cancel CReq), not the call the
        // cancel abandoned: the cancel's time counted up with nothing saying why.
        if state.inFlight != nil, let fault = state.log.last(where: { $0.step == .fault || !$0.step.isFaultNotice }),
           fault.flowID == flowID, fault.step == .fault, !cancelling || fault.sequence > state.cancelledAfterEvent ?? .max {
            let text = "⚡ \(fault.detail)"
            let spaced = area.top + 2 + used + Wrap.lines(text, width: area.width, atMost: 2).count + 3 <= bottom
            var row = area.top + 2 + used + (spaced ? 1 : 0)
            if row < bottom {
                row += buffer.putWrapped(text, row: row, column: area.left, width: area.width, lines: min(2, bottom - row), role: .logWarn)
            }
            hintRow = row + (spaced ? 1 : 0)
        }
        if hintRow < bottom { buffer.put(lockHint ?? hint, row: hintRow, column: area.left, role: .hint) }
    }

    /// A time that ticks on the working screen, to the tenth of a second: "4.2 s".
    static func tenthsText(_ elapsed: Duration) -> String {
        let tenths = elapsed.components.seconds * 10 + elapsed.components.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// A result as the result screen shows it: the headline and its rows of label, value and role, as the flow's
    /// family words it (``FlowResult/summary``).
    static func resultSummary(_ result: FlowResult) -> (headline: String, role: Role, rows: [(String, String, Role)]) {
        let summary = result.summary
        return (summary.headline, role(summary.tone), summary.rows.map { ($0.label, $0.value, role($0.tone)) })
    }

    private static func role(_ tone: ResultSummary.Tone) -> Role {
        switch tone {
        case .plain: .text
        case .success: .success
        case .failure: .error
        case .cancelled: .title
        }
    }

    /// The labels' column width of a result's rows.
    private static func resultLabelWidth(_ result: FlowResult) -> Int {
        max(14, (resultSummary(result).rows.map { CharacterWidth.of($0.0) }.max() ?? 0) + 2)
    }

    /// A result's rows as lines at a panel width: the label on a value's first line (empty after), the value wrapped.
    static func resultLines(_ result: FlowResult, width: Int) -> [(label: String, text: String, role: Role)] {
        let labelWidth = resultLabelWidth(result)
        return resultSummary(result).rows.flatMap { label, value, role in
            Wrap.lines(value, width: width - labelWidth).enumerated().map { (index, line) in (index == 0 ? label : "", line, role) }
        }
    }

    /// How many of a result's lines the panel shows at a terminal height (the headline, a blank and Back take three).
    static func resultRows(_ state: AppState) -> Int { max(1, mainPanelHeight(state) - 2 - 3) }

    /// `focused`: the keys are the result's (not the log's): Back is drawn as the focused button only then, so that
    /// the two highlights never say two places at once where Enter goes (lazygit dims the panel without the focus).
    private static func drawResult(_ buffer: inout ScreenBuffer, _ result: FlowResult, scroll: Int, focused: Bool, _ area: Area) {
        let (headline, headlineRole, _) = resultSummary(result)
        // Two lines when it does not fit (the blank row under it): cut, it lost its end, the status.
        buffer.putWrapped(headline, row: area.top, column: area.left, width: area.width, lines: 2, role: headlineRole)
        let lines = resultLines(result, width: area.width)
        let labelWidth = resultLabelWidth(result)
        let rows = area.height - 3
        let first = min(scroll, max(0, lines.count - rows))
        for (offset, line) in lines.dropFirst(first).prefix(rows).enumerated() {
            let row = area.top + 2 + offset
            buffer.put(line.label, row: row, column: area.left, role: .label)
            buffer.put(line.text, row: row, column: area.left + labelWidth, role: line.role, limit: area.width - labelWidth)
        }
        let bottom = area.top + area.height - 1
        buffer.put("[ Back ]", row: bottom, column: area.left, role: focused ? .buttonFocused : .buttonBlurred)
        buffer.targets.append(ClickTarget(row: bottom, column: area.left, width: 8, stop: 0))
        // Rows that do not fit: say so beside Back, as the help and the log do.
        let below = lines.count - first - rows
        if first > 0 || below > 0 {
            let more = below > 0 ? "↓ \(below) more \(below == 1 ? "line" : "lines") (↑↓)" : "↑ \(first) above (↑↓)"
            buffer.put(more, row: bottom, column: area.left + 10, role: .hint, limit: area.width - 10)
        }
    }
}
