import JSONText
import Determinism
import Foundation
import DropsWeb
import SafepayDropsSDK
import Testing
import Threading

/// A bridge on a manual clock, recording what it sends and reports.
final class BridgeHarness: Sendable {
    let clock = ManualClock()
    let origin = "https://drops.sandbox.safepay.idp-tui.test"
    let delivered = Locked<[String]>([])
    let notices = Locked<[BridgeNotice]>([])
    let bridge: MessageBridge

    init(timing: BridgeTiming = .swiftHost) {
        let counter = Locked(0)
        let delivered = delivered
        let notices = notices
        bridge = MessageBridge(
            origin: origin, timing: timing, clock: clock,
            makeID: { counter.withLock { $0 += 1; return "m\($0)" } },
            deliver: { json in delivered.withLock { $0.append(json) } },
            notify: { notice in notices.withLock { $0.append(notice) } })
    }

    func event(_ name: String, _ detail: String = "{}") -> String {
        "{\"type\":\"safepay-inframe-event\",\"name\":\"\(name)\",\"detail\":\(detail)}"
    }

    func ready() { bridge.receive(event("safepay-inframe__ready"), from: origin) }
    func ack(_ id: String) { bridge.receive(event("safepay-inframe__ack", "{\"messageId\":\"\(id)\",\"status\":\"success\"}"), from: origin) }

    var sentAttempts: [Int] {
        notices.withLock { $0 }.compactMap { if case .sent(_, let attempt, _) = $0 { return attempt } else { return nil } }
    }
}

/// The bridge's messages carry the merchant's auth token in clear, for the page: a dump of the bridge (reached from a
/// Drops view in an app's debug log) shows none of them, queued or in flight.
@Suite struct MessageBridgeDumpTests {
    @Test func aDumpOfTheBridgeShowsNoMessage() {
        let harness = BridgeHarness()
        harness.bridge.startWaitingForReady()
        _ = harness.bridge.send(properties: ["authToken": .string("token-abc-in-the-queue")])
        var queued = ""
        dump(harness.bridge, to: &queued)
        #expect(!queued.contains("token-abc"), "\(queued)")
        harness.ready()
        #expect(harness.delivered.withLock { $0.count } == 1, "in flight now")
        var inFlight = ""
        dump(harness.bridge, to: &inFlight)
        #expect(!inFlight.contains("token-abc"), "\(inFlight)")
    }
}

@Suite struct MessageBridgeTests {
    @Test func messagesWaitForReadyThenGoOutWithTheirOwnIds() throws {
        let harness = BridgeHarness()
        let first = harness.bridge.send(properties: ["tracker": .string("t-1")])
        let second = harness.bridge.send(properties: ["tracker": .string("t-2")])
        #expect(first != second)
        #expect(harness.delivered.withLock { $0 }.isEmpty)
        #expect(harness.bridge.pending.queued == 2)
        harness.ready()
        let sent = harness.delivered.withLock { $0 }
        #expect(sent.count == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sent[0].utf8)) as? [String: Any])
        #expect(object["type"] as? String == "safepay-property-update")
        #expect(object["messageId"] as? String == first)
        #expect((object["properties"] as? [String: Any])?["tracker"] as? String == "t-1")
    }

    @Test func anAckClearsTheRetry() {
        let harness = BridgeHarness()
        harness.ready()
        let id = harness.bridge.send(properties: [:])
        #expect(harness.clock.pendingTimerCount == 1)
        harness.ack(id)
        #expect(harness.clock.pendingTimerCount == 0)
        harness.clock.advance(by: .seconds(10))
        #expect(harness.sentAttempts == [1])
        #expect(harness.notices.withLock { $0 }.contains(.acknowledged(messageId: id, status: "success")))
    }

    @Test func aLostAckIsRecoveredByAResendAfterOnePointFiveSeconds() {
        let harness = BridgeHarness()
        harness.ready()
        let id = harness.bridge.send(properties: [:])
        harness.clock.advance(by: .milliseconds(1499))
        #expect(harness.sentAttempts == [1])
        harness.clock.advance(by: .milliseconds(1))
        #expect(harness.sentAttempts == [1, 2])
        harness.ack(id)
        harness.clock.advance(by: .seconds(10))
        #expect(harness.sentAttempts == [1, 2])
        #expect(harness.delivered.withLock { $0.count } == 2)
    }

