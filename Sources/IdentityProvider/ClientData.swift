import Crypto
import Foundation

/// The opaque `clientData` of `GetAstClientDataResultEvent`: which device asks and under which AST client
/// id, sealed with HMAC-SHA-256 under a key the master controller and the IdP share. It is signed, not
/// encrypted: the simulation only needs the IdP to detect a forged or altered value.
public struct ClientData: Sendable, Equatable, Codable {
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

    /// `payload.signature`, both base64url.
    public func sealed(with key: [UInt8]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let payload = Array((try? encoder.encode(self)) ?? Data())
        return Base64URL.encode(payload) + "." + Base64URL.encode(HMAC.sha256(key: key, message: payload))
    }

    /// The claims of a sealed value, or nil when it is malformed or its signature does not verify.
    public static func open(_ sealed: String, with key: [UInt8]) -> ClientData? {
        let parts = sealed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Base64URL.decode(String(parts[0])),
            let signature = Base64URL.decode(String(parts[1])),
            ConstantTime.equals(signature, HMAC.sha256(key: key, message: payload))
        else { return nil }
        return try? JSONDecoder().decode(ClientData.self, from: Data(payload))
    }
}
