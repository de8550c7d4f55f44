import Determinism
import Dispatch
import FlowRecords
import IdpTuiWorld
import Synchronization
import Threading

/// The flow engine: runs flows against one simulated device, one at a time and in order, and reports to a
/// front end through a mailbox it can poll. It knows nothing of any SDK: each flow belongs to a
/// ``FlowFamily``, which runs it; the engine schedules flows on the device's queue, carries their prompts
/// through the channel, their events and results through the mailbox, ends them on a cancel, and keeps their
/// history.
///
/// ```swift
/// let service = FlowService(environment: SimulationEnvironment())   // the catalog's, with every family
/// service.start(.activate)
/// while running {
///     _ = service.mailbox.waitForMessages()          // or poll(wakeFileDescriptor) beside the keyboard
///     service.deliverPendingMessages(to: frontEnd)   // events, prompts and results, on this thread
/// }
/// ```
public final class FlowService: Sendable {
    /// The simulated world the device lives in.
    public let world: SimulatedWorld
    /// The device's serial queue: every flow, and the SDKs' queues, run on it (docs/architecture.md).
    public let deviceQueue: DispatchQueue
    public let families: [any FlowFamily]
    /// How long a prompt waits for an answer (nil: for ever).
    public let promptTimeout: Duration?
    public let mailbox = ServiceMailbox()
    /// Where finished flows are kept, or nil to keep none (benchmarks).
    public let history: (any FlowHistory)?
    let channel: CredentialChannel
    /// Where every flow's code runs: the flow queue (`idp-tui.flow`), on the device's queue.
    package let flowExecutor: DispatchTaskExecutor
    /// Where a cancel ends a flow, not behind the call that may still hold the device.
    package let sideQueue = QueueName.makeSerialQueue("idp-tui.flow")
    /// A test's count of what can still run (the manual clock's ``PendingWork``); nil on the real clock.
    @usableFromInline let pendingWork: PendingWork?
    private let runs = Locked<[Int: FlowRun]>([:])
    /// What each flow whose record the history would not take said (``FlowResult/notSavedLine``), kept before the
    /// flow stops counting as active: a signal's handler reads it once the flows are idle, whether or not their
    /// results have reached a front end yet.
    private let unsaved = Locked<[String]>([])
    public var notSavedLines: [String] { unsaved.withLock { $0 } }
    /// The flows started and not yet running, in order, for the task that runs them in turn.
    private let lineup = FlowLineup()
    private let nextFlowID = Atomic(1)
    /// The run on the device now: faults that bite, and the servers' traffic, are reported in its log.
    private let current = Locked<FlowRun?>(nil)
    /// Runs with a call in flight that a cancel does not stop, in the order their calls began.
    private let unstoppable = Locked<[FlowRun]>([])

    public init(
        world: SimulatedWorld, deviceQueue: DispatchQueue, families: [any FlowFamily], promptTimeout: Duration? = .seconds(300),
        history: (any FlowHistory)? = MemoryFlowHistory()
    ) {
        self.world = world
        self.deviceQueue = deviceQueue
        self.families = families
        self.promptTimeout = promptTimeout
        self.history = history
        pendingWork = world.clock.pendingWork
        flowExecutor = DispatchTaskExecutor(queue: QueueName.makeSerialQueue("idp-tui.flow", target: deviceQueue))
        channel = CredentialChannel(mailbox: mailbox, clock: world.clock)
        // One listener per world: a second service on the same world takes the fault reports over.
        world.faults.onTrigger { [weak self] name in self?.reportFault(name) }
        for family in families { family.attach(to: self) }
    }

    /// The family of `T`, when the service has it.
    public func family<T: FlowFamily>(_ type: T.Type) -> T? {
        families.lazy.compactMap { $0 as? T }.first
    }

    /// The keys of the faults that can reach a flow of `kind` (``FlowFamily/faultKeys(reaching:)``).
    public func faultKeys(reaching kind: FlowKind) -> [String] { Self.faultKeys(of: family(for: kind), reaching: kind) }

    private static func faultKeys(of family: (any FlowFamily)?, reaching kind: FlowKind) -> [String] {
        family.map { type(of: $0).faultKeys(reaching: kind) } ?? SimulatedWorld.identityFaultKeys
    }

    /// The family that runs `kind`.
    func family(for kind: FlowKind) -> (any FlowFamily)? {
        families.first { type(of: $0).kinds.contains(kind) }
    }

    /// Every kind of flow this service runs, in its families' order.
    public var kinds: [FlowKind] { families.flatMap { type(of: $0).kinds } }