    @Test func afterThreeRetriesTheDeliveryFails() {
        let harness = BridgeHarness()
        harness.ready()
        let id = harness.bridge.send(properties: [:])
        for _ in 0..<10 { harness.clock.advance(by: .milliseconds(1500)) }
        #expect(harness.sentAttempts == [1, 2, 3, 4])
        #expect(harness.notices.withLock { $0 }.last == .deliveryFailed(messageId: id, attempts: 4))
        #expect(harness.clock.pendingTimerCount == 0)
        harness.ack(id)  // too late: received, but it acknowledges nothing
        #expect(!harness.notices.withLock { $0 }.contains(.acknowledged(messageId: id, status: "success")))
    }

    @Test func theWebHostsTimingIsOneSecondAndTwoRetries() {
        let harness = BridgeHarness(timing: .webHosts)
        harness.ready()
        let id = harness.bridge.send(properties: [:])
        for _ in 0..<10 { harness.clock.advance(by: .milliseconds(1000)) }
        #expect(harness.sentAttempts == [1, 2, 3])
        #expect(harness.notices.withLock { $0 }.last == .deliveryFailed(messageId: id, attempts: 3))
    }

    @Test func disposeClearsTheQueueAndEveryTimer() {
        let harness = BridgeHarness()
        harness.bridge.startWaitingForReady()
        harness.bridge.send(properties: [:])
        harness.ready()
        harness.bridge.send(properties: [:])
        harness.bridge.send(properties: [:])
        #expect(harness.clock.pendingTimerCount == 3)
        harness.bridge.dispose()
        #expect(harness.clock.pendingTimerCount == 0)
        #expect(harness.bridge.pending == (0, 0))
        harness.bridge.send(properties: [:])
        harness.ready()
        harness.clock.advance(by: .seconds(60))
        #expect(harness.delivered.withLock { $0.count } == 3)
    }

    @Test func aPageThatNeverGetsReadyIsReported() {
        let harness = BridgeHarness()
        harness.bridge.send(properties: [:])
        harness.bridge.startWaitingForReady()
        harness.clock.advance(by: .seconds(10))
        #expect(harness.notices.withLock { $0 }.last == .pageNotReady(after: .seconds(10)))
    }

    @Test(arguments: [
        ("{\"type\":\"safepay-inframe-event\",\"name\":", BridgeRejection.malformed("not a JSON object")),
        ("{\"type\":\"other\",\"name\":\"x\"}", .malformed("type is not safepay-inframe-event")),
        ("{\"type\":\"safepay-inframe-event\",\"name\":\"safepay-inframe__mystery\",\"detail\":{}}", .unknownEvent("safepay-inframe__mystery")),
        ("{\"type\":\"safepay-inframe-event\",\"name\":\"safepay-inframe__ack\",\"detail\":{}}", .malformed("ack without messageId")),
    ])
    func badMessagesAreLoggedAndIgnored(_ json: String, _ rejection: BridgeRejection) {
        let harness = BridgeHarness()
        harness.bridge.receive(json, from: harness.origin)
        #expect(harness.notices.withLock { $0 }.contains(.rejected(rejection)))
    }

    /// Found by fuzzing (Fuzz/corpus/bridge/number-beyond-int.json): a whole number too large for an Int in a page
    /// event's detail crashed the native side when it wrote the detail to the log.
    @Test func anEventWithANumberBeyondIntIsReceivedAndItsDetailLogged() throws {
        let harness = BridgeHarness()
        harness.bridge.receive(harness.event("safepay-error", #"{"error":{"message":"x","status":1e19},"n":-3,"f":0.5}"#), from: harness.origin)
        guard case .received(let event)? = harness.notices.withLock({ $0 }).last else {
            Issue.record("the event was not received")
            return
        }
        #expect(event.detailJSON == #"{"error":{"message":"x","status":1e+19},"f":0.5,"n":-3}"#)
    }

    @Test func messagesFromAnotherOriginAreIgnored() {
        let harness = BridgeHarness()
        harness.bridge.send(properties: [:])
        harness.bridge.receive(harness.event("safepay-inframe__ready"), from: "https://evil.example")
        #expect(harness.delivered.withLock { $0 }.isEmpty)
        #expect(harness.notices.withLock { $0 } == [.rejected(.wrongOrigin("https://evil.example"))])
    }
}
