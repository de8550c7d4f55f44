import Dispatch
import Testing
import Threading

/// `Locked.withLock(waitingAtMost:)`, which a signal's exit takes the output's lock with: it runs when the lock comes
/// free within the time, and gives up, not running, when the holder keeps it (a write the kernel holds).
@Suite struct LockedWaitTests {
    @Test func itRunsOnceTheLockIsFreeAndGivesUpWhileItIsHeld() {
        let lock = Locked(0)
        #expect(lock.withLock(waitingAtMost: .milliseconds(10)) { value -> Int in
            value += 1
            return value
        } == 1)
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            lock.withLock { _ in
                held.signal()
                release.wait()
            }
            done.signal()
        }
        held.wait()
        #expect(lock.withLock(waitingAtMost: .milliseconds(50)) { _ in true } == nil)
        release.signal()
        done.wait()
        #expect(lock.withLock(waitingAtMost: .milliseconds(50)) { $0 } == 1)
    }
}
