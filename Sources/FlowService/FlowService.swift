import FlowRecords
import Threading
import Determinism
import Dispatch
import Foundation
import IdentityProvider
import IdpSdk
import KSMasterController
import Q2ModuleInterfaces
import Q2Core
import DropsWeb
import SafepayDropsSDK
import Synchronization

/// Runs flows against one simulated device, one at a time and in order, on a background queue
/// (`idp-tui.flow`), and reports to a front end through a mailbox it can poll.
///
/// The IdpSdk flows run on a flow queue that targets the device's queue (``SimulationEnvironment/deviceQueue``),
/// like the SDKs' own queues; the others, and the end of a flow cancelled while a call was in flight, run on a
/// side queue of the same name, so that they never wait behind the device's work.
///
/// ```swift
/// let service = FlowService(environment: SimulationEnvironment())
/// service.start(.activate)
/// while running {
///     _ = service.mailbox.waitForMessages()          // or poll(wakeFileDescriptor) beside the keyboard
///     service.deliverPendingMessages(to: frontEnd)   // events, prompts and results, on this thread
/// }
/// ```
public final class FlowService: Sendable {
    public let environment: SimulationEnvironment
    public let configuration: FlowConfiguration
    public let mailbox = ServiceMailbox()
    /// Where finished flows are kept, or nil to keep none (benchmarks).
    public let history: (any FlowHistory)?
    /// The Q2 platform the app's authentication module is loaded into (`--launch`, `--insecure-device`).
    public let q2Platform: SimulatedQ2Platform
    let channel: CredentialChannel
    let idpSdk: IdpSdkService
    /// Where the IdpSdk flows run: on the device's queue, with the SDKs' queues.
    let flowQueue: DispatchQueue
    /// Where every flow's code runs: the flow queue, on the device's queue.
    let flowExecutor: DispatchTaskExecutor
    /// Where the Q2 module's async calls run (labelled `Q2 SDK` in the log), on the device's queue too.
    let q2Executor: DispatchTaskExecutor
    /// Where the other flows run, and the end of a flow cancelled while a call was in flight.
    package let sideQueue = QueueName.makeSerialQueue("idp-tui.flow")
    private let runs = Locked<[Int: FlowRun]>([:])
    /// The flows started and not yet running, in order, and whether one runs now.
    private let lineup = Locked<(waiting: [FlowRun], running: Bool)>(([], false))
    private let nextFlowID = Atomic(1)
    /// The run on the flow queue now: faults that bite are reported in its log.
    private let current: Locked<FlowRun?>
    private let savedCredential = Locked<PasswordCredential?>(nil)
    private let idpObserver = Locked<Int?>(nil)

    public init(
        environment: SimulationEnvironment, configuration: FlowConfiguration = FlowConfiguration(),
        history: (any FlowHistory)? = MemoryFlowHistory()
    ) {
        self.environment = environment
        self.configuration = configuration
        self.history = history
        flowQueue = QueueName.makeSerialQueue("idp-tui.flow", target: environment.deviceQueue)
        flowExecutor = DispatchTaskExecutor(queue: flowQueue)
        q2Executor = DispatchTaskExecutor(queue: QueueName.makeSerialQueue("Q2 SDK", target: environment.deviceQueue))
        environment.world.bridgeFaults = configuration.bridgeFaults
        let current = Locked<FlowRun?>(nil)
        self.current = current
        // The Q2 platform, built once as the app's is: its security module's answers go to the log of the flow
        // that asked.
        let security = ReportingSecurityModule(
            SimulatedSecurityModule(faults: environment.faults, reason: configuration.insecureDeviceReason)
        ) { decision in current.withLock { $0 }?.reportSecurity(decision) }
        q2Platform = SimulatedQ2Platform(world: environment.world, launch: configuration.q2Launch, security: security)
        channel = CredentialChannel(mailbox: mailbox, clock: environment.clock)
        idpSdk = IdpSdkService(
            tenantId: environment.tenantId, idpUrl: environment.idpUrl,
            certificateChain: Data((configuration.certificateChainPEM ?? IdentityProviderCertificates.genuinePEM).utf8),
            shouldHashPin: configuration.shouldHashPin,
            network: environment.world.network, targetQueue: environment.deviceQueue)
        // One listener per environment: a second service on the same environment takes the fault reports over.
        environment.faults.onTrigger { [weak self] name in self?.reportFault(name) }
        let token = environment.world.identityProvider.observe { [weak self] traffic in self?.idpAnswered(traffic) }
        idpObserver.withLock { $0 = token }
        environment.world.q2Core.observe { [weak self] userId, response in self?.coreAnswered(userId, response) }
    }

    /// The Q2 credential the last successful Q2 login saved: in this process's memory only, never on disk.
    public internal(set) var savedQ2Credential: PasswordCredential? {
        get { savedCredential.withLock { $0 } }
        set { savedCredential.withLock { $0 = newValue } }
    }


    /// `shouldAllowAutoLogin()`, called as the module calls it: on the main actor. Front ends call this from
    /// their main thread when the sign-in screen comes up.
    @MainActor
    public func allowsQ2AutoLogin() -> Bool {
        q2Platform.context.shouldAllowAutoLogin()
    }

