import FlowCatalog
import FlowEngine
import IdpSdk
import SafepayDropsSDK

/// An entry of the home menu: a flow the families offer (``FlowCatalog/menuKinds``), under its title, then the
/// KSSIDP comparison and Quit.
public struct MenuItem: Sendable, Equatable {
    public let title: String
    /// The flow it starts; nil for the comparison and Quit.
    let flow: FlowKind?

    private init(title: String, flow: FlowKind?) {
        self.title = title
        self.flow = flow
    }

    /// The item that starts `kind`.
    public static func flow(_ kind: FlowKind) -> MenuItem { MenuItem(title: kind.title, flow: kind) }
    public static let kssidpComparison = MenuItem(title: "KSSIDP comparison", flow: nil)
    public static let quit = MenuItem(title: "Quit", flow: nil)

    /// The menu, top to bottom.
    public static let all: [MenuItem] = FlowCatalog.menuKinds.map(flow) + [kssidpComparison, quit]
}

/// The credential form of one prompt: a field per requested id, then Submit and Cancel.
public struct FormState: Sendable {
    public let prompt: FlowPrompt
    public var inputs: [TextInput]
    /// 0..<fields: a field; fields: Submit; fields + 1: Cancel.
    public var focus = 0
    public var error: String?
    /// A line under the hint (Q2: why the saved credential was not used).
    public var note: String?
    /// The demo user F4 fills in next.
    var demoUser = 0
    /// The user name F4 last put in the username field, until a key edits that field: F4 again goes on to the
    /// next user; a name typed, even the same one again, is the user F4 fills in.
    var filledName: String?
    /// Plain mode: `?` listed the demo users, and the question is which one fills the form.
    var choosingDemoUser = false

    /// A form with its fields empty, but the user name the app already knows (a login's: the device's user);
    /// `focusFirstEmpty`: the focus on the first field still empty (the password then), else on the first.
    init(prompt: FlowPrompt, note: String? = nil, focusFirstEmpty: Bool = false) {
        self.prompt = prompt
        self.note = note
        inputs = prompt.fields.map { TextInput(masked: $0.isSecret) }
        if let known = (prompt.request as? any CredentialForm)?.knownUsername,
           let index = prompt.fields.firstIndex(of: .username) {
            inputs[index].insert(known)
        }
        if focusFirstEmpty { focus = inputs.firstIndex { $0.isEmpty } ?? fieldCount }
    }

    var fieldCount: Int { prompt.fields.count }
}

/// What the main panel shows.
public enum ScreenState: Sendable {
    case home
    case form(FormState)
    case payment(PaymentFormState)
    case challenge(ChallengeState)
    /// A choice a form opens on (``ChoosingForm``: Q2's saved credential: continue, another account, forget it).
    case choice(ChoiceState)
    case working(flowID: Int, flow: FlowKind, step: String)
    case result(FlowResult)
    case history(HistoryState)
    case comparison(ComparisonState)
    case transcript(TranscriptState, returnTo: HistoryState)
}

extension ScreenState {
    /// The working screen's step once the user has cancelled (Esc at a prompt, or while the flow works): it stays
    /// until the result, and plain mode prints no "working…" heading for it.
    static let cancellingStep = "cancelling…"

    /// The working screen of a flow the user has cancelled.
    var isCancelling: Bool {
        if case .working(_, _, let step) = self { return step == Self.cancellingStep }
        return false
    }

    /// Wipes every text field the screen holds, in place (the screen should hold the only reference).
    mutating func wipeInputs() {
        switch self {
        case .form(var form):
            self = .home
            for index in form.inputs.indices { form.inputs[index].clear() }
        case .payment(var form):
            self = .home
            for index in form.inputs.indices { form.inputs[index].clear() }
        case .challenge(var challenge):
            self = .home
            challenge.code.clear()
        default:
            break
        }
    }
}

