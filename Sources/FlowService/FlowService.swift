import Threading
import Determinism
import Dispatch
import IdentityProvider
import IdpSdk
import MCSDK
import Synchronization

/// Runs flows against one simulated device, one at a time and in order, on a background queue
/// (`idp-tui.flow`), and reports to a front end through a mailbox it can poll.
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
    let channel: CredentialChannel
    let idpSdk: IdpSdkService
    private let queue = QueueName.makeSerialQueue("idp-tui.flow")
    private let runs = Locked<[Int: FlowRun]>([:])
    private let nextFlowID = Atomic(1)

    public init(environment: SimulationEnvironment, configuration: FlowConfiguration = FlowConfiguration()) {
        self.environment = environment
        self.configuration = configuration
        channel = CredentialChannel(mailbox: mailbox, clock: environment.clock)
        idpSdk = IdpSdkService(
            tenantId: environment.tenantId, idpUrl: environment.idpUrl,
            certificateChain: configuration.certificateChainPEM ?? IdentityProviderCertificates.genuinePEM,
            shouldHashPin: configuration.shouldHashPin,
            network: environment.network)
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
        queue.async { [self] in
            let result = run.run()
            runs.withLock { _ = $0.removeValue(forKey: id) }
            channel.cancel(flowID: id)
            mailbox.post(.finished(result))
        }
        return id
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
            }
        }
        return messages.count
    }

    /// Flows queued or running.
    public var activeFlowCount: Int { runs.withLock { $0.count } }

    /// The device as the master controller holds it.
    public var device: DeviceSnapshot { environment.masterController.snapshot }

    /// "not activated", "activated as alice" or "logged in as alice".
    public var deviceStatus: String {
        let device = device
        guard let user = device.activatedUser else { return "not activated" }
        return device.loggedIn ? "logged in as \(user.userId)" : "activated as \(user.userId)"
    }
}
