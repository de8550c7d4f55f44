import Foundation
import JSONText

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
    public let detail: [String: JSONValue]

    public init(name: InframeEventName, detail: [String: JSONValue]) {
        self.name = name
        self.detail = detail
    }

    /// The detail object as JSON text, keys sorted (for logs).
    public var detailJSON: String { JSONValue.object(detail).description }

    public func string(_ key: String) -> String? { detail[key]?.stringValue }
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

/// Web → native: `{"type": "safepay-inframe-event", "name": …, "detail": {…}}`.
package struct InframeMessage: Codable, Sendable {
    package let type: String
    package let name: String
    package let detail: [String: JSONValue]?

    package init(name: String, detail: [String: JSONValue]) {
        type = BridgeProtocol.inframeEventType
        self.name = name
        self.detail = detail
    }
}

/// Native → web: `{"type": "safepay-property-update", "properties": {…}, "messageId": …}`.
package struct PropertyUpdateMessage: Codable, Sendable {
    package let type: String
    package let properties: [String: JSONValue]
    package let messageId: String

    package init(properties: [String: JSONValue], messageId: String) {
        type = BridgeProtocol.propertyUpdateType
        self.properties = properties
        self.messageId = messageId
    }
}

/// The messages as the strings the bridge carries.
package enum BridgeJSON {
    /// The largest message read.
    package static let maximumSize = 65_536

    package static func encode(_ message: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(message) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    package static func decode<Message: Decodable>(_ type: Message.Type, from text: String) -> Message? {
        guard text.utf8.count <= maximumSize else { return nil }
        return try? JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// Parses a web → native message.
    package static func parseInframe(_ text: String) -> Result<InframeEvent, BridgeRejection> {
        guard text.utf8.count <= maximumSize, let object = decode([String: JSONValue].self, from: text) else {
            return .failure(.malformed("not a JSON object"))
        }
        guard object["type"]?.stringValue == BridgeProtocol.inframeEventType else {
            return .failure(.malformed("type is not \(BridgeProtocol.inframeEventType)"))
        }
        guard let name = object["name"]?.stringValue else { return .failure(.malformed("no event name")) }
        guard let known = InframeEventName(rawValue: name) else { return .failure(.unknownEvent(name)) }
        return .success(InframeEvent(name: known, detail: object["detail"]?.objectValue ?? [:]))
    }
}