/// Everything the view draws.
public struct AppState: Sendable {
    public var screen: ScreenState = .home {
        didSet { resultScroll = 0 }
    }
    /// The first line of a result's rows shown, when they do not all fit (↑↓ scroll them).
    public var resultScroll = 0
    public var menuSelection = 0
    /// The user name last filled in by the test-data key or submitted, and in which flow: a later form of that
    /// flow that asks no user name (activation's code) is for the same user.
    var lastUser: (flowID: Int, name: String)?
    public var log: [FlowEvent] = []
    /// For each kind of flow (its name), the longest label each pair of its parties drew in its past flows, this
    /// session's (gathered as each ends) and the history's (read once a session, ``laneHintsRead``): the sequence view
    /// spaces a running flow's lanes for them too (``SequencePane``).
    var laneHints: [String: [SequencePane.Arrow]] = [:]
    /// The kinds whose past flows the history has been read for.
    var laneHintsRead: Set<String> = []
    /// How many log lines the pane is scrolled up from the newest.
    public var logScroll = 0
    public var showHelp = false {
        didSet { helpScroll = 0 }
    }
    /// The first line of the help overlay shown, when it does not fit.
    public var helpScroll = 0
    public var width: Int
    public var height: Int
    public var tenant: String
    public var idpHost: String
    public var deviceStatus: String
    /// A one-off message for the status line, cleared by the next key.
    public var notice: String?
    /// Lines plain mode prints once, above the question asked again (the test cards, asked for with `?`).
    public var plainListing: [String] = []
    /// Plain mode spells its text in ASCII (a locale that is not UTF-8): listings are laid out in that spelling.
    var plainASCII = false
    /// Plain mode asks the form's fields in turn, the first one first, even when it is filled (`Username [alice]: `).
    var plain = false
    public var runningFlow: Int?
    /// Plain mode's last warning before a prompt times out: the prompt's deadline and the point said (30 s, 10 s).
    var plainWarned: (deadline: ContinuousClock.Instant, point: Duration)?
    /// Plain mode has said that the cancel begun then is still being carried out.
    var plainSaidCancelling: ContinuousClock.Instant?
    /// The wait for the state file's lock plain mode has said (once a wait).
    var plainSaidLockWait: ContinuousClock.Instant?
    /// The flow on screen before its result: at a prompt or working.
    public var flowInProgress: FlowKind? {
        switch screen {
        case .form(let form): form.prompt.flow
        case .payment(let form): form.prompt.flow
        case .challenge(let challenge): challenge.prompt.flow
        case .choice(let choice): choice.prompt.flow
        case .working(_, let flow, _): flow
        case .home, .result, .history, .transcript, .comparison: nil
        }
    }
    /// The faults panel, when open.
    public var faultsPanel: FaultsPanelState?
    /// The log is drawn as a sequence diagram (`v`).
    public var logAsSequence = false
    /// `z` on the diagram: it takes the main panel's rows too, as the focused log's zoom does (``isDiagramZoomed``).
    public var diagramZoomed = false
    /// The event log has the focus (Tab): a selection, a filter, the detail view.
    public var logFocus: LogFocusState?
    /// The card form's test-card picker, when open (F4).
    public var cardPicker: CardPickerState?
    /// The switch the faults panel had the focus on when it was closed: it opens there again.
    var lastFaultFocus = 0
    /// The width plain mode lays its comparison out in: 78, or a narrower terminal's (its lines were wrapped again).
    public var plainWidth = 78
    /// The question plain mode's menu has open in its place: the faults (`f`) or the history (`h`).
    var plainMenuQuestion: PlainMenuQuestion?
    /// Plain mode's menu has been listed and answered: it comes back as one line, as bash's `select` asks again
    /// without its list (13 lines after every result and question, for a screen reader to hear again).
    var plainMenuListed = false
    /// The number of the test card the picker last filled in: the picker opens on it.
    public var lastTestCard: String?
    /// The card and expiry of the last payment paid with, which the next card form starts with (memory only).
    public var lastCard: LastCard?
    /// The call a flow waits on (the innermost request not answered yet), and since when.
    public var inFlight: (what: String, since: ContinuousClock.Instant)? {
        get { callsInFlight.last.map { ($0.what, $0.since) } }
        set { callsInFlight = newValue.map { [InFlightCall(what: $0.what, since: $0.since, answeredBy: nil)] } ?? [] }
    }
    /// The requests not answered yet, outermost first: an SDK's request to its server sits on the app's call to
    /// the SDK, which is waited on again once that request is answered.
    var callsInFlight: [InFlightCall] = []
    /// The widest values of the events the log has held, for its columns (they only grow: an event let go at the
    /// log's limit leaves its width, so nothing moves).
    var logWidest = LogPane.Widest()
    /// How a shell command names the state file (" --state=FILE", empty for the default); nil in memory
    /// (`--ephemeral`), where no command reaches the history.
    var stateOption: String?
    /// Each finished flow's id in the history, by its number in this session (the log's rules name both).
    var historyIDs: [Int: Int] = [:]
    /// The flows whose result has come, and the events that came after their flow's result (KSSIDP's, which goes on
    /// after a cancel): plain mode names their flow, as they may come while another flow runs.
    var endedFlows: Set<Int> = []
    /// The demo users' names, which plain mode's demo-user question takes, made when first asked.
    var demoUserNames: Set<String>?
    var lateEvents: Set<Int> = []
    /// The time the screen was last drawn for (elapsed times are measured to it).
    public var now = ContinuousClock.now
    /// When the flow on the working screen was cancelled (its step ``ScreenState/cancellingStep``): a cancel that
    /// its SDK takes a while to carry out (a payment's cancel CReq to a slow ACS) says how long it has waited.
    public var cancellingSince: ContinuousClock.Instant?
    /// The last event the log held when the flow was cancelled: a fault after it struck the cancel's own request.
    var cancelledAfterEvent: Int?
    /// Since when a flow's work or its record has waited for another process's lock on the state file (read from the
    /// history at each tick of the working screen); nil while nothing waits.
    public var stateFileLockedSince: ContinuousClock.Instant?
    /// Since when the state file, being opened as the session starts, has waited for another process's lock; nil
    /// once the service is built, or while nothing waits.
    public var startupLockedSince: ContinuousClock.Instant?
    /// What the status line says of a wait for the lock as the session starts.
    public static let startupLockText = "another process locks the state file"
    /// What the working screen and plain mode say of such a wait.
    static let lockWaitText = "waiting for the state file: another process holds its lock"
    /// How long such a wait goes before the working screen says it (most end within a moment).
    static let lockShownAfter: Duration = .milliseconds(500)
    /// How long a cancel goes before the working screen counts its time and offers to stop waiting.
    static let cancelShownAfter: Duration = .seconds(1)
    /// What a key typed while a flow works is told; the prompt that comes takes the notice away.
    static let notKeptWhileWorking = "not kept: no form open yet"
    /// When the result of a flow whose cancel had been waiting (its time counted, a second Esc offered) replaced the
    /// working screen: an Esc meant to stop waiting that comes just after it must not dismiss it unseen.
    var resultAfterWaitedCancel: ContinuousClock.Instant?
    /// How long after such a result an Esc is taken as the late second Esc, and kept from going back.
    static let lateEscape: Duration = .milliseconds(500)
    /// Where and when the last press on something was: a second press on the same cell (or one beside it) soon
    /// after is the rest of a double-click, and is not a click on what the first one brought (a result's Back
    /// twice went Home and then pressed Quit, which is on the same row).
    var lastClick: (row: Int, column: Int, at: ContinuousClock.Instant)?
    /// How soon a second press on the same cell is a double-click's (GNOME's and Windows' default range).
    static let doubleClick: Duration = .milliseconds(500)