    /// The flow whose SDKs are at work now, for families that report their servers' traffic into its log: the one
    /// running on the device, else the last one cancelled while a call that cannot be stopped goes on (KSSIDP's),
    /// whose SDK's requests, faults and answer are still its own.
    public var runningFlow: FlowRun? { current.withLock { $0 } ?? unstoppable.withLock { $0.last } }

    /// Notes that `run` has a call that goes on after a cancel (``FlowRun/call(_:atCancel:onCancel:late:_:)``'s
    /// `late`) in flight, or no longer.
    func unstoppableCall(of run: FlowRun, inFlight: Bool) {
        unstoppable.withLock { runs in
            if inFlight { runs.append(run) } else if let index = runs.lastIndex(where: { $0 === run }) { runs.remove(at: index) }
        }
    }

    private func reportFault(_ name: String) {
        runningFlow?.emit(.fault, from: .simulator, to: .app, status: "FAULT", detail: name)
    }

    /// The descriptor to poll: readable while messages wait for ``deliverPendingMessages(to:)``.
    public var wakeFileDescriptor: Int32 { mailbox.fileDescriptor }

    /// Queues a flow behind any that are running, and returns its id.
    @discardableResult
    public func start(_ kind: FlowKind) -> Int {
        let id = nextFlowID.wrappingAdd(1, ordering: .relaxed).oldValue
        let run = FlowRun(id: id, kind: kind, service: self)
        runs.withLock { $0[id] = run }
        channel.open(flowID: id)
        if lineup.add(run) { startRunner() }
        return id
    }

    /// Starts a task that runs the flows waiting in turn, on the device's queue, until none is left.
    private func startRunner() {
        flowExecutor.startTask(counting: pendingWork) { [self] in
            while let run = lineup.next() { await perform(run) }
        }
    }

    private func perform(_ run: FlowRun) async {
        // A flow cancelled while a call it cannot stop was in flight (KSSIDP's) is still at work on the device: the
        // next one waits for that call, which its own SDK calls would meet halfway (a second GetAstClientData
        // replaced the first's client data, and both flows failed), and whose work would show as its own. A cancel
        // ends the wait.
        // A run cancelled while it was queued ends before it starts, without a wait to show.
        while !run.isCancelled, let earlier = unstoppable.withLock({ $0.last }) {
            let step = earlier.unstoppableStep.flatMap { $0 }.map { "\($0.rawValue) of " } ?? "the call of "
            run.emit(.waitingForFlow, from: .app, to: .app, detail: "\(step)flow \(earlier.id), which its cancel could not stop")
            guard await run.call({ nil }, { deliver in earlier.whenUnstoppableCallEnds { deliver(()) } }) != nil else {
                await run.ended()
                return
            }
        }
        current.withLock { $0 = run }
        if !run.isCancelled { announceFaults(run) }
        // Nil: a cancel ended the flow and reports it, maybe still on the side queue.
        if let result = await run.run(), run.ending.claim() {
            finish(run, with: result)
        } else {
            await run.ended()
        }
    }

    /// Reports a run's result; the lineup's task runs the next run waiting only after this.
    func finish(_ run: FlowRun, with result: FlowResult) {
        var result = result
        current.withLock { if $0 === run { $0 = nil } }
        channel.cancel(flowID: run.id)
        if let history {
            let record = HistoryRecord(result: result, user: run.historyUser(of: result), events: run.closeTranscript(), startedAt: run.started)
            do {
                let id = try history.record(record)
                run.recorded(as: id)
                result.set(HistoryEntryDetail(id: id))
            } catch {
                // Not a `fault injected`: no fault was switched on, and a script counts the faults that bit by those.
                let unsaved = HistoryNotSavedDetail(reason: error.description)
                run.emit(.historyNotSaved, from: .simulator, to: .app, status: "NOT_SAVED", detail: unsaved.message)
                result.set(unsaved)
                if let line = result.notSavedLine { self.unsaved.withLock { $0.append(line) } }
            }
        }
        // Active until recorded: ``waitUntilIdle(timeout:finished:)`` after a cancel then means the history has it.
        runs.withLock { _ = $0.removeValue(forKey: run.id) }
        mailbox.post(.finished(result))
        run.markEnded()
    }

    /// Cancels a flow: at a prompt the SDK gets the "User cancelled" error; while a step is in flight the flow
    /// ends as cancelled at once and the flow's code sends nothing more (a call that cannot be stopped, KSSIDP's,
    /// goes on, and the next flow waits for it). `reason`
    /// ``CancelReason/badInput(_:)`` aborts it instead: its result is `ABORTED_BAD_INPUT`, not `USER_CANCEL`.
    public func cancel(flowID: Int, reason: CancelReason = .user) {
        runs.withLock { $0[flowID] }?.cancel(reason)
    }

