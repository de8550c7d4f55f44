import Dispatch
import Foundation
import Synchronization
import Threading

/// Real time: the wall clock for `now`, Dispatch for scheduling. Timers fire on a queue named `timer`, so that
/// what a timer does (a bridge resend, a prompt timeout) says so in the log's thread column.
public struct SystemClock: SimulationClock {
    public init() {}

    public var now: SimulationInstant { SimulationInstant(Date()) }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, delay.nanoseconds))
        let id = TimerHeap.shared.add(deadline: deadline, action)
        return ScheduledTimer { TimerHeap.shared.cancel(id) }
    }
}

/// Every ``SystemClock`` timer, in one heap behind one Dispatch timer source on the `timer` queue.
///
/// A flow sets a timer for each prompt (its timeout, minutes away) and cancels it microseconds later when the
/// prompt is answered. Given to Dispatch one by one, each such timer woke Dispatch's manager thread twice and
/// stayed queued until its deadline even when cancelled. Here a timer that is not the earliest costs a heap
/// insertion, a cancelled one is forgotten, and the source is re-set only when the earliest deadline moves.
final class TimerHeap: Sendable {
    static let shared = TimerHeap()

    private let queue = QueueName.makeSerialQueue("timer", qos: .userInitiated)
    // libdispatch sources may be set from any thread.
    nonisolated(unsafe) private let source: any DispatchSourceTimer
    private let state = Locked(State())

    private struct Entry {
        let deadline: UInt64
        let id: Int
    }

    private struct State {
        /// Deadlines, earliest first; an entry whose id is no longer in `actions` was cancelled.
        var heap: [Entry] = []
        var actions: [Int: @Sendable () -> Void] = [:]
        var nextID = 1
        /// When the source is set to fire (nil: not set).
        var armedFor: UInt64?

        mutating func push(_ entry: Entry) {
            heap.append(entry)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].deadline < heap[parent].deadline else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popEarliest() -> Entry? {
            guard !heap.isEmpty else { return nil }
            heap.swapAt(0, heap.count - 1)
            let earliest = heap.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
                if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
                guard smallest != parent else { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
            return earliest
        }

        /// The earliest deadline of a timer that is still set, dropping cancelled ones from the top.
        mutating func earliestLive() -> UInt64? {
            while let top = heap.first {
                if actions[top.id] != nil { return top.deadline }
                _ = popEarliest()
            }
            return nil
        }
    }

    private init() {
        source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler { [unowned self] in fire() }
        source.resume()
    }

    func add(deadline: UInt64, _ action: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.actions[id] = action
            state.push(Entry(deadline: deadline, id: id))
            // Cancelled entries wait in the heap until they reach the top; rebuild when they are most of it.
            if state.heap.count > 64 && state.heap.count > 2 * state.actions.count {
                let live = state.heap.filter { state.actions[$0.id] != nil }
                state.heap = []
                for entry in live { state.push(entry) }
            }
            if state.armedFor.map({ deadline < $0 }) ?? true { arm(&state, for: deadline) }
            return id
        }
    }

    func cancel(_ id: Int) {
        // The source stays set: if this was the earliest timer, it fires for nothing and is set for the next.
        _ = state.withLock { $0.actions.removeValue(forKey: id) }
    }

    private func arm(_ state: inout State, for deadline: UInt64) {
        state.armedFor = deadline
        source.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .nanoseconds(0))
    }

    private func fire() {
        let due: [@Sendable () -> Void] = state.withLock { state in
            state.armedFor = nil
            let now = DispatchTime.now().uptimeNanoseconds
            var due: [@Sendable () -> Void] = []
            while let deadline = state.earliestLive(), deadline <= now, let entry = state.popEarliest() {
                if let action = state.actions.removeValue(forKey: entry.id) { due.append(action) }
            }
            if let next = state.earliestLive() { arm(&state, for: next) }
            return due
        }
        for action in due { action() }
    }
}
