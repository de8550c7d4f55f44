import Threading
import Determinism
import Dispatch
import Synchronization
import Testing

@Suite struct ManualClockTests {
    @Test func runsActionsInDeadlineOrderWhenAdvanced() {
        let clock = ManualClock()
        let fired = Locked<[String]>([])
        clock.schedule(after: .seconds(3)) { fired.withLock { $0.append("c") } }
        clock.schedule(after: .seconds(1)) { fired.withLock { $0.append("a") } }
        clock.schedule(after: .seconds(2)) { fired.withLock { $0.append("b") } }
        clock.advance(by: .milliseconds(1500))
        #expect(fired.withLock { $0 } == ["a"])
        clock.advance(by: .seconds(10))
        #expect(fired.withLock { $0 } == ["a", "b", "c"])
        #expect(clock.pendingTimerCount == 0)
    }

    @Test func timeMovesOnlyWhenTold() {
        let clock = ManualClock()
        let start = clock.now
        #expect(clock.now == start)
        clock.advance(by: .seconds(600))
        #expect(start.duration(to: clock.now) == .seconds(600))
    }

    @Test func aCancelledTimerNeverFires() {
        let clock = ManualClock()
        let fired = Atomic(false)
        let timer = clock.schedule(after: .seconds(1)) { fired.store(true, ordering: .relaxed) }
        timer.cancel()
        clock.advance(by: .seconds(5))
        let didFire = fired.load(ordering: .relaxed)
        #expect(!didFire)
    }

    /// On a clock that counts the simulation's work, a task asleep on it counts as nothing, and the clock that wakes
    /// it counts it again before it runs: a test waiting for the count to fall to zero sees it only once the task
    /// has run to its end.
    @Test func aTaskAsleepOnACountingClockCountsAsNothingUntilWoken() throws {
        let clock = ManualClock(countingWork: true)
        let pending = try #require(clock.pendingWork)
        let awake = Atomic(false)
        pending.begin()
        Task(executorPreference: DispatchTaskExecutor(queue: DispatchQueue(label: "sleeper"))) {
            await clock.sleep(for: .seconds(600))
            awake.store(true, ordering: .releasing)
            pending.end()
        }
        #expect(pending.waitUntilNone(timeout: .seconds(10)), "the sleeping task still counted")
        let awakeEarly = awake.load(ordering: .acquiring)
        #expect(clock.pendingTimerCount == 1 && !awakeEarly)
        clock.advance(by: .seconds(600))
        #expect(pending.waitUntilNone(timeout: .seconds(10)))
        let awakeOnceQuiet = awake.load(ordering: .acquiring)
        #expect(awakeOnceQuiet, "the count fell to zero before the woken task ran")
    }

    /// The Drops page's payment awaits the clock so. On a queue of its own, as the payment is: the cooperative pool
    /// may be held by other tests meanwhile (this one waited 10 s for it there, in the whole suite).
    @Test func aSleepingTaskResumesWhenTheClockPassesItsDeadline() {
        checkSleeper { clock, woken in
            Task(executorPreference: DispatchTaskExecutor(queue: DispatchQueue(label: "sleeper"))) {
                await clock.sleep(for: .seconds(600))
                woken()
            }
        }
    }

    /// Starts a sleeper of 600 s on a manual clock (`start` calls `woken` once it wakes), and checks that it sleeps,
    /// its timer pending, until the clock passes its deadline, and no earlier, however long the test waits.
    private func checkSleeper(_ start: (ManualClock, _ woken: @escaping @Sendable () -> Void) -> Void) {
        let clock = ManualClock()
        let woke = DispatchSemaphore(value: 0)
        let awake = Atomic(false)
        start(clock) {
            awake.store(true, ordering: .releasing)
            woke.signal()
        }
        #expect(clock.waitForPendingTimers(atLeast: 1))
        clock.advance(by: .seconds(599))
        #expect(!awake.load(ordering: .acquiring) && clock.pendingTimerCount == 1)
        clock.advance(by: .seconds(1))
        #expect(woke.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(awake.load(ordering: .acquiring) && clock.pendingTimerCount == 0)
    }
}

@Suite struct RandomSourceTests {
    @Test func theSameSeedReplaysTheSameValues() {
        let a = RandomSource(seed: 42)
        let b = RandomSource(seed: 42)
        #expect(a.bytes(32) == b.bytes(32))
        #expect(a.string(length: 26, alphabet: "ABC") == b.string(length: 26, alphabet: "ABC"))
    }

    @Test func differentSeedsDiffer() {
        #expect(RandomSource(seed: 1).bytes(32) != RandomSource(seed: 2).bytes(32))
    }
}

@Suite struct SystemClockTests {
    @Test func timersFireInDeadlineOrderOnTheTimerQueueAndCancelledOnesNever() {
        let clock = SystemClock()
        let fired = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        // Set out of order: a later timer first, so that the earlier ones must move the heap's top.
        // Far enough ahead (the cancelled one 300 ms) that none comes due before the cancel, even under
        // ThreadSanitizer on a loaded machine.
        clock.schedule(after: .milliseconds(600)) {
            fired.withLock { $0.append("c on \(QueueName.current)") }
            done.signal()
        }
        clock.schedule(after: .milliseconds(400)) { fired.withLock { $0.append("a") } }
        let cancelled = clock.schedule(after: .milliseconds(300)) { fired.withLock { $0.append("cancelled") } }
        clock.schedule(after: .milliseconds(500)) { fired.withLock { $0.append("b") } }
        cancelled.cancel()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(fired.withLock { $0 } == ["a", "b", "c on timer"])
    }

    @Test func manyCancelledTimersLeaveTheLiveOnesFiring() {
        let clock = SystemClock()
        // Like prompt timeouts, set and cancelled at once, thousands of them; these are due before the live one,
        // which the heap fires in deadline order: had any survived its cancel, it would have fired first. They are
        // due far enough ahead (300 ms) that none can come due between its schedule and its cancel, even on a
        // loaded machine under ThreadSanitizer (at 5 ms, one did: a race of the test, not of the clock).
        let firedAfterCancel = Atomic(0)
        for _ in 0..<5_000 { clock.schedule(after: .milliseconds(300)) { firedAfterCancel.add(1, ordering: .relaxed) }.cancel() }
        let done = DispatchSemaphore(value: 0)
        clock.schedule(after: .milliseconds(350)) { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(firedAfterCancel.load(ordering: .relaxed) == 0)
    }
}

/// An instant read back from what it writes is the same instant: a history transcript's times read back through a
/// `Date`'s double came a nanosecond short, and were written a millisecond early (.475 for .476).
@Suite struct SimulationInstantTextTests {
    @Test(arguments: ["2026-12-04T05:16:34.476Z", "2026-12-04T05:16:38.423Z", "2030-01-01T00:00:00.000Z", "2026-12-04T05:16:51.415Z"])
    func anInstantReadFromItsTextWritesTheSameText(_ text: String) throws {
        #expect(try #require(SimulationInstant(parsing: text)).description == text)
    }

    @Test func textThatIsNoInstantIsNone() {
        #expect(SimulationInstant(parsing: "yesterday") == nil)
    }
}
