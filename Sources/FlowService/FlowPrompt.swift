import Q2ModuleInterfaces
import IdpSdk
import DropsWeb
import SafepayDropsSDK
import Secrets
import ThreeDSecure

/// What a prompt asks for.
public enum PromptRequest: Sendable, Equatable {
    /// `provideCredentials`: the fields the IdP's form page asks for.
    case credentials(fields: [IdpSdkInputFieldId], clientId: String, page: Int, pageCount: Int)
    /// The Drops page's card form.
    case paymentDetails(PaymentDefaults)
    /// A 3-D Secure challenge screen (the content of a CRes).
    case challenge(ChallengeScreen)
    /// The Q2 module's sign-in screen: a username and a password, or the saved credential (auto-login).
    case q2SignIn(Q2SignIn)
}

/// What the Q2 sign-in screen shows.
public struct Q2SignIn: Sendable, Equatable {
    /// `presentWithLocalizedErrorMessage`, when set.
    public let banner: String?
    /// The user of the credential saved by the last successful Q2 login in this process, if any.
    public let savedUsername: String?
    /// How the app was opened.
    public let launch: Q2Launch

    public init(banner: String?, savedUsername: String?, launch: Q2Launch) {
        self.banner = banner
        self.savedUsername = savedUsername
        self.launch = launch
    }
}

/// What the card form starts with: the payment the merchant asks for.
public struct PaymentDefaults: Sendable, Equatable {
    public var amount: String
    public var currency: String
    public var merchant: String

    public init(amount: String = "49.99", currency: String = "EUR", merchant: String = "Demo Shop") {
        self.amount = amount
        self.currency = currency
        self.merchant = merchant
    }
}

/// A request from a flow's background thread to the front end: credentials for `provideCredentials`, card
/// details for the Drops page, or a challenge screen's answer.
public struct FlowPrompt: Sendable, Equatable, Identifiable {
    public let id: Int
    public let flowID: Int
    public let flow: FlowKind
    public let request: PromptRequest

    public init(id: Int, flowID: Int, flow: FlowKind, request: PromptRequest) {
        self.id = id
        self.flowID = flowID
        self.flow = flow
        self.request = request
    }

    /// A credential prompt.
    public init(
        id: Int, flowID: Int, flow: FlowKind, fields: [IdpSdkInputFieldId], clientId: String, page: Int = 1,
        pageCount: Int = 1
    ) {
        self.init(id: id, flowID: flowID, flow: flow,
                  request: .credentials(fields: fields, clientId: clientId, page: page, pageCount: pageCount))
    }

    /// The credential fields asked for; empty for the other kinds of prompt.
    public var fields: [IdpSdkInputFieldId] {
        switch request {
        case .credentials(let fields, _, _, _): fields
        case .q2SignIn: [.username, .password]
        default: []
        }
    }

    public var clientId: String {
        if case .credentials(_, let clientId, _, _) = request { return clientId }
        return ""
    }

    /// 1-based page of the IdP's form, and how many pages it has (1 of 1 for other prompts).
    public var page: Int {
        if case .credentials(_, _, let page, _) = request { return page }
        return 1
    }

    public var pageCount: Int {
        if case .credentials(_, _, _, let count) = request { return count }
        return 1
    }

    /// Which flow and which step asked, e.g. "Activate device — step 2 of 2".
    public var title: String {
        switch request {
        case .credentials: pageCount > 1 ? "\(flow.title) — step \(page) of \(pageCount)" : flow.title
        case .paymentDetails: "\(flow.title) — card details"
        case .challenge(let screen): "\(flow.title) — \(screen.issuerName)"
        case .q2SignIn: "\(flow.title) — sign in"
        }
    }
}

/// How a front end answers a prompt. The answer must fit the prompt: credentials for a credential prompt,
/// payment details for the card form, a cardholder action for a challenge.
public enum PromptAnswer: Sendable {
    /// Values keyed by `IdpSdkInputFieldId.key`.
    case credentials([String: Secret])
    /// The card form, filled in.
    case payment(PaymentDetails)
    /// What the cardholder does on a challenge screen.
    case challenge(CardholderAction)
    /// Q2: sign in with the saved credential (only when `shouldAllowAutoLogin()` said yes).
    case q2AutoLogin
    /// The user cancelled: the IdpSdk receives the "User cancelled" error; a closed card form ends the payment
    /// before it starts; a cancelled challenge sends the ACS a cancel (challengeCancel 01).
    case cancel

    func fits(_ request: PromptRequest) -> Bool {
        switch (self, request) {
        case (.cancel, _), (.credentials, .credentials), (.payment, .paymentDetails), (.challenge, .challenge),
            (.credentials, .q2SignIn), (.q2AutoLogin, .q2SignIn): true
        default: false
        }
    }
}

extension IdpSdkError {
    /// Subsystem of the errors the app itself returns from `provideCredentials` (the simulator's choice).
    public static let appSubsystem = 1000

    /// What the app returns from `provideCredentials` to cancel, as the migration guide shows.
    public static let userCancelled = IdpSdkError(appSubsystem, 1, "User cancelled")

    /// What the app returns when nobody answered the prompt in time.
    public static func promptTimedOut(after timeout: Duration) -> IdpSdkError {
        IdpSdkError(appSubsystem, 2, "nobody answered the credential prompt within \(timeout.components.seconds) s")
    }
}
