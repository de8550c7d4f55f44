/// What `getAuthorizationCode` completes with: a code, or an error.
public struct IdpSdkResult: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let authorizationCode: String?
    public let idpSdkError: IdpSdkError?

    public init(authorizationCode: String) {
        self.authorizationCode = authorizationCode
        idpSdkError = nil
    }

    public init(error: IdpSdkError) {
        authorizationCode = nil
        idpSdkError = error
    }

    public func hasError() -> Bool { idpSdkError != nil }

    /// The code itself is never printed: it is a bearer credential until exchanged.
    public var description: String {
        idpSdkError.map { "IdpSdkResult(\($0))" } ?? "IdpSdkResult(authorizationCode: <redacted>)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["authorizationCode": authorizationCode == nil ? (nil as String?) as Any : "<redacted>", "idpSdkError": idpSdkError as Any])
    }
}
