import Determinism
import Dispatch
import Testing
import Threading

/// The SDKs' lane: jobs in the order added, each to its end (its awaits included) before the next, on the lane's
/// queue; and counted while they can run, not while they wait behind a job asleep on the clock.
@Suite struct SerialTaskLaneTests {
    @Test func jobsRunInTheOrderAddedEachToItsEndOnTheLanesQueue() throws {
        let clock = ManualClock(countingWork: true)
        let pending = try #require(clock.pendingWork)
        let lane = SerialTaskLane(queue: QueueName.makeSerialQueue("lane-test"), counting: pending)
        let ran = Locked<[String]>([])
        let note: @Sendable (String) -> Void = { step in ran.withLock { $0.append("\(step)@\(QueueName.current)") } }
        lane.add { note("plain 1") }
        lane.add {
            note("awaiting: before")
            await clock.sleep(for: .seconds(1))
            note("awaiting: after")
        }
        lane.add { note("plain 2") }
        lane.add { note("awaiting 2") }
        // The plain job behind the sleeper waits for the clock: the count falls to zero meanwhile.
        #expect(pending.waitUntilNone(timeout: .seconds(10)), "a job queued behind one asleep on the clock still counted")
        #expect(ran.withLock { $0 } == ["plain 1@lane-test", "awaiting: before@lane-test"])
        clock.advance(by: .seconds(1))
        #expect(pending.waitUntilNone(timeout: .seconds(10)))
        #expect(ran.withLock { $0 } == [
            "plain 1@lane-test", "awaiting: before@lane-test", "awaiting: after@lane-test", "plain 2@lane-test",
            "awaiting 2@lane-test",
        ], "the count fell to zero before the lane's jobs had run")
        // An idle lane starts again.
        lane.add { note("plain 3") }
        #expect(pending.waitUntilNone(timeout: .seconds(10)))
        #expect(ran.withLock { $0.last } == "plain 3@lane-test")
    }
}
