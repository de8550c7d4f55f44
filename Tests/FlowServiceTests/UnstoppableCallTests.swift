import Determinism
import Dispatch
@testable import FlowEngine
import Simulation
import Synchronization
import Testing

/// A family whose one call cannot be stopped, its reply held by the test: the engine's part of KSSIDP's cancel.
private final class KilnFamily: FlowFamily {
    static let fire = FlowKind("fire", title: "Fire", lanes: [.app])
    static let kinds = [fire]
    /// The held call's reply, once the call is made.
    let reply = Mutex<(@Sendable (String) -> Void)?>(nil)

    func run(_ run: FlowRun) async -> FlowResult? {
        guard let answer = await run.call({ FlowStep("bake") }, late: { [run] (late: String) in
            run.emit(FlowStep("bake"), from: .app, to: .app, status: "late", detail: late)
        }, { [self] deliver in reply.withLock { $0 = deliver } }) else { return nil }
        return run.result(.success, status: answer, step: nil, error: nil)
    }
}

@Suite struct UnstoppableCallTests {
    /// A service of the kiln alone, its first flow started and its call made (its reply held).
    private func firstCallMade() -> (FlowService, KilnFamily, RecordingFrontEnd, Int) {
        let environment = SimulationEnvironment(clock: ManualClock())
        let kiln = KilnFamily()
        let service = FlowService(world: environment.world, deviceQueue: environment.deviceQueue, families: [kiln])
        let frontEnd = RecordingFrontEnd()
        let flow = service.start(KilnFamily.fire)
        #expect(service.drive(frontEnd) { kiln.reply.withLock { $0 != nil } })
        return (service, kiln, frontEnd, flow)
    }

    /// A reply the cancel beat, come before the cancel's end is reported (the side queue busy), is reported after
    /// the cancel's event and result, never before them in the transcript: it came before them, and into the
    /// history. The history has it after the cancel, added once the call has ended.
    @Test func aLateReplyComesAfterTheCancelsEndWhenEverItArrives() throws {
        let (service, kiln, frontEnd, flow) = firstCallMade()
        // The side queue, where the cancel's end is reported, is held.
        let gate = DispatchSemaphore(value: 0)
        service.sideQueue.async { gate.wait() }
        service.cancel(flowID: flow)
        let reply = try #require(kiln.reply.withLock { $0 })
        reply("done")
        gate.signal()
        #expect(service.drive(frontEnd) { frontEnd.events(of: flow).contains { $0.status == "late" } })
        let events = frontEnd.events(of: flow)
        let cancel = try #require(events.firstIndex { $0.step == .cancel })
        let late = try #require(events.firstIndex { $0.status == "late" })
        #expect(cancel < late, "\(events.map(\.step))")
        #expect(frontEnd.results.first?.outcome == .cancelled)
        let appended = { (try? service.history?.record(id: 1))??.events.contains { $0.status == "late" } == true }
        #expect(service.drive(frontEnd, until: appended))
        let record = try #require(try service.history?.record(id: 1))
        let recordedCancel = try #require(record.events.firstIndex { $0.step == FlowStep.cancel.rawValue })
        #expect(record.events.last?.status == "late")
        #expect(record.events.filter { $0.status == "late" }.count == 1)
        #expect(record.events.lastIndex { $0.status == "late" }! > recordedCancel)
    }

    /// The next flow waits for the held call before it starts, and starts once it replies.
    @Test func theNextFlowWaitsForTheHeldCall() throws {
        let (service, kiln, frontEnd, first) = firstCallMade()
        service.cancel(flowID: first)
        #expect(service.drive(frontEnd) { frontEnd.results.count == 1 })
        let held = try #require(kiln.reply.withLock { $0 })
        kiln.reply.withLock { $0 = nil }
        let second = service.start(KilnFamily.fire)
        #expect(service.drive(frontEnd) { frontEnd.events(of: second).contains { $0.step == .waitingForFlow } })
        #expect(frontEnd.events(of: second).first?.detail == "bake of flow \(first), which its cancel could not stop")
        #expect(kiln.reply.withLock { $0 == nil }, "the second has not made its call")
        held("done")
        #expect(service.drive(frontEnd) { kiln.reply.withLock { $0 != nil } }, "it starts once the first's call replies")
        let secondReply = try #require(kiln.reply.withLock { $0 })
        secondReply("baked")
        #expect(service.drive(frontEnd) { frontEnd.results.count == 2 })
        #expect(frontEnd.results.last?.status == "baked")
    }
}
