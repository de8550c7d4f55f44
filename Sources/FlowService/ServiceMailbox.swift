import Threading
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the service hands to the front end.
public enum ServiceMessage: Sendable {
    case event(FlowEvent)
    case prompt(FlowPrompt)
    case finished(FlowResult)
    /// The migration parity check a front end asked for (``FlowService/compareOrchestrations()``).
    case compared(ParityReport)
}

/// The queue of messages from the service's background threads to the one thread that runs the front end.
///
/// ``fileDescriptor`` becomes readable whenever messages are waiting, so a front end can `poll` it together
/// with the keyboard: no busy polling and no sleeps. ``drain()`` takes everything waiting and re-arms it.
public final class ServiceMailbox: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32
    private let state = Locked(State())

    private struct State {
        var messages: [ServiceMessage] = []
        var signalled = false
        var nextSequence = 1
    }

    public init() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { preconditionFailure("pipe() failed: \(String(cString: strerror(errno)))") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Readable while messages wait. Never read it directly: call ``drain()``.
    public var fileDescriptor: Int32 { readEnd }

    /// Posts an event built with the next event sequence number, so that events have one total order.
    @discardableResult
    func postEvent(_ make: (Int) -> FlowEvent) -> FlowEvent {
        var made: FlowEvent?
        append { state in
            defer { state.nextSequence += 1 }
            let event = make(state.nextSequence)
            made = event
            return .event(event)
        }
        guard let made else { preconditionFailure("append always makes its message") }
        return made
    }

    func post(_ message: ServiceMessage) {
        append { _ in message }
    }

    private func append(_ make: (inout State) -> ServiceMessage) {
        let wake = state.withLock { state in
            state.messages.append(make(&state))
            defer { state.signalled = true }
            return !state.signalled
        }
        if wake {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
    }

    /// Takes every waiting message, oldest first. Never blocks.
    public func drain() -> [ServiceMessage] {
        // Empty the pipe before taking the messages: a post that lands in between finds `signalled` still
        // set, so it does not write, and its message is taken below.
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
        return state.withLock { state in
            state.signalled = false
            defer { state.messages.removeAll(keepingCapacity: true) }
            return state.messages
        }
    }

    /// Blocks until a message waits or `timeout` passes (nil: no limit). Returns whether one waits.
    public func waitForMessages(timeout: Duration? = nil) -> Bool {
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout.map { Int32(clamping: $0.nanoseconds / 1_000_000) } ?? -1
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready >= 0 { return ready > 0 }
            if errno != EINTR { return false }
        }
    }
}
