import Determinism
import Dispatch
import FlowEngine
import Foundation
import Simulation
import Synchronization
import Testing

/// A family whose one call cannot be stopped, its run kept for a thread that emits into it.
private final class ChatterFamily: FlowFamily {
    static let chat = FlowKind("chat", title: "Chat", lanes: [.app])
    static let kinds = [chat]
    let reply = Mutex<(@Sendable (String) -> Void)?>(nil)
    let run = Mutex<FlowRun?>(nil)

    func run(_ run: FlowRun) async -> FlowResult? {
        self.run.withLock { $0 = run }
        guard let answer = await run.call({ FlowStep("talk") }, late: { [run] (late: String) in
            run.emit(FlowStep("talk"), from: .app, to: .app, status: "late", detail: late)
        }, { [self] deliver in reply.withLock { $0 = deliver } }) else { return nil }
        return run.result(.success, status: answer, step: nil, error: nil)
    }
}

/// Events emitted while the transcript closes (a call that goes on after the cancel, emitting from its own thread)
/// are each in the history once, in the live log's order: numbered before they were kept, one could miss both the
/// transcript and what was added after it, or be added after the cancel it came before (a reviewer's stress test).
@Suite struct TranscriptCloseTests {
    @Test func everyEventEmittedAroundTheCloseIsRecordedOnceInTheLiveOrder() throws {
        for round in 0..<40 {
            let environment = SimulationEnvironment(clock: ManualClock())
            let family = ChatterFamily()
            let service = FlowService(world: environment.world, deviceQueue: environment.deviceQueue, families: [family])
            let frontEnd = RecordingFrontEnd()
            let flow = service.start(ChatterFamily.chat)
            #expect(service.drive(frontEnd) { family.reply.withLock { $0 != nil } })
            let run = try #require(family.run.withLock { $0 })
            let stop = Atomic(false)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                var count = 0
                while !stop.load(ordering: .acquiring) {
                    run.emit(FlowStep("chatter"), from: .app, to: .app, detail: "c\(count)")
                    count += 1
                }
                done.signal()
            }
            service.cancel(flowID: flow)
            #expect(service.drive(frontEnd) { frontEnd.results.count == 1 })
            stop.store(true, ordering: .releasing)
            done.wait()
            family.reply.withLock { $0 }?("done")
            let appended = { (try? service.history?.record(id: 1))??.events.contains { $0.status == "late" } == true }
            #expect(service.drive(frontEnd, until: appended))
            service.deliverPendingMessages(to: frontEnd)
            let record = try #require(try service.history?.record(id: 1))
            let live = frontEnd.events(of: flow).map { "\($0.step.rawValue) \($0.detail)" }
            let recorded = record.events.map { "\($0.step) \($0.detail)" }
            // Said by the first place they differ: the whole lists run to thousands of events.
            let differ = zip(recorded, live).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(recorded.count, live.count)
            #expect(recorded.count == live.count && differ == recorded.count,
                    "round \(round): \(recorded.count) recorded, \(live.count) live; from \(differ): \(recorded.dropFirst(differ).prefix(3)) against \(live.dropFirst(differ).prefix(3))")
            if recorded != live { break }
        }
    }
}
