import Foundation

/// The Drops message protocol, as JSON strings (what `window.ReactNativeWebView.postMessage` carries).
public enum BridgeProtocol {
    /// Web → native envelope type.
    public static let inframeEventType = "safepay-inframe-event"
    /// Native → web envelope type.
    public static let propertyUpdateType = "safepay-property-update"
}

/// The event names the page sends (REFERENCE.md §2).
public enum InframeEventName: String, Sendable, CaseIterable {
    case ready = "safepay-inframe__ready"
    case ack = "safepay-inframe__ack"
    case messagesProcessed = "safepay-inframe__messages-processed"
    case enrollmentRequired = "safepay-inframe__enrollment__required"
    case enrollmentFrictionless = "safepay-inframe__enrollment__frictionless"
    case enrollmentFailed = "safepay-inframe__enrollment__failed"
    case cardinalSuccess = "safepay-inframe__cardinal-3ds__success"
    case cardinalFailure = "safepay-inframe__cardinal-3ds__failure"
    case safepayError = "safepay-error"
}

/// A message from the page, parsed.
public struct InframeEvent: Sendable, Equatable {
    public let name: InframeEventName
    /// The `detail` object, as JSON text (kept as text so that the type stays `Sendable`).
    public let detailJSON: String

    /// The detail as a dictionary.
    public var detail: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(detailJSON.utf8))) as? [String: Any] ?? [:]
    }

    public func string(_ key: String) -> String? { detail[key] as? String }
}

/// Why a message from the page was not accepted.
public enum BridgeRejection: Error, Sendable, Equatable, CustomStringConvertible {
    case wrongOrigin(String)
    case malformed(String)
    case unknownEvent(String)

    public var description: String {
        switch self {
        case .wrongOrigin(let origin): "message from \(origin) ignored: it is not the Drops origin"
        case .malformed(let why): "malformed message ignored: \(why)"
        case .unknownEvent(let name): "unknown event \"\(name)\" logged and ignored"
        }
    }
}

package enum BridgeJSON {
    package static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    package static func decode(_ text: String) -> [String: Any]? {
        guard text.utf8.count <= 65_536 else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// Parses a web → native message.
    package static func parseInframe(_ text: String) -> Result<InframeEvent, BridgeRejection> {
        guard let object = decode(text) else { return .failure(.malformed("not a JSON object")) }
        guard object["type"] as? String == BridgeProtocol.inframeEventType else {
            return .failure(.malformed("type is not \(BridgeProtocol.inframeEventType)"))
        }
        guard let name = object["name"] as? String else { return .failure(.malformed("no event name")) }
        guard let known = InframeEventName(rawValue: name) else { return .failure(.unknownEvent(name)) }
        let detail = object["detail"] as? [String: Any] ?? [:]
        return .success(InframeEvent(name: known, detailJSON: encode(detail)))
    }
}