    /// Cancels every flow that is queued or running, for `reason` (a signal's interrupt, as the process ends).
    public func cancelAll(_ reason: CancelReason = .user) {
        for run in runs.withLock({ Array($0.values) }) { run.cancel(reason) }
    }

    /// Ends at once the calls the cancelled flows still await (``FlowRun/stopAwaitedCall()``): for a process that
    /// is ending and must record them now.
    public func stopAwaitedCalls() {
        for run in runs.withLock({ Array($0.values) }) { run.stopAwaitedCall() }
    }

    /// The same for one flow (a second Esc on its screen).
    public func stopAwaitedCall(flowID: Int) {
        runs.withLock { $0[flowID] }?.stopAwaitedCall()
    }

    /// Answers a prompt. Returns false when it is no longer open (it timed out or its flow was cancelled).
    @discardableResult
    public func answer(_ prompt: FlowPrompt, with answer: PromptAnswer) -> Bool {
        channel.answer(promptID: prompt.id, with: answer)
    }

    /// Hands every waiting message to `frontEnd`, in order, on the calling thread. Returns how many.
    @discardableResult
    public func deliverPendingMessages(to frontEnd: some FlowFrontEnd) -> Int {
        let messages = mailbox.drain()
        for message in messages {
            switch message {
            case .event(let event): frontEnd.flowService(self, didEmit: event)
            case .prompt(let prompt): frontEnd.flowService(self, needsAnswerTo: prompt)
            case .finished(let result): frontEnd.flowService(self, didFinish: result)
            case .report(let report): frontEnd.flowService(self, didReport: report)
            }
        }
        return messages.count
    }


    /// Says which faults that can bite a flow are on as it starts, so that its log shows them before they bite.
    private func announceFaults(_ run: FlowRun) {
        let family = family(for: run.kind)
        let names = world.activeFaultNames(of: Self.faultKeys(of: family, reaching: run.kind)) + (family?.ownFaultsOn(for: run.kind) ?? [])
        guard !names.isEmpty else { return }
        // No status: a notice of what is switched on, not a fault that bit (`FAULT` read as one, `● faults on FAULT`).
        run.emit(.faultsOn, from: .simulator, to: .app, detail: names.joined(separator: ", "))
    }

    /// Works `make` out off the caller's thread; its report arrives through the mailbox like a flow's result
    /// (``FlowFrontEnd/flowService(_:didReport:)``).
    public func report(_ make: @escaping @Sendable () -> any Sendable) {
        let mailbox = mailbox
        DispatchQueue.global(qos: .userInitiated).async(counting: pendingWork) { mailbox.post(.report(make())) }
    }

    /// Flows queued or running.
    public var activeFlowCount: Int { runs.withLock { $0.count } }

    /// Waits until no flow is queued or running, or `timeout` has passed; true when none is. For a front end that
    /// is quitting after ``cancelAll()`` (Ctrl-C): the cancelled flow's result is then in the history before the
    /// process exits (it was lost). The main queue runs meanwhile, as a payment's delegate callbacks end it there
    /// (waiting without it lost a payment cancelled at its challenge); the messages posted meanwhile are dropped,
    /// but for the flows' results, handed to `finished` (whether each was kept: ``FlowResult/notSavedLine``).
    @discardableResult
    public func waitUntilIdle(timeout: Duration, finished: (FlowResult) -> Void = { _ in }) -> Bool {
        let deadline = ContinuousClock.now + timeout
        func take() {
            for case .finished(let result) in mailbox.drain() { finished(result) }
        }
        while activeFlowCount > 0 {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            _ = mailbox.waitForMessages(timeout: min(left, .milliseconds(10)))
            take()
        }
        // A result posted as the flow ended, before the count fell.
        take()
        return true
    }

    /// What the families say of their state for a status line (the device), in order.
    public var statusLine: String { families.compactMap(\.statusLine).joined(separator: " · ") }

    /// ``statusLine`` after the families have read their stored state again (another process on the same state
    /// file may have activated or logged out the device: `idp-tui run activate` in another terminal). One read
    /// of the store; while a flow runs, the state it works on is left alone and the line is the one in memory.
    public func reloadedStatusLine() -> String {
        if activeFlowCount == 0 {
            for family in families { family.reloadStoredState() }
        }
        return statusLine
    }
}
