import Dispatch
import Foundation
import Testing
import Threading

@Suite struct QueueNameTests {
    /// Runs `body` on `queue` and returns what it returned.
    private func on<T: Sendable>(_ queue: DispatchQueue, _ body: @escaping @Sendable () -> T) -> T {
        let result = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        queue.async {
            result.withLock { $0 = body() }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    @Test func aNamedQueueReportsItsName() {
        #expect(on(QueueName.makeSerialQueue("MC-SDK")) { QueueName.current } == "MC-SDK")
    }

    @Test func queuesSharingATargetEachKeepTheirName() {
        let device = DispatchQueue(label: "device")
        let flow = QueueName.makeSerialQueue("idp-tui.flow", target: device)
        let sdk = QueueName.makeSerialQueue("IdpSdk", target: device)
        // A hand-over from one to the other, as an SDK completion continues a flow.
        let chain = Locked<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        sdk.async {
            chain.withLock { $0.append(QueueName.current) }
            flow.async {
                chain.withLock { $0.append(QueueName.current) }
                finished.signal()
            }
        }
        finished.wait()
        #expect(chain.withLock { $0 } == ["IdpSdk", "idp-tui.flow"])
    }

    @Test func dispatchsOwnWorkersAndOtherThreadsAreBackground() {
        #expect(on(DispatchQueue.global()) { QueueName.current } == "background")
        let name = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            name.withLock { $0 = QueueName.current }
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(name.withLock { $0 } == "background")
    }
}