    private func coreAnswered(_ userId: String, _ response: LogonResponse) {
        guard let run = current.withLock({ $0 }) else { return }
        let step = FlowStep("POST \(Q2CoreServer.path)")
        run.emit(step, from: .q2Module, to: .q2Core, detail: "userId=\(userId), password")
        let hydra = response.hydraCode.map { ", hydraCode \($0)" } ?? ""
        let token = response.q2token == nil ? "" : ", q2token header"
        run.emit(step, from: .q2Core, to: .q2Module, status: String(response.status), detail: "\(response.message)\(hydra)\(token)")
    }

    deinit {
        if let token = idpObserver.withLock({ $0 }) { environment.world.identityProvider.removeObserver(token) }
    }

    /// The IdP's requests and answers appear in the log between the SDK that made them and the IdP: this
    /// device's only, when several devices share the IdP.
    private func idpAnswered(_ traffic: IdpTraffic) {
        if let device = traffic.deviceID, device != environment.masterController.deviceID { return }
        guard let run = current.withLock({ $0 }) else { return }
        let caller: Participant = switch QueueName.current {
        case "IdpSdk": .idpSdk
        case "MC-SDK": .masterController
        default: .app
        }
        let step = FlowStep(traffic.request)
        run.emit(step, from: caller, to: .identityProvider, detail: traffic.detail)
        run.emit(step, from: .identityProvider, to: caller, status: traffic.status, detail: traffic.response)
    }

    private func reportFault(_ name: String) {
        current.withLock { $0 }?.emit(.fault, from: .simulator, to: .app, status: "FAULT", detail: name)
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
        let first = lineup.withLock { lineup -> FlowRun? in
            if lineup.running {
                lineup.waiting.append(run)
                return nil
            }
            lineup.running = true
            return run
        }
        if let first { launch(first) }
        return id
    }

    private func launch(_ run: FlowRun) {
        Task(executorPreference: flowExecutor) { [self] in
            current.withLock { $0 = run }
            if !run.isCancelled { announceFaults(run) }
            // Nil: a cancel ended the flow and reported it.
            if let result = await run.run(), run.ending.claim() { finish(run, with: result) }
        }
    }

    /// Reports a run's result and starts the next run waiting.
    func finish(_ run: FlowRun, with result: FlowResult) {
        current.withLock { if $0 === run { $0 = nil } }
        runs.withLock { _ = $0.removeValue(forKey: run.id) }
        channel.cancel(flowID: run.id)
        if let history {
            let record = HistoryRecord(result: result, events: run.closeTranscript(), startedAt: run.started)
            do {
                _ = try history.record(record)
            } catch {
                run.emit(.fault, from: .simulator, to: .app, status: "HISTORY", detail: "this flow was not saved to history: \(error)")
            }
        }
        mailbox.post(.finished(result))
        let next = lineup.withLock { lineup -> FlowRun? in
            guard !lineup.waiting.isEmpty else {
                lineup.running = false
                return nil
            }
            return lineup.waiting.removeFirst()
        }
        if let next { launch(next) }
    }

    /// Cancels a flow: at a prompt the SDK gets the "User cancelled" error; while a step is in flight the flow
    /// ends as cancelled at once and nothing more is sent to the master controller.
    public func cancel(flowID: Int) {
        runs.withLock { $0[flowID] }?.cancel()
    }

    /// Cancels every flow that is queued or running.
    public func cancelAll() {
        for run in runs.withLock({ Array($0.values) }) { run.cancel() }
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
            case .compared(let report): frontEnd.flowService(self, didCompare: report)
            }
        }
        return messages.count
    }


    /// Says which faults are on as a flow starts, so that its log shows them before they bite.
    private func announceFaults(_ run: FlowRun) {
        var names = environment.world.identityFaults.activeNames
        if run.kind == .payerAuth { names += environment.world.bridgeFaults.activeNames }
        guard !names.isEmpty else { return }
        run.emit(.fault, from: .simulator, to: .app, status: "FAULT", detail: "faults on: \(names.joined(separator: ", "))")
    }

    /// Runs the migration parity check (``ParityCheck``) on worlds of its own, off the caller's thread; the report
    /// arrives through the mailbox like a flow's result. This device is not touched.
    public func compareOrchestrations() {
        let scenario = environment.world.scenario
        let mailbox = mailbox
        DispatchQueue.global(qos: .userInitiated).async {
            mailbox.post(.compared(ParityCheck.run(scenario: scenario)))
        }
    }

    /// Flows queued or running.
    public var activeFlowCount: Int { runs.withLock { $0.count } }

    /// The device as the master controller holds it.
    package var device: DeviceSnapshot { environment.masterController.snapshot }

    /// "not activated", "activated as alice" or "logged in as alice".
    public var deviceStatus: String {
        let device = device
        guard let user = device.activatedUser else { return "not activated" }
        return device.loggedIn ? "logged in as \(user.userId)" : "activated as \(user.userId)"
    }
}
