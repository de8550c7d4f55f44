import Determinism
import DropsWeb
import Foundation
import JSONText
import SafepayDropsSDK
import Threading

let origin = "https://drops.sandbox.safepay.idp-tui.test"

/// The bridge's and 3-D Secure's message decoders: the input is one message text, read as each side reads what it
/// is sent. The native side parses it as a page event, logs its detail as JSON and decodes its `three_ds` outcome
/// as the payment view does, and `MessageBridge` receives it once the page is ready with two messages waiting for
/// their acks (then their retries run out); the page decodes it as a property update; and it is read as a
/// `three_ds` outcome itself. What decodes is encoded again and decodes to the same message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    nativeSide(text)
    pageSide(text)
    if let outcome = BridgeJSON.decode(ThreeDSecureOutcome.self, from: text) { checkOutcome(outcome) }
    return 0
}

/// What `SafepayPayerAuthenticationView` and `MessageBridge` do with a message from the page. A message that does
/// not parse is only reported as rejected (`MessageBridgeTests` has each rejection), so the bridge itself is driven
/// with the messages that parse: JSON decoding is most of each input's time.
func nativeSide(_ text: String) {
    guard case .success(let event) = BridgeJSON.parseInframe(text) else { return }
    // Logged as JSON, which the log's detail view parses again.
    guard case .object? = (try? JSONParser.parse(event.detailJSON))?.value else {
        fatalError("an event's logged detail is not a JSON object: \(event.detailJSON)")
    }
    if let outcome = event.detail["three_ds"].flatMap({ BridgeJSON.decode(ThreeDSecureOutcome.self, from: $0.description) }) {
        checkOutcome(outcome)
    }
    let again = BridgeJSON.parseInframe(BridgeJSON.encode(InframeMessage(name: event.name.rawValue, detail: event.detail)))
    check(again == .success(event), "an event encoded again reads otherwise: \(again)")

    let counter = Locked(0)
    let notices = Locked<[BridgeNotice]>([])
    let clock = ManualClock()
    let bridge = MessageBridge(
        origin: origin, clock: clock, makeID: { counter.withLock { $0 += 1; return "m\($0)" } }, deliver: { _ in },
        notify: { notice in notices.withLock { $0.append(notice) } })
    bridge.startWaitingForReady()
    bridge.send(properties: ["tracker": .string("t-1")])
    bridge.send(properties: ["tracker": .string("t-2")])
    bridge.receive(#"{"type":"safepay-inframe-event","name":"safepay-inframe__ready","detail":{}}"#, from: origin)
    bridge.receive(text, from: origin)
    check(notices.withLock { $0 }.contains(.received(event)), "the bridge did not report the event it was sent")
    let pending = bridge.pending
    check(pending.inFlight + pending.queued <= 2, "\(pending) messages pending of 2 sent")
    clock.advance(by: .seconds(60))
    check(bridge.pending.inFlight == 0, "messages still in flight after every retry")
    bridge.dispose()
}

/// What the Drops page does with a message from the native side.
func pageSide(_ text: String) {
    guard let message = BridgeJSON.decode(PropertyUpdateMessage.self, from: text) else { return }
    let again = BridgeJSON.decode(PropertyUpdateMessage.self, from: BridgeJSON.encode(message))
    check(again?.type == message.type && again?.messageId == message.messageId && again?.properties == message.properties,
          "a property update encoded again reads otherwise")
}

func checkOutcome(_ outcome: ThreeDSecureOutcome) {
    check(outcome.debugDescription.hasPrefix("ThreeDSecureOutcome("), "debugDescription: \(outcome.debugDescription)")
    let again = BridgeJSON.decode(ThreeDSecureOutcome.self, from: BridgeJSON.encode(outcome))
    check(again == outcome, "a 3-D Secure outcome encoded again reads otherwise")
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
