import FlowEngine
import IdentityProvider
import IdpSdk
import KSMasterController

// The IdpSdk family's flows, steps, parties and prompt.

extension FlowKind {
    static let identityLanes: [Participant] = [.app, .idpSdk, .masterController, .identityProvider]
    static let idpSdk = "IdpSdk on MC-SDK"

    public static let activate = FlowKind(
        "activate", title: "Activate device", lanes: identityLanes, sdk: idpSdk,
        summarize: DeviceWording.summarize(success: "Device activated and logged in"))
    public static let login = FlowKind(
        "login", title: "Log in", lanes: identityLanes, sdk: idpSdk, fallbackSteps: [.offlineLogin],
        summarize: DeviceWording.summarize(success: "Logged in"))
    public static let logout = FlowKind(
        "logout", title: "Log out", asksTheUser: false, lanes: identityLanes, sdk: idpSdk, summarize: DeviceWording.logout)
}

extension FlowStep {
    public static let start = FlowStep("Start")
    public static let getAstClientData = FlowStep("GetAstClientData")
    public static let getAuthorizationCode = FlowStep("getAuthorizationCode")
    public static let provideCredentials = FlowStep("provideCredentials")
    public static let setAuthorisationCode = FlowStep("SetAuthorisationCode")
    public static let restart = FlowStep("Restart")
    public static let offlineLogin = FlowStep("OfflineLogin")
    /// The MC-SDK reported a runtime error (`KSMErrorRuntimeEvent`) and restarted itself: the step its event names,
    /// as `Start` is `StartEvent`'s (it was `RuntimeError`, a third name for it).
    public static let errorRuntime = FlowStep("ErrorRuntime")
}

extension Participant {
    public static let idpSdk = Participant("IdpSdk")
    public static let masterController = Participant("MC-SDK")
    public static let identityProvider = Participant("IdP")
    /// The legacy KSSIDP wrapper (its requests to the IdP go from its own queue).
    public static let kssidp = Participant("KSSIDP")
}

extension FlowStep {
    /// A KSSIDP app's own form, every credential up front before it calls the wrapper: not the IdpSdk's
    /// `provideCredentials`, which a KSSIDP flow never calls (a migrator read it so).
    public static let credentialForm = FlowStep("credential form")
}

/// The statuses the simulator reports beyond the MC-SDK's `StatusType`.
public enum SimulatorStatus {
    /// A one-time activation code was presented a second time.
    public static let activationCodeUsed = "ACTIVATION_CODE_USED"
    /// Nobody answered a credential prompt before the timeout.
    public static let promptTimeout = EngineStatus.promptTimeout
    /// A login on a device that is not activated (the `sdkState` name).
    public static let activationRequired = KSMSdkState.activationRequired.rawValue
    /// The MC-SDK refused to start on a rooted or jailbroken device.
    public static let insecureDevice = "INSECURE_DEVICE"
}

/// The IdP's login form, one page: the fields `provideCredentials` is asked for.
public struct CredentialsRequest: CredentialForm, Equatable {
    public let fields: [CredentialField]
    public let clientId: String
    /// The 1-based page of the IdP's form, and how many pages it has.
    public let page: Int
    public let pageCount: Int
    /// The user the app passed to `getAuthorizationCode` (a login's: the MC-SDK's user list names the user the
    /// device is activated for): the form's user name starts with it, as an app's login screen would.
    public let knownUsername: String?
    /// The KSSIDP wrapper's call the app collects every field for, up front, before calling it
    /// (`KssIdpWrapper.activate`); nil for the IdP's own form, which the IdpSdk asks for page by page.
    public let forWrapperCall: String?

    public init(fields: [CredentialField], clientId: String, page: Int = 1, pageCount: Int = 1, knownUsername: String? = nil,
                forWrapperCall: String? = nil) {
        self.fields = fields
        self.clientId = clientId
        self.page = page
        self.pageCount = pageCount
        self.knownUsername = knownUsername
        self.forWrapperCall = forWrapperCall
    }

    public func accepts(_ answer: PromptAnswer) -> Bool { answer.value(as: Credentials.self) != nil }

    public var sending: String? {
        if let forWrapperCall { return "KSSIDP: \(forWrapperCall)…" }
        return clientId.isEmpty ? nil : "IdpSdk: submitting page \(page) of \(pageCount)…"
    }

    /// Who asks: the IdpSdk for its IdP's form; the app, for KSSIDP, which takes every field up front (it read "The
    /// IdpSdk asks for username, password, activation-code" over a KSSIDP activation).
    public var askedBy: (who: String, identified: String)? {
        if let forWrapperCall { return ("The app", "all up front, for \(forWrapperCall)") }
        return clientId.isEmpty ? nil : ("The IdpSdk", "client \(clientId)")
    }

    public func title(in flow: FlowKind) -> String { pageCount > 1 ? "\(flow.title) — step \(page) of \(pageCount)" : flow.title }
}

extension FlowPrompt {
    /// A credential prompt of the IdP's form.
    public init(id: Int, flowID: Int, flow: FlowKind, fields: [CredentialField], clientId: String, page: Int = 1, pageCount: Int = 1) {
        self.init(id: id, flowID: flowID, flow: flow,
                  request: CredentialsRequest(fields: fields, clientId: clientId, page: page, pageCount: pageCount))
    }

    /// The 1-based page of an IdP form prompt, and how many pages it has (1 of 1 for other prompts).
    public var page: Int { (request as? CredentialsRequest)?.page ?? 1 }
    public var pageCount: Int { (request as? CredentialsRequest)?.pageCount ?? 1 }
}

extension CredentialField {
    /// The IdP's own fields, beside the user name and password every sign-in has.
    public static let activationCode = CredentialField(key: "activation-code", isSecret: true, label: "Activation code")
    public static let newPassword = CredentialField(key: "new-password", isSecret: true, label: "New password")
    public static let currentPassword = CredentialField(key: "current-password", isSecret: true, label: "Current password")
}

extension IdpSdkInputFieldId {
    /// The form field this id asks for.
    public var credentialField: CredentialField {
        switch self {
        case .username: .username
        case .password: .password
        case .activationCode: .activationCode
        case .newPassword: .newPassword
        case .currentPassword: .currentPassword
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
        IdpSdkError(appSubsystem, 2, "the credential prompt was not answered within \(timeout.secondsText)")
    }
}

extension FlowError {
    public init(_ error: IdpSdkError) {
        self.init(subsystem: error.subsystem, code: error.errorCode, message: error.errorDescription)
    }
}
