import KSMasterController
import Secrets

/// The type of the credentials an interaction's answer carries, re-exported: an app that imports only this module
/// (as it would the vendor's) can `reveal()` them, also under Swift's `MemberImportVisibility`.
@_exported import struct Secrets.Secret

/// What the app implements to answer the IdP's form. `provideCredentials` is called on a background thread (the
/// SDK's `IdpSdk` queue), possibly several times in one `getAuthorizationCode` (one call per form page), and
/// blocks that thread until it returns; the implementation must be thread-safe.
public protocol IdpSdkInteractionInterface: CalledOnSDKThreads {
    func provideCredentials(_ interactionData: IdpSdkInteractionData) -> IdpSdkProvideCredentialsResult
}

/// One request for credentials: which fields, for which client, and which page of the form.
public struct IdpSdkInteractionData: Sendable, Equatable {
    /// The fields the form asks for: ``IdpSdkConstants`` values (`USERNAME` is `username`, `ACTIVATION_CODE` is
    /// `activation-code` …), each the key its value is returned under.
    public let inputFieldIds: [String]
    /// The client id the login is for (idp-tui's addition).
    public let clientId: String
    /// The 1-based page of the IdP's form, and how many pages it has (idp-tui's addition).
    public let page: Int
    public let pageCount: Int

    public init(inputFieldIds: [String], clientId: String, page: Int = 1, pageCount: Int = 1) {
        self.inputFieldIds = inputFieldIds
        self.clientId = clientId
        self.page = page
        self.pageCount = pageCount
    }
}

/// The app's answer: credentials keyed `"username"`, `"password"`, `"activation-code"` … (``IdpSdkInputFieldId/key``),
/// or an error that cancels the login.
///
/// The values become secrets as they enter the SDK: this value prints, dumps and mirrors with every credential
/// redacted, and is not `Codable`.
public struct IdpSdkProvideCredentialsResult: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The values by key, as secrets (`credentials["password"]?.reveal()`): an app's tests can check what its
    /// `provideCredentials` answered on each page without printing it.
    public let credentials: [String: Secret]
    public let error: IdpSdkError?

    public init(credentials: [String: String]) {
        self.credentials = credentials.mapValues { Secret($0) }
        error = nil
    }

    /// The same, for values already held as secrets (idp-tui's addition: its front ends never turn a typed
    /// password back into a `String`).
    public init(secrets: [String: Secret]) {
        credentials = secrets
        error = nil
    }

    public init(error: IdpSdkError) {
        credentials = [:]
        self.error = error
    }

    public var description: String {
        if let error { return "IdpSdkProvideCredentialsResult(error: \(error))" }
        return "IdpSdkProvideCredentialsResult(credentials: [\(credentials.keys.sorted().map { "\($0): <redacted>" }.joined(separator: ", "))])"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "credentials": credentials.keys.sorted().map { "\($0): <redacted>" }, "error": error as Any,
        ])
    }
}