    /// Whether Tab gives the event log the focus: on the screens without fields (a form's Tab moves between them).
    var logTakesTab: Bool {
        switch screen {
        case .home, .working, .result: true
        default: false
        }
    }

    /// What the help lists: the keys of what is under it (its help bar's, whole), then every key.
    var helpOverlayKeys: [(String, String)] {
        var under = self
        under.showHelp = false
        return HelpBar.overlayKeys(screen: AppView.helpKeys(under))
    }

    /// Whether `v` switches the log between its list and the diagram: where Tab reaches the log, and on a challenge
    /// with no code field (its keys are arrows, space, a and r, Enter), where watching CReq and CRes is the point.
    var logTakesV: Bool {
        if logTakesTab { return true }
        if case .challenge(let challenge) = screen { return challenge.screen.uiType != .text }
        return false
    }

    /// Whether the working screen says it waits for the state file's lock, at `now`.
    func showsLockWait(at now: ContinuousClock.Instant) -> Bool {
        guard case .working = screen, let since = stateFileLockedSince else { return false }
        return since.duration(to: now) >= Self.lockShownAfter
    }

    /// Whether the status line says that the state file, opening, waits for another process's lock, at `now`.
    func showsStartupLockWait(at now: ContinuousClock.Instant) -> Bool {
        startupLockedSince.map { $0.duration(to: now) >= Self.lockShownAfter } ?? false
    }

    /// The working screen of a flow being cancelled.
    mutating func showCancelling(flowID: Int, flow: FlowKind) {
        screen = .working(flowID: flowID, flow: flow, step: ScreenState.cancellingStep)
        cancellingSince = .now
        cancelledAfterEvent = log.last?.sequence
    }
    /// When the prompt last shown times out (`--prompt-timeout`, 300 s by default), if it does.
    public var promptDeadline: ContinuousClock.Instant?
    /// A prompt's last seconds are counted down on the status line.
    static let countdownFrom: Duration = .seconds(30)
    /// The families' fault switches as they are (a copy, for drawing), in the panel's order.
    public var faultSwitches: [FaultSwitchState] = []

    public static let logLimit = 2000

    /// A prompt is on screen: a form, the card form, a challenge or a form's choice.
    var isAsking: Bool {
        switch screen {
        case .form, .payment, .challenge, .choice: true
        default: false
        }
    }

    /// The time left to answer the prompt on screen (a form, the card form, a challenge, a form's choice), when it times out.
    func promptTimeLeft(at now: ContinuousClock.Instant) -> Duration? {
        guard let deadline = promptDeadline else { return nil }
        switch screen {
        case .form, .payment, .challenge, .choice: return max(.zero, now.duration(to: deadline))
        default: return nil
        }
    }

    /// q quits: the home screen with nothing over it.
    var quitsOnQ: Bool {
        guard case .home = screen, !showHelp, faultsPanel == nil, cardPicker == nil, logFocus == nil else { return false }
        return true
    }

    /// The terminal is under the smallest size drawn: "terminal too small" replaces the screen, and input but
    /// Ctrl-C is dropped, since it would act on a screen that cannot be seen.
    public var isTooSmall: Bool { width < AppView.minimumWidth || height < AppView.minimumHeight }
}

/// A request in flight, and the reply that answers it (the same step, from its receiver back to its sender).
struct InFlightCall {
    let what: String
    let since: ContinuousClock.Instant
    let answeredBy: (from: String, to: String, step: String)?
}
