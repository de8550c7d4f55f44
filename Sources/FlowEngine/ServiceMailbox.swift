import CWakeup
import Foundation
import Threading

#if canImport(Glibc)
    import Glibc
#endif

/// What the service hands to the front end.
public enum ServiceMessage: Sendable {
    case event(FlowEvent)
    case prompt(FlowPrompt)
    case finished(FlowResult)
    /// A report a front end asked for (``FlowService/report(_:)``).
    case report(any Sendable)
}

/// The queue of messages from the service's background threads to the one thread that runs the front end.
///
/// ``fileDescriptor`` becomes readable whenever messages are waiting, so a front end can `poll` it together
/// with the keyboard: no busy polling and no sleeps. ``drain()`` takes everything waiting and re-arms it.
///
/// Prompts and results make it readable at once. Flow events make it readable within ``eventDelay``, or
/// sooner with the next prompt or result: a flow emits about twenty events, most of them microseconds
/// apart, and waking the front end for each one cost more than the rest of the flow (docs/performance.md).
/// Events still arrive in order, before the prompt or result that follows them. The delay is a kernel timer
/// (a timerfd in the descriptor's epoll set), so arming it wakes no thread.
public final class ServiceMailbox: Sendable {
    /// The longest a flow event waits before the front end is woken for it.
    public static let eventDelay: Duration = .milliseconds(5)

    private let wakeup: idp_wakeup
    private let state = Locked(State())

    private struct State {
        var messages: [ServiceMessage] = []
        /// The pipe holds a byte: the descriptor is readable.
        var signalled = false
        /// The timer is set to make the descriptor readable for the events waiting.
        var timerArmed = false
        var nextSequence = 1
        /// The main dispatch queue's descriptor is in the set, and ``drain()`` runs that queue's work.
        var servesMainQueue = false
    }

    public init() {
        var wakeup = idp_wakeup()
        let failure = idp_wakeup_open(&wakeup)
        guard failure == 0 else {
            preconditionFailure("the mailbox's descriptors could not be opened: \(String(cString: strerror(failure)))")
        }
        self.wakeup = wakeup
    }

    deinit {
        var wakeup = wakeup
        idp_wakeup_close(&wakeup)
    }

    /// Readable while messages wait. Never read it directly: call ``drain()``.
    public var fileDescriptor: Int32 { wakeup.poll_fd }

    /// Posts an event built with the next event sequence number, so that events have one total order.
    @discardableResult
    func postEvent(_ make: (Int) -> FlowEvent) -> FlowEvent {
        var made: FlowEvent?
        append(urgent: false) { state in
            defer { state.nextSequence += 1 }
            let event = make(state.nextSequence)
            made = event
            return .event(event)
        }
        guard let made else { preconditionFailure("append always makes its message") }
        return made
    }

    func post(_ message: ServiceMessage) {
        if case .event = message {
            append(urgent: false) { _ in message }
        } else {
            append(urgent: true) { _ in message }
        }
    }

    private func append(urgent: Bool, _ make: (inout State) -> ServiceMessage) {
        let signal = state.withLock { state in
            state.messages.append(make(&state))
            if state.signalled { return false }
            if urgent {
                state.signalled = true
                return true
            }
            if !state.timerArmed {
                // Under the lock, so that a drain cannot disarm the timer between this check and the arming.
                state.timerArmed = true
                withUnsafePointer(to: wakeup) { idp_wakeup_arm($0, Int(Self.eventDelay.nanoseconds)) }
            }
            return false
        }
        if signal { withUnsafePointer(to: wakeup) { idp_wakeup_signal($0) } }
    }

    /// Makes the main dispatch queue (and so the main actor) run on the calling thread, the process's main
    /// thread, as part of this mailbox: the descriptor is readable while work waits there, and ``drain()`` runs
    /// it first. For a front end whose main thread waits in its own `poll` loop, as a run loop would; the SDKs
    /// call back on the main thread where the vendors do (the Drops delegate). Does nothing on another thread,
    /// where nothing else may run the main queue.
    public func serveMainQueue() {
        guard Thread.isMainThread else { return }
        let start = state.withLock { state -> Bool in
            defer { state.servesMainQueue = true }
            return !state.servesMainQueue
        }
        guard start else { return }
        let failure = withUnsafePointer(to: wakeup) { idp_wakeup_watch_main_queue($0) }
        precondition(failure == 0, "the main queue's descriptor could not join the mailbox: \(String(cString: strerror(failure)))")
    }

    /// Takes every waiting message, oldest first, after running the main queue's work when this mailbox serves
    /// it (``serveMainQueue()``). Never blocks.
    public func drain() -> [ServiceMessage] {
        if state.withLock({ $0.servesMainQueue }) && Thread.isMainThread { idp_main_queue_run() }
        // Clear the descriptor before taking the messages: a post that lands in between finds `signalled` still
        // set (or the timer armed), so it neither writes nor arms, and its message is taken below.
        withUnsafePointer(to: wakeup) { idp_wakeup_clear($0) }
        return state.withLock { state in
            state.signalled = false
            if state.timerArmed {
                state.timerArmed = false
                withUnsafePointer(to: wakeup) { idp_wakeup_disarm($0) }
            }
            defer { state.messages.removeAll(keepingCapacity: true) }
            return state.messages
        }
    }

    /// Whether the descriptor is quiet and will stay so until something is posted: it is not readable now and no
    /// timer is set to make it readable later. What a test asserts instead of waiting a while for nothing.
    package var isQuiet: Bool {
        // The timer first: one that fires between the two reads leaves the descriptor readable until it is read.
        let timerSet = withUnsafePointer(to: wakeup) { idp_wakeup_timer_remaining($0) } != 0
        var descriptor = pollfd(fd: wakeup.poll_fd, events: Int16(POLLIN), revents: 0)
        return !timerSet && poll(&descriptor, 1, 0) == 0
    }

    /// Blocks until a message waits or `timeout` passes (nil: no limit). Returns whether one waits.
    public func waitForMessages(timeout: Duration? = nil) -> Bool {
        var descriptor = pollfd(fd: wakeup.poll_fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout.map { Int32(clamping: $0.nanoseconds / 1_000_000) } ?? -1
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready >= 0 { return ready > 0 }
            if errno != EINTR { return false }
        }
    }
}
