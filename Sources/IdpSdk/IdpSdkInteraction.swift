import Secrets

/// What the app implements to answer the IdP's form. `provideCredentials` is called on a background thread,
/// possibly several times in one `getAuthorizationCode` (one call per form page), and blocks that thread
/// until it returns.
public protocol IdpSdkInteractionInterface: AnyObject, Sendable {
    func provideCredentials(_ interactionData: IdpSdkInteractionData) -> IdpSdkProvideCredentialsResult
}

/// One request for credentials: which fields, for which client, and which page of the form.
public struct IdpSdkInteractionData: Sendable, Equatable {
    public let inputFieldIds: [IdpSdkInputFieldId]
    public let clientId: String
    /// 1-based page of the IdP's form, and how many pages it has.
    public let page: Int
    public let pageCount: Int

    public init(inputFieldIds: [IdpSdkInputFieldId], clientId: String, page: Int = 1, pageCount: Int = 1) {
        self.inputFieldIds = inputFieldIds
        self.clientId = clientId
        self.page = page
        self.pageCount = pageCount
    }
}

/// The app's answer: credentials keyed by `IdpSdkInputFieldId.key`, or an error that cancels the login.
public struct IdpSdkProvideCredentialsResult: Sendable {
    public let credentials: [String: Secret]
    public let error: IdpSdkError?

    public init(credentials: [String: Secret]) {
        self.credentials = credentials
        error = nil
    }

    public init(error: IdpSdkError) {
        credentials = [:]
        self.error = error
    }
}
