import IdpSdk
import Secrets

/// A request for credentials, passed from `provideCredentials` on a background thread to the front end.
public struct CredentialPrompt: Sendable, Equatable, Identifiable {
    public let id: Int
    public let flowID: Int
    public let flow: FlowKind
    public let fields: [IdpSdkInputFieldId]
    public let clientId: String
    /// 1-based page of the IdP's form, and how many pages it has.
    public let page: Int
    public let pageCount: Int

    public init(
        id: Int, flowID: Int, flow: FlowKind, fields: [IdpSdkInputFieldId], clientId: String, page: Int = 1,
        pageCount: Int = 1
    ) {
        self.id = id
        self.flowID = flowID
        self.flow = flow
        self.fields = fields
        self.clientId = clientId
        self.page = page
        self.pageCount = pageCount
    }

    /// Which flow and which step asked, e.g. "Activate device — step 2 of 2".
    public var title: String {
        pageCount > 1 ? "\(flow.title) — step \(page) of \(pageCount)" : flow.title
    }
}

/// How a front end answers a prompt.
public enum PromptAnswer: Sendable {
    /// Values keyed by `IdpSdkInputFieldId.key`.
    case credentials([String: Secret])
    /// The user cancelled; the SDK receives the "User cancelled" error.
    case cancel
}

extension IdpSdkError {
    /// Subsystem of the errors the app itself returns from `provideCredentials` (the simulator's choice).
    public static let appSubsystem = 1000

    /// What the app returns from `provideCredentials` to cancel, as the migration guide shows.
    public static let userCancelled = IdpSdkError(subsystem: appSubsystem, errorCode: 1, message: "User cancelled")

    /// What the app returns when nobody answered the prompt in time.
    public static func promptTimedOut(after timeout: Duration) -> IdpSdkError {
        IdpSdkError(
            subsystem: appSubsystem, errorCode: 2,
            message: "nobody answered the credential prompt within \(timeout.components.seconds) s")
    }
}
