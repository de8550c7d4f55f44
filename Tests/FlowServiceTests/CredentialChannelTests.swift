@testable import FlowEngine
import Determinism
import Dispatch
import FlowRecords
import Foundation
import IdpSdk
import Secrets
import Simulation
import Synchronization
import Testing
import Threading

@Suite struct CredentialChannelTests {
    @Test func everyBackgroundAskGetsItsOwnAnswerUnderLoad() {
        let mailbox = ServiceMailbox()
        let channel = CredentialChannel(mailbox: mailbox, clock: ManualClock())
        let count = 64
        let mismatches = Atomic(0)
        let done = DispatchGroup()
        for flow in 1...count {
            channel.open(flowID: flow)
            done.enter()
            // A queue per asker: each blocks its thread, as provideCredentials does. (Foundation's Thread is
            // avoided here: under ThreadSanitizer on Linux it produces reports inside Mutex-held sections.)
            DispatchQueue(label: "asker-\(flow)").async {
                let resolution = channel.askBlocking(flowID: flow, timeout: nil) { id in
                    FlowPrompt(id: id, flowID: flow, flow: .login, fields: [.username], clientId: "c", page: 1, pageCount: 1)
                }
                if resolution.answer(as: Credentials.self)?.values["username"]?.reveal() == "user-\(flow)" {
                } else {
                    mismatches.add(1, ordering: .relaxed)
                }
                done.leave()
            }
        }
        var answered = 0
        while answered < count {
            guard mailbox.waitForMessages(timeout: .seconds(10)) else { break }
            for case .prompt(let prompt) in mailbox.drain() {
                #expect(channel.answer(promptID: prompt.id, with: .credentials(["username": Secret("user-\(prompt.flowID)")])))
                answered += 1
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(answered == count)
        #expect(mismatches.load(ordering: .relaxed) == 0)
        #expect(channel.openPromptCount == 0)
    }

    @Test func firstResolutionWinsAndLaterOnesAreRefused() {
        let mailbox = ServiceMailbox()
        let clock = ManualClock()
        let channel = CredentialChannel(mailbox: mailbox, clock: clock)
        channel.open(flowID: 1)
        let result = OneShot<PromptResolution>()
        DispatchQueue(label: "asker").async {
            result.fulfil(channel.askBlocking(flowID: 1, timeout: .seconds(5)) { id in
                FlowPrompt(id: id, flowID: 1, flow: .login, fields: [.password], clientId: "c", page: 1, pageCount: 1)
            })
        }
        #expect(mailbox.waitForMessages(timeout: .seconds(10)))
        guard case .prompt(let prompt)? = mailbox.drain().first else { Issue.record("no prompt"); return }
        #expect(channel.cancel(flowID: 1))
        #expect(!channel.answer(promptID: prompt.id, with: .credentials([:])))
        clock.advance(by: .seconds(10))
        guard case .cancelled = result.wait() else { Issue.record("expected cancelled"); return }
    }

    @Test func aCancelledOrUnknownFlowNeverShowsAPrompt() {
        let mailbox = ServiceMailbox()
        let channel = CredentialChannel(mailbox: mailbox, clock: ManualClock())
        channel.open(flowID: 9)
        #expect(!channel.cancel(flowID: 9))
        let resolution = channel.askBlocking(flowID: 9, timeout: nil) { id in
            FlowPrompt(id: id, flowID: 9, flow: .login, fields: [.password], clientId: "c", page: 1, pageCount: 1)
        }
        guard case .cancelled = resolution else { Issue.record("expected cancelled"); return }
        let unknown = channel.askBlocking(flowID: 10, timeout: nil) { id in
            FlowPrompt(id: id, flowID: 10, flow: .login, fields: [.password], clientId: "c", page: 1, pageCount: 1)
        }
        guard case .cancelled = unknown else { Issue.record("expected cancelled"); return }
        #expect(mailbox.drain().isEmpty)
    }

    @Test func theDescriptorIsReadableExactlyWhileMessagesWait() {
        let mailbox = ServiceMailbox()
        #expect(!mailbox.waitForMessages(timeout: .zero))
        mailbox.post(.prompt(FlowPrompt(id: 1, flowID: 1, flow: .login, fields: [], clientId: "c", page: 1, pageCount: 1)))
        mailbox.post(.prompt(FlowPrompt(id: 2, flowID: 1, flow: .login, fields: [], clientId: "c", page: 1, pageCount: 1)))
        #expect(mailbox.waitForMessages(timeout: .zero))
        #expect(mailbox.drain().count == 2)
        #expect(!mailbox.waitForMessages(timeout: .zero))
    }

    private func event(_ mailbox: ServiceMailbox, _ detail: String) {
        mailbox.postEvent { sequence in
            FlowEvent(flowID: 1, flow: .login, sequence: sequence, step: .start, from: .app, to: .masterController,
                      thread: "test", mainThread: false, time: ManualClock().now, duration: nil, status: nil, detail: detail)
        }
    }

    @Test func anEventAloneWakesTheFrontEndWithinTheEventDelay() {
        let mailbox = ServiceMailbox()
        event(mailbox, "alone")
        #expect(mailbox.waitForMessages(timeout: .seconds(10)))
        let messages = mailbox.drain()
        guard messages.count == 1, case .event(let only) = messages[0] else {
            Issue.record("expected the one event, got \(messages)")
            return
        }
        #expect(only.detail == "alone")
        // Drained: the descriptor is quiet, with no timer left to fire.
        #expect(mailbox.isQuiet)
    }

    @Test func aPromptCarriesTheEventsBeforeItAtOnceAndInOrder() {
        let mailbox = ServiceMailbox()
        event(mailbox, "first")
        event(mailbox, "second")
        mailbox.post(.prompt(FlowPrompt(id: 1, flowID: 1, flow: .login, fields: [], clientId: "c", page: 1, pageCount: 1)))
        #expect(mailbox.waitForMessages(timeout: .zero))
        let messages = mailbox.drain()
        let order = messages.map { message -> String in
            switch message {
            case .event(let event): event.detail
            case .prompt: "prompt"
            default: "other"
            }
        }
        #expect(order == ["first", "second", "prompt"])
        // The events' timer, set when the first was posted, went with them.
        #expect(mailbox.isQuiet)
    }
}

@Suite struct ConcurrentFlowTests {
    @Test func manyDevicesActivateAndLogInAtOnce() {
        let devices = 16
        let failures = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: devices) { index in
            let service = FlowService(environment: SimulationEnvironment(clock: ManualClock(), seed: UInt64(index)))
            let frontEnd = RecordingFrontEnd.answering([Demo.aliceActivation, Demo.alice, [:]])
            let outcomes = [FlowKind.activate, .login, .logout].map { service.run($0, with: frontEnd)?.outcome }
            if outcomes != [.success, .success, .success] || frontEnd.events.contains(where: \.mainThread) {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
    }
}
