import Crypto

/// The opaque `clientData` of `GetAstClientDataResultEvent`: which device asks and under which AST client
/// id, sealed with HMAC-SHA-256 under a key the master controller and the IdP share. It is signed, not
/// encrypted: the simulation only needs the IdP to detect a forged or altered value.
public struct ClientData: Sendable, Equatable {
    public var deviceID: String
    public var astClientId: String
    public var nonce: String

    public init(deviceID: String, astClientId: String, nonce: String) {
        self.deviceID = deviceID
        self.astClientId = astClientId
        self.nonce = nonce
    }

    /// The AST client id of a device that is not activated yet: 26 zeros.
    public static let unactivatedAstClientId = String(repeating: "0", count: 26)

    private static let version = "v1"
    private static let separator = "|"

    /// `payload.signature`, both base64url; the payload is `v1|deviceID|astClientId|nonce`.
    public func sealed(with key: [UInt8]) -> String {
        sealed(with: HMAC.Key(key))
    }

    public func sealed(with key: HMAC.Key) -> String {
        let payload = Array([Self.version, deviceID, astClientId, nonce].joined(separator: Self.separator).utf8)
        return Base64URL.encode(payload) + "." + Base64URL.encode(key.authenticate(payload))
    }

    /// The claims of a sealed value, or nil when it is malformed or its signature does not verify.
    /// Works on the UTF-8 bytes: the value is ASCII when well formed, and every request to the IdP opens one.
    public static func open(_ sealed: String, with key: [UInt8]) -> ClientData? {
        open(sealed, with: HMAC.Key(key))
    }

    public static func open(_ sealed: String, with key: HMAC.Key) -> ClientData? {
        let bytes = Array(sealed.utf8)
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")), let payload = Base64URL.decode(bytes[..<dot]),
            let signature = Base64URL.decode(bytes[(dot + 1)...]),
            ConstantTime.equals(signature, key.authenticate(payload))
        else { return nil }
        let fields = payload.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0].elementsEqual(version.utf8) else { return nil }
        return ClientData(deviceID: String(decoding: fields[1], as: UTF8.self),
                          astClientId: String(decoding: fields[2], as: UTF8.self),
                          nonce: String(decoding: fields[3], as: UTF8.self))
    }
}
